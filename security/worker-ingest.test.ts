import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import mongoose from 'mongoose';
import type { RunningPeer } from '../services/peers/src/index.js';
import { documentPeer, storeDocx } from './support/documents.js';
import { testDbName, testKafkaBrokers, testMongoUri } from '../services/kit/test/support/servers.js';
import { startStack, type Stack } from './support/stack.js';
import { launch, type ServiceProcess } from './support/processes.js';
import { call, until } from './support/http.js';

// Issue 33 (5): the DOCX workers' credential opened the question bank's ingest with tenant and
// author taken from headers the caller writes. The attacker is a compromised worker: it holds the
// worker token and the document-import database (every job row, the grants of live jobs included),
// and tries to put questions and answer keys into school B's bank in a teacher's name.
describe("security: the workers' ingest is bound to a live import job (real processes, NODE_ENV=production)", function () {
  this.timeout(180000);
  let stack: Stack;
  let peer: RunningPeer<unknown>;
  const started: ServiceProcess[] = [];
  const dbName = testDbName('document_import_grants', import.meta.url);
  let importer: ServiceProcess;
  before(async () => {
    stack = await startStack(import.meta.url);
    peer = await documentPeer(stack, import.meta.url);
    const tag = randomUUID().slice(0, 8);
    const env: Record<string, string> = {
      ...stack.baseEnv,
      MONGODB_DB: dbName,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      DOCUMENT_SERVICE_URL: peer.url,
      QUESTION_BANK_URL: stack.services['question-bank'],
      DOCX_IMPORT_TOPIC: `docx-import.jobs.g-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.g-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-g-${tag}`,
    };
    importer = await launch('document-import', 'document-import', env);
    started.push(importer);
    const { INTERNAL_API_TOKEN: _internal, ...workerEnv } = env;
    started.push(await launch('docx-worker', 'docx-worker', workerEnv));
  });
  after(async () => {
    await Promise.all(started.map((p) => p.stop()));
    await peer?.close();
    await stack?.close();
  });

  const as = (userId: string, role: string, organizationId: string) => ({
    'X-Internal-Token': stack.secrets.internal,
    'X-User-Id': userId,
    'X-User-Role': role,
    'X-Organization-Id': organizationId,
  });
  const qb = (path: string) => `${stack.services['question-bank']}${path}`;
  /** How many questions of the import job the organization's bank holds. */
  const banked = async (organizationId: string, userId: string, jobId: string) => {
    const path = `/v1/questions?limit=100&sourceImportJobId=${encodeURIComponent(jobId)}`;
    const res = await call(qb(path), { headers: as(userId, 'TEACHER', organizationId) });
    expect(res.status, res.text).to.equal(200);
    return (res.body.data as { meta: { total: number } }).meta.total;
  };
  const forgedIngest = (jobId: string, grant?: string) =>
    call(qb('/v1/questions/import-docx-output'), {
      method: 'POST',
      headers: {
        'X-Internal-Token': stack.secrets.worker,
        'X-User-Id': 'teacher-b',
        'X-User-Role': 'TEACHER',
        'X-Organization-Id': 'school-b',
        ...(grant ? { 'X-Import-Grant': grant } : {}),
      },
      json: {
        document_id: 'docx-forged',
        latency_ms: 1,
        questions: [{ id: 'q1', type: 'SINGLE_CHOICE', content: 'Câu giả?', options: [], correct_answer: 'A' }],
        warnings: [],
        stats: {},
        sourceImportJobId: jobId,
      },
    });

  it("a teacher's auto-approved job reaches its own bank through the worker; the worker cannot write into another school's", async () => {
    const key = `uploads/2026-12-03/${randomUUID()}/de-kiem-tra.docx`;
    await storeDocx(stack, peer, key, 'school-a');
    const job = await call(`${importer.url}/v1/import/docx/docx-fast-jobs`, {
      method: 'POST',
      headers: as('teacher-a', 'TEACHER', 'school-a'),
      json: { questionStorageKey: key, questionFileName: 'de.docx', title: 'Đề', autoApproveToQuestionBank: true },
    });
    expect(job.status, job.text).to.equal(202);
    const jobId = (job.body.data as { id: string }).id;
    // the legitimate path: the worker parses, auto-approves with the job's grant, the questions are school A's
    await until(
      'the auto-approved questions are in school A',
      async () => (await banked('school-a', 'teacher-a', jobId)) === 2,
    );

    // the compromised worker: no grant, a grant it signs itself, and the live job's own grant read from the database
    const conn = await mongoose.createConnection(testMongoUri(), { dbName }).asPromise();
    try {
      const row = await conn.collection('import_jobs').findOne({ _id: jobId } as never);
      const liveGrant = row?.ingestGrant as string | undefined;
      expect(liveGrant, 'the job row holds its grant').to.be.a('string');
      const selfMade = `${Buffer.from(JSON.stringify({ jobId, organizationId: 'school-b', userId: 'teacher-b', exp: 4e9 })).toString('base64url')}.AAAA`;
      for (const [grant, reason] of [
        [undefined, 'missing'],
        [selfMade, 'signature'],
        [liveGrant, 'mismatch'],
      ] as const) {
        const res = await forgedIngest(jobId, grant);
        expect(res.status, `${reason}: ${res.text}`).to.equal(403);
        expect(res.body.error?.details).to.deep.equal({ reason });
      }
    } finally {
      await conn.close();
    }
    expect(await banked('school-b', 'teacher-b', jobId)).to.equal(0);
  });
});
