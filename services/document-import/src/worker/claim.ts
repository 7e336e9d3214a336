// Taking a work item's job. A job is run under a lease that its worker renews: a second copy of the
// item (a redelivery after a rebalance, a re-enqueue at service start) waits while a live worker
// holds it and takes it over once the lease runs out (that worker died: SIGKILL, OOM).
// Every claim counts one attempt on the row, in the claiming write, so before any byte is parsed:
// a document that kills each worker that opens it is FAILED (DOCX_WORKER_CRASHED) by the next
// delivery once DOCX_WORKER_MAX_ATTEMPTS workers took it, instead of being redelivered forever.
import { writeJob, type JobContext } from '../jobs/context.js';
import type { WorkItem } from '../jobs/events.js';
import { jobStarted } from '../jobs/events.js';
import { failJob } from '../jobs/recover.js';
import type { JobFailure } from '../jobs/types.js';
import { stateFields } from '../jobs/view.js';
import type { ImportJobRow } from '../store/job-models.js';

export type Claim =
  | { kind: 'claimed'; row: ImportJobRow; token: string }
  | { kind: 'drop'; reason: string }
  | { kind: 'wait'; until: Date }
  | { kind: 'exhausted'; row: ImportJobRow };

export const WORKER_CRASHED = 'DOCX_WORKER_CRASHED';

export function workerCrashed(attempts: number): JobFailure {
  return {
    code: WORKER_CRASHED,
    message: `The parser worker stopped (crash, out of memory or time limit) on each of ${attempts} attempts at this document; it is not retried`,
  };
}

// A run no live worker holds: waiting, or taken by a worker whose lease ran out.
const claimable = (now: Date) => ({
  $or: [
    { status: 'PENDING' },
    { status: 'PROCESSING', lease: null },
    { status: 'PROCESSING', 'lease.until': { $lt: now } },
  ],
});

function verdict(row: ImportJobRow | null, item: WorkItem, now: Date): Claim | null {
  if (!row) return { kind: 'drop', reason: 'unknown job' };
  if (row.run !== item.run) return { kind: 'drop', reason: 'stale run' };
  if (row.status === 'COMPLETED' || row.status === 'FAILED') return { kind: 'drop', reason: 'run already ended' };
  const lease = row.lease;
  if (row.status === 'PROCESSING' && lease && new Date(lease.until) > now)
    return { kind: 'wait', until: new Date(lease.until) };
  return null;
}

export async function claimJob(ctx: JobContext, item: WorkItem): Promise<Claim> {
  const row = await ctx.models.ImportJob.findById(item.jobId).select('+payloadRef').lean<ImportJobRow>().exec();
  const now = ctx.clock();
  const early = verdict(row, item, now);
  if (early || !row) return early ?? { kind: 'drop', reason: 'unknown job' };
  if ((row.attempts ?? 0) >= ctx.config.DOCX_WORKER_MAX_ATTEMPTS) return { kind: 'exhausted', row };
  const token = ctx.newId();
  const filter = { _id: row._id, run: item.run, ...claimable(now) };
  const set = {
    status: 'PROCESSING',
    ...stateFields('PROCESSING'),
    startedAt: now,
    lease: { token, until: new Date(now.getTime() + ctx.config.DOCX_WORKER_LEASE_MS) },
  };
  const claimed = await writeJob(ctx, filter, { set, inc: { attempts: 1 } }, jobStarted(row));
  // Someone else took it between the read and the write: look again.
  if (!claimed) return { kind: 'wait', until: now };
  return { kind: 'claimed', row: { ...claimed, payloadRef: row.payloadRef }, token };
}

/**
 * FAILED with DOCX_WORKER_CRASHED, payload reference cleared, `job.failed` stored and published;
 * null when the run moved on meanwhile (another worker, a reprocess).
 */
export function failExhausted(ctx: JobContext, row: ImportJobRow): Promise<ImportJobRow | null> {
  const attempts = row.attempts ?? 0;
  return failJob(ctx, row, workerCrashed(attempts), { attempts, ...claimable(ctx.clock()) });
}

/** Keeps the lease alive while the job runs; renewals do not touch updatedAt (no live update). */
export function renewLease(ctx: JobContext, jobId: string, token: string): () => void {
  const every = Math.max(200, Math.floor(ctx.config.DOCX_WORKER_LEASE_MS / 3));
  const timer = setInterval(() => {
    const until = new Date(ctx.clock().getTime() + ctx.config.DOCX_WORKER_LEASE_MS);
    ctx.models.ImportJob.updateOne({ _id: jobId, 'lease.token': token }, { $set: { 'lease.until': until } })
      .exec()
      .catch((err: unknown) => ctx.logger.warn({ err, jobId }, 'docx worker: lease renewal failed'));
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
