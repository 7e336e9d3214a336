// Taking a work item's job. A job is run under a lease that its worker renews: a second copy of the
// item (a redelivery after a rebalance, a re-enqueue at service start) waits while a live worker
// holds it and takes it over once the lease runs out (that worker died: SIGKILL, OOM).
import { writeJob, type JobContext } from '../jobs/context.js';
import type { WorkItem } from '../jobs/events.js';
import { jobStarted } from '../jobs/events.js';
import { stateFields } from '../jobs/view.js';
import type { ImportJobRow } from '../store/job-models.js';

export type Claim =
  | { kind: 'claimed'; row: ImportJobRow; token: string }
  | { kind: 'drop'; reason: string }
  | { kind: 'wait'; until: Date };

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
  const token = ctx.newId();
  const filter = {
    _id: row._id,
    run: item.run,
    $or: [
      { status: 'PENDING' },
      { status: 'PROCESSING', lease: null },
      { status: 'PROCESSING', 'lease.until': { $lt: now } },
    ],
  };
  const set = {
    status: 'PROCESSING',
    ...stateFields('PROCESSING'),
    startedAt: now,
    lease: { token, until: new Date(now.getTime() + ctx.config.DOCX_WORKER_LEASE_MS) },
  };
  const claimed = await writeJob(ctx, filter, { set }, jobStarted(row));
  // Someone else took it between the read and the write: look again.
  if (!claimed) return { kind: 'wait', until: now };
  return { kind: 'claimed', row: { ...claimed, payloadRef: row.payloadRef }, token };
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
