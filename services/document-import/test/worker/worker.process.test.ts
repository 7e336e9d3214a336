// The parser workers as the chart runs them: `docx-worker` child processes on a consumer group,
// against the real MongoDB and Kafka, with the job use cases in the test process playing the API.
import { expect } from 'chai';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS } from '../../../../kafka/topics.js';
import type { EventBus } from '../../../kit/src/bus/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { expectValidEvent } from '../../../kit/test/support/event-schemas.js';
import { waitFor } from '../../../kit/test/support/kafka-helpers.js';
import { jobModels } from '../../src/store/job-models.js';
import { makeDocx } from '../parser/support/build-docx.js';
import {
  entityExpansionDocx,
  outboxEvents,
  questionsDocx,
  quietLogger,
  SCOPE,
  startWorkerProcess,
  stopWorker,
  testJobs,
  testSetup,
  zipBombDocx,
  type TestSetup,
  type WorkerProcess,
} from '../jobs/support.js';
import { openJobs, type OpenJobs } from '../../src/domain/jobs/open.js';
import { getJob, jobEvents, jobStatus, listJobs } from '../../src/domain/jobs/queries.js';
import { recoverJobs } from '../../src/domain/jobs/recover.js';
import { submitJob } from '../../src/domain/jobs/submit.js';
import type { JobStatus } from '../../src/domain/jobs/types.js';

const DEADLINE_MS = 90_000;

describe('docx-worker processes (real MongoDB and Kafka)', function () {
  this.timeout(180_000);
  let setup: TestSetup;
  let db: MongoHandle;
  let bus: EventBus;
  let jobs: OpenJobs;
  let workers: WorkerProcess[] = [];
  let docx: Buffer;

  before(async () => {
    setup = testSetup(import.meta.url);
    ({ db, bus, jobs } = await testJobs(setup));
    docx = await questionsDocx(4);
  });
  afterEach(async () => {
    await Promise.all(workers.map(stopWorker));
    workers = [];
  });
  after(async () => {
    await jobs.close();
    await bus.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  const submit = (bytes: Buffer, fileName = 'de.docx', jobKind: 'QAS' | 'DOCX_FAST' = 'QAS') =>
    submitJob(jobs.deps, SCOPE, { source: { bytes }, fileName, jobKind, jobSource: 'UPLOAD' }).then((r) => r.job);

  const statusOf = async (id: string) => (await getJob(jobs.deps, SCOPE, id)).status;

  const until = (id: string, wanted: JobStatus[]) =>
    waitFor(`job ${id} to reach ${wanted.join('|')}`, async () => wanted.includes(await statusOf(id)), DEADLINE_MS);

  const worker = (extra: Record<string, string> = {}) => {
    const w = startWorkerProcess({ ...setup.env, ...extra });
    workers.push(w);
    return w;
  };

  it('parses an upload into a COMPLETED job with its events in order, valid, and the payload released', async () => {
    worker();
    const job = await submit(docx, 'fast.docx', 'DOCX_FAST');
    await until(job.id, ['COMPLETED']);
    const detail = await getJob(jobs.deps, SCOPE, job.id);
    expect(detail.counters).to.include({ totalQuestions: 4 });
    expect(detail.queue).to.equal(undefined);
    expect((detail.parseResultJson!.questions as unknown[]).length).to.equal(4);
    expect(detail.packagingJson!.docxFastTempDraft).to.deep.equal({
      status: 'MATERIALIZED',
      token: `materialized-${job.id}`,
      assets: [],
    });
    expect((await jobEvents(jobs.deps, SCOPE, job.id)).map((e) => e.type)).to.deep.equal([
      'job.queued',
      'job.started',
      'job.completed',
    ]);
    await waitFor('the payload released', () => readdirSync(setup.config.DOCX_IMPORT_PAYLOAD_DIR).length === 0);
    const published = await waitFor('the three events published', async () => {
      const events = (await outboxEvents(db, setup.config.DOCX_IMPORT_EVENTS_TOPIC)).filter(
        (e) => e.subject === job.id,
      );
      return events.length === 3 ? events : null;
    });
    for (const e of published!) {
      expectValidEvent(e, TOPICS.docxImportJobEvents);
      expect(JSON.stringify(e)).not.to.match(/spool-dir|payloadRef|Giá trị của/);
    }
    expect((await jobStatus(jobs.deps, SCOPE, job.id)).totalQuestions).to.equal(4);
  });

  it('records auto_approval.failed (job stays COMPLETED) when the question bank is not configured', async () => {
    worker();
    const { job } = await submitJob(jobs.deps, SCOPE, {
      source: { bytes: docx },
      fileName: 'auto.docx',
      jobKind: 'DOCX_FAST',
      jobSource: 'STORAGE',
      autoApproveToQuestionBank: true,
    });
    const types = await waitFor(
      'auto_approval.failed',
      async () => {
        const t = (await jobEvents(jobs.deps, SCOPE, job.id)).map((e) => e.type);
        return t.includes('auto_approval.failed') ? t : null;
      },
      DEADLINE_MS,
    );
    expect(types).to.deep.equal(['job.queued', 'job.started', 'job.completed', 'auto_approval.failed']);
    expect(await statusOf(job.id)).to.equal('COMPLETED');
    // The event is stored with the job; its outbox entry is moved there just after, by the worker.
    const failed = await waitFor(
      'the auto_approval.failed outbox entry',
      async () =>
        (await outboxEvents(db, setup.config.DOCX_IMPORT_EVENTS_TOPIC)).find(
          (e) => e.subject === job.id && e.type === 'docx-import.auto_approval.failed.v1',
        ) ?? null,
      DEADLINE_MS,
    );
    expectValidEvent(failed, TOPICS.docxImportJobEvents);
    expect(failed!.data.error).to.deep.include({ code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('fails hostile files (entity expansion, zip bomb) with the parser’s code and keeps working', async () => {
    const w = worker();
    const entities = await submit(entityExpansionDocx(), 'entities.docx');
    const bomb = await submit(zipBombDocx(), 'bomb.docx');
    const fine = await submit(docx, 'fine.docx');
    await until(entities.id, ['FAILED']);
    await until(bomb.id, ['FAILED']);
    await until(fine.id, ['COMPLETED']);
    expect((await getJob(jobs.deps, SCOPE, entities.id)).errorSummary!.code).to.equal('DOCX_XML_DOCTYPE');
    expect((await getJob(jobs.deps, SCOPE, bomb.id)).errorSummary!.code).to.match(
      /^DOCX_(COMPRESSION_RATIO|TOO_LARGE)$/,
    );
    expect(w.child.exitCode).to.equal(null);
    const failed = (await outboxEvents(db, setup.config.DOCX_IMPORT_EVENTS_TOPIC)).filter(
      (e) => e.type === 'docx-import.job.failed.v1',
    );
    failed.forEach((e) => expectValidEvent(e, TOPICS.docxImportJobEvents));
  });

  it('fails a DOCX without a question with DOCX_NO_QUESTIONS_FOUND and what was seen; the event stays valid', async () => {
    worker();
    const notice = Buffer.from(await makeDocx(['Thông báo họp phụ huynh', 'Thời gian: thứ Bảy']));
    const job = await submit(notice, 'thong-bao.docx');
    await until(job.id, ['FAILED']);
    expect((await getJob(jobs.deps, SCOPE, job.id)).errorSummary).to.deep.equal({
      code: 'DOCX_NO_QUESTIONS_FOUND',
      message:
        'no question found in 2 paragraphs and 0 tables; the first lines: "Thông báo họp phụ huynh", "Thời gian: thứ Bảy"',
      details: { paragraphs: 2, tables: 0, firstLines: ['Thông báo họp phụ huynh', 'Thời gian: thứ Bảy'] },
    });
    const failed = await waitFor(
      'the job.failed outbox entry',
      async () =>
        (await outboxEvents(db, setup.config.DOCX_IMPORT_EVENTS_TOPIC)).find(
          (e) => e.subject === job.id && e.type === 'docx-import.job.failed.v1',
        ) ?? null,
      DEADLINE_MS,
    );
    expectValidEvent(failed, TOPICS.docxImportJobEvents);
    expect(failed!.data.error).to.deep.include({ code: 'DOCX_NO_QUESTIONS_FOUND' });
  });

  it('completes ten uploads submitted at once with two worker processes', async () => {
    worker();
    worker();
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(docx, `burst-${i}.docx`)));
    for (const job of burst) await until(job.id, ['COMPLETED']);
    const page = await listJobs(jobs.deps, SCOPE, { q: 'burst-' }, { page: 1, limit: 20 });
    expect(page.items.filter((j) => j.status === 'COMPLETED')).to.have.length(10);
  });

  it('after a service restart with jobs in flight, re-enqueued jobs complete and a lost payload FAILs', async () => {
    // The "crashed" service stored the jobs but never published (its relay never ran).
    const quiet = await openJobs({
      config: { ...setup.config, OUTBOX_PUBLISHER: 'none' },
      db,
      logger: quietLogger(),
    });
    const up = (name: string) =>
      submitJob(quiet.deps, SCOPE, { source: { bytes: docx }, fileName: name, jobKind: 'QAS', jobSource: 'UPLOAD' });
    const kept = (await up('restart-kept.docx')).job;
    const lost = (await up('restart-lost.docx')).job;
    await quiet.close();
    const { ImportJob } = jobModels(db.conn);
    await ImportJob.updateOne({ _id: kept.id }, { $set: { status: 'PROCESSING', lease: null } });
    rmSync(join(setup.config.DOCX_IMPORT_PAYLOAD_DIR, `${lost.id}-r1.docx`));
    expect(await recoverJobs(jobs.deps)).to.deep.include({ failed: 1 });
    worker();
    await until(kept.id, ['COMPLETED']);
    const failed = await getJob(jobs.deps, SCOPE, lost.id);
    expect(failed.status).to.equal('FAILED');
    expect(failed.errorSummary!.code).to.equal('DOCX_IMPORT_PAYLOAD_MISSING');
  });

  it('FAILs a job whose every worker dies (SIGKILL mid-job) with DOCX_WORKER_CRASHED after the default 3 attempts', async () => {
    const pauseFile = join(setup.config.DOCX_IMPORT_PAYLOAD_DIR, '..', `poison-${process.pid}-${Date.now()}`);
    writeFileSync(pauseFile, 'hold');
    const { ImportJob } = jobModels(db.conn);
    try {
      const job = await submit(docx, 'poison.docx');
      // Each worker takes the job (the attempt is stored before any byte is parsed) and dies in it.
      for (let attempt = 1; attempt <= 3; attempt++) {
        const doomed = worker({ DOCX_WORKER_PAUSE_FILE: pauseFile });
        await waitFor(
          `attempt ${attempt} stored`,
          async () => (await ImportJob.findById(job.id).lean())?.attempts === attempt,
          DEADLINE_MS,
        );
        doomed.child.kill('SIGKILL');
        expect(await doomed.exited).to.equal('SIGKILL');
      }
      const survivor = worker();
      await until(job.id, ['FAILED']);
      const failed = await getJob(jobs.deps, SCOPE, job.id);
      expect(failed.errorSummary!.code).to.equal('DOCX_WORKER_CRASHED');
      expect((await ImportJob.findById(job.id).lean())!.attempts).to.equal(3);
      expect((await jobEvents(jobs.deps, SCOPE, job.id)).map((e) => e.type)).to.deep.equal([
        'job.queued',
        'job.started',
        'job.started',
        'job.started',
        'job.failed',
      ]);
      await waitFor('the payload released', () => readdirSync(setup.config.DOCX_IMPORT_PAYLOAD_DIR).length === 0);
      const event = await waitFor(
        'the job.failed outbox entry',
        async () =>
          (await outboxEvents(db, setup.config.DOCX_IMPORT_EVENTS_TOPIC)).find(
            (e) => e.subject === job.id && e.type === 'docx-import.job.failed.v1',
          ) ?? null,
        DEADLINE_MS,
      );
      expectValidEvent(event, TOPICS.docxImportJobEvents);
      expect(event!.data.error).to.deep.include({ code: 'DOCX_WORKER_CRASHED' });
      // The survivor is not stuck on it: the next job completes.
      const next = await submit(docx, 'after-poison.docx');
      await until(next.id, ['COMPLETED']);
      expect(survivor.child.exitCode).to.equal(null);
    } finally {
      rmSync(pauseFile, { force: true });
    }
  });

  it('loses no job when a worker is killed with SIGKILL mid-job: another worker takes it over', async () => {
    const pauseFile = join(setup.config.DOCX_IMPORT_PAYLOAD_DIR, '..', `pause-${process.pid}-${Date.now()}`);
    writeFileSync(pauseFile, 'hold');
    try {
      const first = worker({ DOCX_WORKER_PAUSE_FILE: pauseFile });
      const job = await submit(docx, 'killed.docx');
      await until(job.id, ['PROCESSING']);
      first.child.kill('SIGKILL');
      expect(await first.exited).to.equal('SIGKILL');
      worker();
      await until(job.id, ['COMPLETED']);
      const types = (await jobEvents(jobs.deps, SCOPE, job.id)).map((e) => e.type);
      expect(types).to.deep.equal(['job.queued', 'job.started', 'job.started', 'job.completed']);
    } finally {
      rmSync(pauseFile, { force: true });
    }
  });
});
