// Taking a work item's job. A job is run under a lease that its worker renews: a second copy of the
// item (a redelivery after a rebalance, a re-enqueue at service start) waits while a live worker
// holds it and takes it over once the lease runs out (that worker died: SIGKILL, OOM).
// Every claim counts one attempt on the row, in the claiming write, so before any byte is parsed:
// a document that kills each worker that opens it is FAILED (DOCX_WORKER_CRASHED) by the next
// delivery once DOCX_WORKER_MAX_ATTEMPTS workers took it, instead of being redelivered forever.
import { findJob, renewJobLease } from '../../store/job-store.js';
import type { ImportJobRow } from '../../store/job-models.js';
import { jobStarted, type WorkItem } from './events.js';
import { failJob } from './recover.js';
import type { JobDeps, JobFailure } from './types.js';
import { stateFields } from './view.js';
import { writeJob } from './write.js';

/** What a delivery of a work item finds: its run to take, to drop, to wait for, or run out of attempts. */
export type Claim =
  | { kind: 'claimed'; row: ImportJobRow; token: string }
  | { kind: 'drop'; reason: string }
  | { kind: 'wait'; until: Date }
  | { kind: 'exhausted'; row: ImportJobRow };

/** The failure code of a run whose workers all died on it. */
export const WORKER_CRASHED = 'DOCX_WORKER_CRASHED';

/** The failure of a run taken `attempts` times by workers that died. */
export function workerCrashed(attempts: number): JobFailure {
  return {
    code: WORKER_CRASHED,
    message: `The parser worker stopped (crash, out of memory or time limit) on each of ${attempts} attempts at this document; it is not retried`,
  };
}

function verdict(row: ImportJobRow | null, item: WorkItem, now: Date): Claim | null {
  if (!row) return { kind: 'drop', reason: 'unknown job' };
  if (row.run !== item.run) return { kind: 'drop', reason: 'stale run' };
  if (row.status === 'COMPLETED' || row.status === 'FAILED') return { kind: 'drop', reason: 'run already ended' };
  const lease = row.lease;
  if (row.status === 'PROCESSING' && lease && new Date(lease.until) > now)
    return { kind: 'wait', until: new Date(lease.until) };
  return null;
}

/** Takes the item's run under a new lease (one attempt counted in the same write), or says why not. */
export async function claimJob(deps: JobDeps, item: WorkItem): Promise<Claim> {
  const row = await findJob(deps.store, { id: item.jobId }, 'payload');
  const now = deps.clock();
  const early = verdict(row, item, now);
  if (early || !row) return early ?? { kind: 'drop', reason: 'unknown job' };
  if ((row.attempts ?? 0) >= deps.config.DOCX_WORKER_MAX_ATTEMPTS) return { kind: 'exhausted', row };
  const token = deps.newId();
  // A run no live worker holds: waiting, or taken by a worker whose lease ran out.
  const match = { id: row._id, run: item.run, claimableAt: now };
  const set = {
    status: 'PROCESSING' as const,
    ...stateFields('PROCESSING'),
    startedAt: now,
    lease: { token, until: new Date(now.getTime() + deps.config.DOCX_WORKER_LEASE_MS) },
  };
  const claimed = await writeJob(deps, match, { set, incAttempts: true }, jobStarted(row));
  // Someone else took it between the read and the write: look again.
  if (!claimed) return { kind: 'wait', until: now };
  return { kind: 'claimed', row: { ...claimed, payloadRef: row.payloadRef }, token };
}

/**
 * FAILED with DOCX_WORKER_CRASHED, payload reference cleared, `job.failed` stored and published;
 * null when the run moved on meanwhile (another worker, a reprocess).
 */
export function failExhausted(deps: JobDeps, row: ImportJobRow): Promise<ImportJobRow | null> {
  const attempts = row.attempts ?? 0;
  return failJob(deps, row, workerCrashed(attempts), { attempts, claimableAt: deps.clock() });
}

/** Keeps the lease alive while the job runs; renewals do not touch updatedAt (no live update). */
export function renewLease(deps: JobDeps, jobId: string, token: string): () => void {
  const every = Math.max(200, Math.floor(deps.config.DOCX_WORKER_LEASE_MS / 3));
  const timer = setInterval(() => {
    const until = new Date(deps.clock().getTime() + deps.config.DOCX_WORKER_LEASE_MS);
    renewJobLease(deps.store, jobId, token, until).catch((err: unknown) =>
      deps.logger.warn({ err, jobId }, 'docx worker: lease renewal failed'),
    );
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
