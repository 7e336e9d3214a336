// The platform's exam flow end to end over HTTP, with the driver the cluster tests point at the
// Services of a real node (k8s-tests/platform/exam-flow.ts), here against the real services run
// locally: auth, question bank, document import (approval into this question bank) and attempt, each
// on its own port and database, the local document and exam services (services/peers) beside them as
// production's are, one docx-worker child process, the test MongoDB and Kafka on private topics, and
// INTERNAL_API_TOKEN set everywhere as the chart sets it.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line no-restricted-imports -- the driver lives with the cluster tests that run it against pods; this test proves it against local processes
import { examFlow, type ExamFlowSummary } from '../../../k8s-tests/platform/exam-flow.js';
import { attemptService } from '../../attempt/src/service.js';
import { authService } from '../../auth/src/service.js';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import { testDbName, testKafkaBrokers, testMongoUri } from '../../kit/test/support/servers.js';
import { startDocumentPeer, startExamPeer, type RunningPeer } from '../../peers/src/index.js';
import { questionBankService } from '../../question-bank/src/service.js';
import { documentImportService } from '../src/service.js';
import { startWorkerProcess, stopWorker, type WorkerProcess } from './jobs/support.js';

describe('exam flow over HTTP: auth → question bank → DOCX import and worker → attempt (real services)', function () {
  this.timeout(300_000);
  const token = `flow-${randomUUID()}`;
  const organizationId = `org-flow-${randomUUID().slice(0, 8)}`;
  const tag = randomUUID().slice(0, 8);
  // Databases are named per process and file (testDbName); each run drops its own at the end.
  const file = import.meta.url;
  const services: Array<TestService<object, object>> = [];
  const peers: Array<RunningPeer<object>> = [];
  let worker: WorkerProcess | undefined;
  let spoolDir = '';
  let urls = { auth: '', questionBank: '', documentImport: '', attempt: '' };

  const start = async <C extends object, B extends object>(s: Promise<TestService<C, B>>) => {
    const svc = await s;
    services.push(svc as unknown as TestService<object, object>);
    return svc;
  };

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'exam-flow-spool-'));
    const common = { INTERNAL_API_TOKEN: token, LOG_LEVEL: 'warn' };
    // The import's queue, its events and the parser group are this run's alone.
    const queue = {
      DOCX_IMPORT_TOPIC: `docx-import.jobs.flow-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.flow-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-flow-${tag}`,
      DOCX_IMPORT_PAYLOAD_DIR: spoolDir,
    };
    const auth = await start(
      startTestService(authService, {
        file,
        env: { ...common, AUTH_BCRYPT_COST: '4' },
      }),
    );
    const qb = await start(startTestService(questionBankService, { file, env: common }));
    // The document and exam services outside the platform, as their own peers (the chart points at the real ones).
    const peer = { mongoUri: testMongoUri(), internalToken: token, dropDatabaseOnClose: true };
    const documents = await startDocumentPeer({ ...peer, dbName: testDbName('peer_docs', file) });
    peers.push(documents);
    const exams = await startExamPeer({ ...peer, dbName: testDbName('peer_exams', file) });
    peers.push(exams);
    const peerUrls = { DOCUMENT_SERVICE_URL: documents.url, EXAM_SERVICE_URL: exams.url };
    const di = await start(
      startTestService(documentImportService, {
        file,
        kafka: true,
        env: { ...common, ...queue, ...peerUrls, QUESTION_BANK_URL: qb.url },
      }),
    );
    const attempt = await start(
      startTestService(attemptService, { file, env: { ...common, ATTEMPT_SWEEP_INTERVAL_MS: '0' } }),
    );
    // The parser worker as the chart runs it: `docx-worker`, its own process, the API's database and spool.
    worker = startWorkerProcess({
      ...common,
      ...queue,
      NODE_ENV: 'test',
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: di.config.MONGODB_DB,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      QUESTION_BANK_URL: qb.url,
    });
    urls = { auth: auth.url, questionBank: qb.url, documentImport: di.url, attempt: attempt.url };
  });

  after(async () => {
    if (worker) await stopWorker(worker);
    for (const svc of services.reverse()) await svc.close();
    for (const peer of peers) await peer.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  it('registers, writes and imports questions, publishes and selects them, and grades the attempt as the keys say', async () => {
    let summary: ExamFlowSummary;
    try {
      summary = await examFlow(urls, { organizationId, internalToken: token });
    } catch (err) {
      // The worker's own log says why an import job never completed.
      throw new Error(`${(err as Error).message}\n--- docx-worker output ---\n${worker?.output().slice(-4000)}`);
    }
    expect(summary.organizationId).to.equal(organizationId);
    expect(summary.importedQuestionIds).to.have.length(6);
    expect(summary.examQuestionIds).to.have.members([summary.directQuestionId, ...summary.importedQuestionIds]);
    expect(summary.answered.right + summary.answered.wrong + summary.answered.blank).to.equal(7);
    expect(summary.answered.right).to.be.greaterThan(0);
    expect(summary.answered.wrong).to.be.greaterThan(0);
    expect(summary.totalScore).to.equal(summary.expectedScore);
    expect(summary.totalScore).to.be.lessThan(summary.maxScore);
    expect(summary.scorePercent).to.be.closeTo((100 * summary.totalScore) / summary.maxScore, 1e-9);
  });

  it('refuses a call without the internal token (the driver must send it)', async () => {
    const res = await fetch(`${urls.questionBank}/v1/questions`, {
      headers: { 'X-User-Id': 't1', 'X-User-Role': 'TEACHER', 'X-Organization-Id': organizationId },
    });
    expect(res.status).to.equal(401);
  });
});
