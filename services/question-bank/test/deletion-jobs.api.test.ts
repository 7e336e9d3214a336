import { expect } from 'chai';
import type { Db } from 'mongodb';
import type { DeletionJobRow } from '../src/store/deletion-models.js';
import { transitionJob } from '../src/store/deletion-store.js';
import { liveCount, readStream, seedQuestions, waitFor, writer } from './deletion-fixtures.js';
import { admin, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

const JOBS = '/v1/questions/permanent-delete/jobs';
const TERMINAL = ['completed', 'cancelled', 'failed'];
type Job = Record<string, unknown> & { id: string; status: string };

describe('question bank: permanent-delete jobs', function () {
  this.timeout(180_000);
  let svc: TestQuestionBank;
  let db: Db;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
    db = svc.db.conn.db as unknown as Db;
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const create = async (body: Record<string, unknown>, who = teacher()) => {
    const res = await svc.request.post(JOBS).set(headers(who)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.data as Job;
  };
  const get = async (id: string, who = teacher()) =>
    (await svc.request.get(`${JOBS}/${id}`).set(headers(who))).body.data as Job;
  const jobRow = (id: string) => db.collection<DeletionJobRow>('question_delete_jobs').findOne({ _id: id });
  /** Finished and let go by its runner: nothing will write it any more. */
  const settled = async (id: string) =>
    (await waitFor(
      jobRow.bind(null, id),
      (r) => !!r && TERMINAL.includes(r.status) && r.leaseOwner === null,
      120_000,
    ))!;

  it('returns a pending snapshot with every contract field, then completes ids jobs and skips what it may not remove', async () => {
    const archived = await seedQuestions(db, writer(), 3);
    const [draft] = await seedQuestions(db, writer(), 1, 'DRAFT');
    const [theirs] = await seedQuestions(db, writer('t2'), 1);
    const job = await create({ ids: [...archived, draft, theirs, 'unknown-id', archived[0]] });
    expect(job).to.include({
      status: 'pending',
      phase: 'queued',
      mode: 'ids',
      totalQuestions: 6,
      processedQuestions: 0,
    });
    for (const f of ['deletedCount', 'failedCount', 'currentBatch', 'progressPercent', 'createdAt', 'updatedAt'])
      expect(job, f).to.have.property(f);
    expect(job.warnings).to.deep.equal([]);
    expect(job).to.not.have.property('error');
    await settled(job.id);
    const done = await get(job.id);
    expect(done).to.include({
      status: 'completed',
      phase: 'completed',
      totalQuestions: 6,
      processedQuestions: 6,
      deletedCount: 3,
      skippedCount: 3,
      failedCount: 0,
      currentBatch: 1,
      progressPercent: 100,
    });
    expect(done.startedAt).to.be.a('string');
    expect(done.finishedAt).to.be.a('string');
    expect((done.warnings as Array<{ code: string; count: number }>).map((w) => [w.code, w.count])).to.deep.equal([
      ['QUESTIONS_SKIPPED', 3],
    ]);
    expect(await liveCount(db, archived)).to.equal(0);
    expect(await liveCount(db, [draft!, theirs!])).to.equal(2);
    expect(await db.collection('question_versions').countDocuments({ questionId: { $in: archived } })).to.equal(0);
  });

  it('mode all removes every archived row of the writer in batches of 100 and nothing else', async () => {
    const archived = await seedQuestions(db, writer(), 250);
    const drafts = await seedQuestions(db, writer(), 5, 'DRAFT');
    const others = [
      ...(await seedQuestions(db, writer('t2'), 5)),
      ...(await seedQuestions(db, writer('t1', 'org-b'), 5)),
    ];
    const job = await create({ mode: 'all' });
    expect(job).to.include({ mode: 'all', totalQuestions: null, batchSize: 100 });
    await settled(job.id);
    expect(await get(job.id)).to.include({
      status: 'completed',
      totalQuestions: 250,
      processedQuestions: 250,
      deletedCount: 250,
      currentBatch: 3,
      totalBatches: 3,
      progressPercent: 100,
    });
    expect(await liveCount(db, archived)).to.equal(0);
    expect(await liveCount(db, [...drafts, ...others])).to.equal(15);
  });

  it('an ADMIN job with mode all takes every archived row of its organization, no other', async () => {
    const mine = [...(await seedQuestions(db, writer('t1'), 3)), ...(await seedQuestions(db, writer('t2'), 3))];
    const foreign = await seedQuestions(db, writer('t1', 'org-b'), 3);
    const job = await create({ mode: 'all' }, admin());
    await settled(job.id);
    expect(await get(job.id, admin())).to.include({ status: 'completed', deletedCount: 6 });
    expect(await liveCount(db, mine)).to.equal(0);
    expect(await liveCount(db, foreign)).to.equal(3);
  });

  it('answers 404 DELETION_JOB_NOT_FOUND for another actor, another organization and an unknown id', async () => {
    const job = await create({ ids: ['x'] });
    for (const who of [teacher('t2'), admin(), teacher('t1', 'org-b')]) {
      for (const res of [
        await svc.request.get(`${JOBS}/${job.id}`).set(headers(who)),
        await svc.request.post(`${JOBS}/${job.id}/cancel`).set(headers(who)),
        await svc.request.get(`${JOBS}/${job.id}/events`).set(headers(who)),
      ]) {
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('DELETION_JOB_NOT_FOUND');
      }
    }
    expect((await svc.request.get(`${JOBS}/nope`).set(headers(teacher()))).status).to.equal(404);
    expect((await svc.request.get(`${JOBS}/bad%20id`).set(headers(teacher()))).status).to.equal(400);
  });

  it('refuses bad bodies with 400 VALIDATION_ERROR and creates no job', async () => {
    const over = Array.from({ length: 5001 }, (_, i) => `q${i}`);
    for (const body of [
      {},
      { ids: [] },
      { ids: over },
      { ids: ['a'], mode: 'all' },
      { mode: 'archived' },
      { ids: 'a' },
    ]) {
      const res = await svc.request.post(JOBS).set(headers(teacher())).send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect(await db.collection('question_delete_jobs').countDocuments()).to.equal(0);
    const student = { userId: 's1', role: 'STUDENT', organizationId: 'org-a' };
    expect((await svc.request.post(JOBS).set(headers(student)).send({ mode: 'all' })).status).to.equal(403);
  });

  it('returns a finished job unchanged on cancel', async () => {
    const job = await create({ ids: await seedQuestions(db, writer(), 2) });
    await settled(job.id);
    const before = await get(job.id);
    const res = await svc.request.post(`${JOBS}/${job.id}/cancel`).set(headers(teacher()));
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal(before);
    expect(await get(job.id)).to.deep.equal(before);
  });

  it('cancels a running job: it stops between batches, stays cancelled and its counters match what was removed', async () => {
    const ids = await seedQuestions(db, writer(), 3000);
    const job = await create({ mode: 'all' });
    await waitFor(
      () => get(job.id),
      (j) => (j.processedQuestions as number) > 0 || TERMINAL.includes(j.status),
    );
    const res = await svc.request.post(`${JOBS}/${job.id}/cancel`).set(headers(teacher()));
    expect(res.body.data.status).to.equal('cancelled');
    expect(res.body.data.cancelledAt).to.be.a('string');
    await settled(job.id);
    const final = await get(job.id);
    expect(final).to.include({ status: 'cancelled', phase: 'cancelled' });
    const live = await liveCount(db, ids);
    expect(live).to.be.greaterThan(0);
    expect(final.deletedCount).to.equal(3000 - live);
    expect(final.progressPercent).to.be.below(100);
  });

  it('a cancel racing a finishing job ends in exactly one terminal state, the one the cancel answered with', async () => {
    for (let round = 0; round < 8; round += 1) {
      const ids = await seedQuestions(db, writer(), 1 + (round % 3));
      const job = await create({ ids });
      const cancel = await svc.request.post(`${JOBS}/${job.id}/cancel`).set(headers(teacher()));
      const row = await settled(job.id);
      expect(cancel.body.data.status).to.be.oneOf(['cancelled', 'completed']);
      expect(row.status, `round ${round}`).to.equal(cancel.body.data.status);
      if (row.status === 'completed') expect(await liveCount(db, ids)).to.equal(0);
      else expect(row.deletedCount).to.equal(ids.length - (await liveCount(db, ids)));
    }
  });

  it('the compare-and-set lets exactly one of a completion and a cancel win on a running job', async () => {
    for (let round = 0; round < 20; round += 1) {
      const now = new Date();
      const id = `race-${round}`;
      await db.collection('question_delete_jobs').insertOne({
        _id: id as never,
        ...{ organizationId: 'org-a', actorId: 't9', actorRole: 'TEACHER', mode: 'ids', ids: [] },
        ...{ status: 'running', phase: 'deleting', batchSize: 100, revision: 1, leaseOwner: 'other-runner' },
        ...{ leaseUntil: new Date(now.getTime() + 600_000), createdAt: now, updatedAt: now, warnings: [] },
      });
      const m = svc.built.deps.models;
      const [done, cancelled] = await Promise.all([
        transitionJob(m, { id, from: ['running'], extra: { leaseOwner: 'other-runner' } }, { status: 'completed' }),
        transitionJob(m, { id, from: ['pending', 'running'] }, { status: 'cancelled' }),
      ]);
      expect([done, cancelled].filter(Boolean), `round ${round}`).to.have.length(1);
      expect((await jobRow(id))!.status).to.equal((done ?? cancelled)!.status);
    }
  });

  describe('GET .../jobs/{id}/events', () => {
    it('sends a snapshot, then job.updated events with growing progress, and closes after the completed one', async () => {
      await seedQuestions(db, writer(), 600);
      const job = await create({ mode: 'all' });
      const stream = await readStream(`${svc.url}${JOBS}/${job.id}/events`, headers(teacher()));
      expect(stream.status).to.equal(200);
      expect(stream.contentType).to.match(/^text\/event-stream/);
      const [first, ...rest] = stream.events;
      expect(first!.event).to.equal('snapshot');
      expect(first!.data.id).to.equal(job.id);
      expect(TERMINAL).to.not.include(first!.data.status);
      expect(rest.length).to.be.greaterThan(0);
      expect(rest.every((e) => e.event === 'job.updated')).to.equal(true);
      const processed = rest.map((e) => e.data.processedQuestions as number);
      expect(processed).to.deep.equal([...processed].sort((a, b) => a - b));
      const revisions = stream.events.map((e) => Number(e.id));
      expect(revisions).to.deep.equal([...new Set(revisions)].sort((a, b) => a - b));
      expect(rest.at(-1)!.data).to.include({ status: 'completed', deletedCount: 600, progressPercent: 100 });
    });

    it('sends only the snapshot of a finished job and closes', async () => {
      const job = await create({ ids: ['none'] });
      await settled(job.id);
      const stream = await readStream(`${svc.url}${JOBS}/${job.id}/events`, headers(teacher()));
      expect(stream.events.map((e) => [e.event, e.data.status])).to.deep.equal([['snapshot', 'completed']]);
    });

    it('closes after the cancelled event when the job is cancelled while streaming', async () => {
      await seedQuestions(db, writer(), 3000);
      const job = await create({ mode: 'all' });
      const reading = readStream(`${svc.url}${JOBS}/${job.id}/events`, headers(teacher()));
      await waitFor(
        () => get(job.id),
        (j) => (j.processedQuestions as number) > 0 || TERMINAL.includes(j.status),
      );
      await svc.request.post(`${JOBS}/${job.id}/cancel`).set(headers(teacher()));
      const stream = await reading;
      expect(stream.events[0]!.event).to.equal('snapshot');
      expect(stream.events.at(-1)!.data.status).to.equal('cancelled');
    });
  });
});
