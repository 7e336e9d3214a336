// One job batch: read the next archived owned rows, remove them, record progress as lease holder.
import type { DeletionJobRow } from '../../store/deletion-models.js';
import * as jobs from '../../store/deletion-store.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { removeForever } from '../questions/remove.js';
import { writeFilter } from '../questions/scope.js';
import { mapLimited } from './impact.js';
import { batchWarnings, JOB_CONCURRENCY, MAX_WARNINGS, nextIdBatch, writerOfJob } from './plan.js';

/** The rows a job may remove: archived, live, in its creator's write scope. */
export const jobFilter = (job: DeletionJobRow) => ({ ...writeFilter(writerOfJob(job)), status: 'ARCHIVED' });

interface Batch {
  rows: QuestionRow[];
  /** Requested ids of this batch that matched no removable row. */
  skipped: number;
  /** The cursor after this batch. */
  cursor: { cursorId: string | null; cursorIndex: number };
  empty: boolean;
}

export async function readBatch(deps: QuestionBankDeps, job: DeletionJobRow): Promise<Batch> {
  if (job.mode === 'all') {
    const rows = await store.questionsAfter(deps.models, jobFilter(job), job.cursorId, job.batchSize);
    const last = rows.at(-1)?._id ?? job.cursorId;
    return { rows, skipped: 0, cursor: { cursorId: last, cursorIndex: 0 }, empty: rows.length === 0 };
  }
  const ids = nextIdBatch(job.ids, job.cursorIndex, job.batchSize);
  const rows = ids.length ? await store.findQuestionsByIds(deps.models, ids, jobFilter(job)) : [];
  return {
    rows,
    skipped: ids.length - rows.length,
    cursor: { cursorId: null, cursorIndex: job.cursorIndex + ids.length },
    empty: ids.length === 0,
  };
}

async function removeOne(deps: QuestionBankDeps, filter: Record<string, unknown>, row: QuestionRow) {
  try {
    return (await removeForever(deps, filter, row)) ? 'deleted' : 'skipped';
  } catch (err) {
    deps.logger.warn({ err, questionId: row._id }, 'permanent-delete job: a removal failed');
    return 'failed';
  }
}

/** Removes one batch and records it; returns the job after the write (null: the lease was lost). */
export async function runBatch(deps: QuestionBankDeps, job: DeletionJobRow, owner: string) {
  const batch = await readBatch(deps, job);
  if (batch.empty) return { job, done: true };
  const filter = jobFilter(job);
  const outcomes = await mapLimited(batch.rows, JOB_CONCURRENCY, (row) => removeOne(deps, filter, row));
  const deleted = outcomes.filter((o) => o === 'deleted').length;
  const failed = outcomes.filter((o) => o === 'failed').length;
  const skipped = batch.skipped + outcomes.length - deleted - failed;
  const number = job.currentBatch + 1;
  const warnings = batchWarnings(number, { skipped, failed });
  const processed = batch.skipped + outcomes.length;
  const after = await jobs.updateHeld(deps.models, job._id, owner, {
    $set: { ...batch.cursor, currentBatch: number, updatedAt: deps.clock() },
    $inc: {
      processedQuestions: processed,
      deletedCount: deleted,
      failedCount: failed,
      skippedCount: skipped,
    },
    // Rows archived after the count (mode all) raise the total rather than pass 100 %.
    $max: { totalQuestions: job.processedQuestions + processed },
    ...(warnings.length ? { $push: { warnings: { $each: warnings, $slice: MAX_WARNINGS } } } : {}),
  });
  return { job: after, done: false };
}
