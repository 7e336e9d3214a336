import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS } from '../../../../kafka/topics.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { expectValidEvent } from '../../../kit/test/support/event-schemas.js';
import type { DocumentImportConfig } from '../../src/config.js';
import { jobModels } from '../../src/store/job-models.js';
import { connect, outboxEvents, questionsDocx, quietLogger, SCOPE, testSetup } from './support.js';
import { openJobs, type OpenJobs } from '../../src/domain/jobs/open.js';
import { getJob, jobEvents, listJobs, queueOf } from '../../src/domain/jobs/queries.js';
import { recoverJobs } from '../../src/domain/jobs/recover.js';
import { recordApproval, saveReview } from '../../src/domain/jobs/review.js';
import { findReplay, reprocessJob, submitJob } from '../../src/domain/jobs/submit.js';

describe('document-import job use cases (MongoDB, no worker)', () => {
  let config: DocumentImportConfig;
  let db: MongoHandle;
  let jobs: OpenJobs;
  let docx: Buffer;

  before(async () => {
    config = testSetup(import.meta.url, { OUTBOX_PUBLISHER: 'none' }).config;
    db = await connect(config);
    jobs = await openJobs({ config, db, logger: quietLogger() });
    docx = await questionsDocx(3);
  });
  beforeEach(async () => {
    await Promise.all(Object.values(db.conn.models).map((m) => m.deleteMany({}).exec()));
  });
  after(async () => {
    await jobs.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  const upload = (fileName = 'de-thi.docx') =>
    submitJob(jobs.deps, SCOPE, { source: { bytes: docx }, fileName, jobKind: 'QAS', jobSource: 'UPLOAD' });

  describe('submitJob', () => {
    it('stores a PENDING job with job.queued, spools the bytes and puts a valid work item in the outbox', async () => {
      const { job, replayed } = await upload();
      expect(replayed).to.equal(false);
      expect(job).to.include({ status: 'PENDING', jobKind: 'QAS', source: 'UPLOAD', fileName: 'de-thi.docx', run: 1 });
      expect(job.queue).to.deep.include({
        status: 'WAITING',
        waiting: 1,
        active: 0,
        totalPending: 1,
        waitingPosition: 1,
        jobsAhead: 0,
        workerConcurrency: 2,
      });
      expect(readdirSync(config.DOCX_IMPORT_PAYLOAD_DIR)).to.deep.equal([`${job.id}-r1.docx`]);
      const events = await jobEvents(jobs.deps, SCOPE, job.id);
      expect(events.map((e) => e.type)).to.deep.equal(['job.queued']);
      const [queued] = await outboxEvents(db, config.DOCX_IMPORT_EVENTS_TOPIC);
      expectValidEvent(queued, TOPICS.docxImportJobEvents);
      const [item] = await outboxEvents(db, config.DOCX_IMPORT_TOPIC);
      expectValidEvent(item, TOPICS.docxImportJobs);
      expect(item!.data).to.deep.include({ jobId: job.id, run: 1 });
      expect(item!.data.storage).to.deep.include({
        store: 'spool-dir',
        ref: `${job.id}-r1.docx`,
        sizeBytes: docx.length,
      });
    });

    it('places later jobs behind earlier ones in the queue object', async () => {
      const first = await upload('a.docx');
      const second = await upload('b.docx');
      const third = await upload('c.docx');
      const queue = await queueOf(jobs.deps, third.job);
      expect(queue).to.deep.include({ waiting: 3, waitingPosition: 3, jobsAhead: 2, totalPending: 3 });
      expect((await queueOf(jobs.deps, first.job))!.waitingPosition).to.equal(1);
      expect((await getJob(jobs.deps, SCOPE, second.job.id)).queue!.jobsAhead).to.equal(1);
    });

    it('replays a fast job for the same organization, actor, key and storage key within 15 minutes', async () => {
      const input = {
        source: { bytes: docx },
        fileName: 'fast.docx',
        jobKind: 'DOCX_FAST' as const,
        jobSource: 'STORAGE' as const,
        questionStorageKey: 'org-1/fast.docx',
        idempotencyKey: 'key-1',
      };
      const first = await submitJob(jobs.deps, SCOPE, input);
      const again = await submitJob(jobs.deps, SCOPE, input);
      expect(again).to.deep.include({ replayed: true });
      expect(again.job.id).to.equal(first.job.id);
      const key = { idempotencyKey: 'key-1', storageKey: 'org-1/fast.docx' };
      expect((await findReplay(jobs.deps, SCOPE, key))!.id).to.equal(first.job.id);
      expect(await findReplay(jobs.deps, { ...SCOPE, actorId: 'someone-else' }, key)).to.equal(null);
      const later = new Date(Date.now() + 15 * 60 * 1000 + 1);
      expect(await findReplay(jobs.deps, SCOPE, key, later)).to.equal(null);
      expect(await jobModels(db.conn).ImportJob.countDocuments()).to.equal(1);
    });
  });

  describe('reads', () => {
    it('hides another organization’s job behind IMPORT_JOB_NOT_FOUND', async () => {
      const { job } = await upload();
      const err = await getJob(jobs.deps, { organizationId: 'org-2', actorId: 'x' }, job.id).catch((e: unknown) => e);
      expect(err).to.have.property('code', 'IMPORT_JOB_NOT_FOUND');
    });

    it('lists summaries newest first with filters and never exposes the payload reference', async () => {
      await upload('first.docx');
      await upload('second.docx');
      const page = await listJobs(jobs.deps, SCOPE, { q: 'SECOND' }, { page: 1, limit: 10 });
      expect(page.total).to.equal(1);
      expect(page.items[0]).to.include({ fileName: 'second.docx' });
      const all = await listJobs(jobs.deps, SCOPE, {}, { page: 1, limit: 10 });
      expect(all.items.map((j) => j.fileName)).to.deep.equal(['second.docx', 'first.docx']);
      expect(JSON.stringify(all)).not.to.match(/payloadRef|spool-dir/);
      expect(JSON.stringify(await getJob(jobs.deps, SCOPE, all.items[0]!.id))).not.to.match(/payloadRef|spool-dir/);
    });
  });

  describe('reprocess', () => {
    it('is refused with IMPORT_JOB_ACTIVE while the job waits in the queue', async () => {
      const { job } = await upload();
      const err = await reprocessJob(jobs.deps, SCOPE, job.id, { bytes: docx }).catch((e: unknown) => e);
      expect(err).to.have.property('code', 'IMPORT_JOB_ACTIVE');
    });

    it('queues a fresh payload under the same id with run 2 once the job ended, old output cleared', async () => {
      const { job } = await upload();
      const { ImportJob } = jobModels(db.conn);
      await ImportJob.updateOne(
        { _id: job.id },
        { $set: { status: 'COMPLETED', parseResultJson: '{"questions":[]}', payloadRef: null } },
      );
      const again = await reprocessJob(jobs.deps, SCOPE, job.id, { bytes: docx });
      expect(again).to.include({ id: job.id, status: 'PENDING', run: 2 });
      expect((await getJob(jobs.deps, SCOPE, job.id)).parseResultJson).to.equal(null);
      expect(existsSync(join(config.DOCX_IMPORT_PAYLOAD_DIR, `${job.id}-r2.docx`))).to.equal(true);
      const items = await outboxEvents(db, config.DOCX_IMPORT_TOPIC);
      expect(items.map((i) => i.data.run)).to.deep.equal([1, 2]);
    });
  });

  describe('recover', () => {
    it('re-enqueues jobs whose payload exists and FAILs the others with DOCX_IMPORT_PAYLOAD_MISSING', async () => {
      const kept = await upload('kept.docx');
      const lost = await upload('lost.docx');
      const ctx = jobs.deps;
      const row = await ctx.store.models.ImportJob.findById(lost.job.id).select('+payloadRef').lean();
      await ctx.store.spool.remove(row!.payloadRef!);
      expect(await recoverJobs(jobs.deps)).to.deep.equal({ requeued: 1, failed: 1 });
      expect((await getJob(jobs.deps, SCOPE, kept.job.id)).status).to.equal('PENDING');
      const failed = await getJob(jobs.deps, SCOPE, lost.job.id);
      expect(failed).to.deep.include({ status: 'FAILED', errorSummary: failed.errorSummary });
      expect(failed.errorSummary!.code).to.equal('DOCX_IMPORT_PAYLOAD_MISSING');
      const items = await outboxEvents(db, config.DOCX_IMPORT_TOPIC);
      expect(items.filter((i) => i.data.jobId === kept.job.id)).to.have.length(2);
      const events = await outboxEvents(db, config.DOCX_IMPORT_EVENTS_TOPIC);
      const failure = events.find((e) => e.type === 'docx-import.job.failed.v1')!;
      expectValidEvent(failure, TOPICS.docxImportJobEvents);
      expect(failure.subject).to.equal(lost.job.id);
    });
  });

  describe('review and approvals', () => {
    it('refuses a review before completion, then stores it verbatim with review.updated and approvals by key', async () => {
      const { job } = await upload();
      const refused = await saveReview(jobs.deps, SCOPE, job.id, { parseResult: {} }).catch((e: unknown) => e);
      expect(refused).to.have.property('code', 'IMPORT_JOB_NOT_COMPLETED');
      await jobModels(db.conn).ImportJob.updateOne({ _id: job.id }, { $set: { status: 'COMPLETED' } });
      const reviewed = { questions: [{ id: 'q1', $weird: 1, 'a.b': 2 }] };
      const detail = await saveReview(jobs.deps, SCOPE, job.id, { parseResult: reviewed, title: 'Đề 1' });
      expect(detail.parseResultJson).to.deep.equal(reviewed);
      expect(detail).to.include({ title: 'Đề 1', reviewStatus: 'REVIEWED' });
      const approval = { approvalKey: 'k1', target: 'QUESTION_BANK' as const, questionIds: ['x1'], result: { n: 1 } };
      await recordApproval(jobs.deps, SCOPE, job.id, approval);
      const retried = await recordApproval(jobs.deps, SCOPE, job.id, { ...approval, result: { n: 2 } });
      expect(retried.result).to.deep.equal({ n: 1 });
      const types = (await jobEvents(jobs.deps, SCOPE, job.id)).map((e) => e.type);
      expect(types).to.deep.equal(['job.queued', 'review.updated', 'approval.completed']);
      for (const e of await outboxEvents(db, config.DOCX_IMPORT_EVENTS_TOPIC)) {
        expectValidEvent(e, TOPICS.docxImportJobEvents);
        expect(JSON.stringify(e)).not.to.match(/\$weird|spool-dir|payloadRef/);
      }
    });
  });
});
