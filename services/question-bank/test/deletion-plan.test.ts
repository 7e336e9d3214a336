import { expect } from 'chai';
import { affectedExams, mapLimited } from '../src/domain/deletion/impact.js';
import {
  batchWarnings,
  CANCELLABLE,
  isTerminal,
  JOB_BATCH_SIZE,
  jobView,
  newJobRow,
  nextIdBatch,
  progressPercent,
  totalBatches,
  writerOfJob,
} from '../src/domain/deletion/plan.js';
import type { ExamRefRow } from '../src/store/catalog-models.js';
import { writer } from './deletion-fixtures.js';

const at = { id: 'job-1', now: new Date('2026-05-01T00:00:00.000Z') };

describe('permanent deletion: pure rules', () => {
  describe('progressPercent', () => {
    const p = (status: string, total: number | null, processed: number) =>
      progressPercent({ status: status as never, totalQuestions: total, processedQuestions: processed });
    it('floors the share processed and keeps 100 for a completed job', () => {
      expect(p('running', 3, 1)).to.equal(33);
      expect(p('running', 200, 199)).to.equal(99);
      expect(p('completed', 3, 1)).to.equal(100);
      expect(p('completed', 0, 0)).to.equal(100);
    });
    it('never reaches 100 before completion, and is 0 while the total is unknown or zero', () => {
      expect(p('running', 10, 10)).to.equal(99);
      expect(p('cancelled', 10, 12)).to.equal(99);
      expect(p('pending', null, 0)).to.equal(0);
      expect(p('running', 0, 0)).to.equal(0);
    });
  });

  describe('batch planning', () => {
    it('counts batches of the batch size and slices ids from the cursor', () => {
      expect(totalBatches(250, 100)).to.equal(3);
      expect(totalBatches(200, 100)).to.equal(2);
      expect(totalBatches(0, 100)).to.equal(0);
      expect(totalBatches(null, 100)).to.equal(null);
      const ids = ['a', 'b', 'c', 'd', 'e'];
      expect(nextIdBatch(ids, 0, 2)).to.deep.equal(['a', 'b']);
      expect(nextIdBatch(ids, 4, 2)).to.deep.equal(['e']);
      expect(nextIdBatch(ids, 5, 2)).to.deep.equal([]);
    });
    it('warns once per batch per kind, with counts', () => {
      expect(batchWarnings(2, { skipped: 0, failed: 0 })).to.deep.equal([]);
      const w = batchWarnings(3, { skipped: 2, failed: 1 });
      expect(w.map((x) => [x.code, x.batch, x.count])).to.deep.equal([
        ['QUESTIONS_SKIPPED', 3, 2],
        ['QUESTIONS_FAILED', 3, 1],
      ]);
    });
  });

  describe('status transitions', () => {
    it('cancels only pending or running jobs; completed, cancelled and failed are terminal', () => {
      expect(CANCELLABLE).to.deep.equal(['pending', 'running']);
      expect(['pending', 'running'].map((s) => isTerminal(s as never))).to.deep.equal([false, false]);
      expect(['completed', 'cancelled', 'failed'].map((s) => isTerminal(s as never))).to.deep.equal([true, true, true]);
    });
  });

  describe('newJobRow and jobView', () => {
    it('deduplicates ids, knows the total of an ids job at once and leaves mode all to count', () => {
      const ids = newJobRow(writer(), { mode: 'ids', ids: ['a', 'b', 'a'] }, at);
      expect(ids).to.include({ status: 'pending', phase: 'queued', totalQuestions: 2, batchSize: JOB_BATCH_SIZE });
      expect(ids.ids).to.deep.equal(['a', 'b']);
      const all = newJobRow(writer('t1', 'org-a', 'ADMIN'), { mode: 'all' }, at);
      expect(all).to.include({ totalQuestions: null, actorRole: 'ADMIN' });
      expect(writerOfJob(all)).to.deep.equal({ userId: 't1', organizationId: 'org-a', role: 'ADMIN' });
    });
    it('shows every contract field, never the lease or the id list, and error only when set', () => {
      const row = newJobRow(writer(), { mode: 'ids', ids: ['a'] }, at);
      const view = jobView({ ...row, leaseOwner: 'x', leaseUntil: at.now });
      expect(view).to.include({ id: 'job-1', status: 'pending', progressPercent: 0, totalBatches: 1 });
      expect(view).to.not.have.any.keys('leaseOwner', 'leaseUntil', 'ids', 'cursorId', 'error', 'attempts');
      expect(view.createdAt).to.equal('2026-05-01T00:00:00.000Z');
      const failed = jobView({ ...row, status: 'failed', error: { code: 'E', message: 'm' } });
      expect(failed.error).to.deep.equal({ code: 'E', message: 'm' });
    });
  });

  describe('affectedExams', () => {
    const ref = (examId: string, questionId: string, createdAt: string): ExamRefRow => ({
      _id: `${examId}|${questionId}`,
      examId,
      questionId,
      title: `T ${examId}`,
      status: 'DRAFT',
      createdAt: new Date(createdAt),
      organizationId: 'org-a',
      updatedAt: new Date(createdAt),
    });
    it('groups by exam, counts distinct questions and lists the newest exam first', () => {
      const out = affectedExams([
        ref('e1', 'q1', '2026-01-01'),
        ref('e2', 'q1', '2026-02-01'),
        ref('e1', 'q2', '2026-01-01'),
        ref('e1', 'q2', '2026-01-01'),
      ]);
      expect(out.map((e) => [e.id, e.affectedQuestions])).to.deep.equal([
        ['e2', 1],
        ['e1', 2],
      ]);
      expect(affectedExams([])).to.deep.equal([]);
    });
  });

  describe('mapLimited', () => {
    it('keeps input order and never runs more than the limit at once', async () => {
      let running = 0;
      let peak = 0;
      const out = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running -= 1;
        return n * 10;
      });
      expect(out).to.deep.equal([50, 10, 40, 20, 30]);
      expect(peak).to.equal(2);
    });
  });
});
