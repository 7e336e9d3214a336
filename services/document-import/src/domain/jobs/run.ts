// One work item, start to end: claim, read the spool, parse, store the outcome with its event,
// release the payload. Database errors are thrown (the kit retries the message, the offset stays
// uncommitted); a refusal of the file is the job's failure, never the worker's.
import { existsSync } from 'node:fs';
import type { ImportJobRow, PayloadRef } from '../../store/job-models.js';
import { claimJob, failExhausted, renewLease } from './claim.js';
import { jobCompleted, type WorkItem } from './events.js';
import { ParseFailure, type ParseOutcome, type ParseStep } from './parse-step.js';
import { failJob, PAYLOAD_MISSING } from './recover.js';
import type { JobDeps, JobFailure } from './types.js';
import { countersOf, REVIEW, stateFields, warningCodesOf } from './view.js';
import { writeJob } from './write.js';

/** What a worker runs its items with: the job deps, the parse step and the process's hooks. */
export interface WorkerRuntime {
  jobs: JobDeps;
  parse: ParseStep;
  /** After a job COMPLETED (auto-approval, domain/approve.ts); its errors are logged, never the job's. */
  completed: (jobId: string) => Promise<void>;
  /** True once the worker stops: a waiting handler gives up and leaves its offset uncommitted. */
  stopping: () => boolean;
  /** Marks a job in hand (the liveness probe's stuck bound); the returned function ends it. */
  inHand?: (jobId: string) => () => void;
}

const POLL_MS = 100;

class StoppingError extends Error {
  override name = 'StoppingError';
}

async function waitUntil(rt: WorkerRuntime, done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) {
    if (rt.stopping()) throw new StoppingError('docx worker stopping: work item left for redelivery');
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function packaging(row: ImportJobRow, payload: PayloadRef, outcome: ParseOutcome): Record<string, unknown> {
  const pack: Record<string, unknown> = {
    run: row.run,
    source: { fileName: row.fileName, sizeBytes: payload.sizeBytes, sha256: payload.sha256 },
    engine: outcome.engine,
    documentId: outcome.output.document_id ?? null,
  };
  if (row.jobKind === 'DOCX_FAST') {
    pack.docxFastTempDraft = { status: 'MATERIALIZED', token: `materialized-${row._id}`, assets: [] };
  }
  return pack;
}

async function parseOrFailure(rt: WorkerRuntime, row: ImportJobRow, bytes: Buffer): Promise<ParseOutcome | JobFailure> {
  try {
    return await rt.parse({ job: row, bytes });
  } catch (err) {
    if (err instanceof ParseFailure) return err.failure;
    throw err;
  }
}

/** A run in hand: its row, the lease token and the spooled payload. */
interface Claimed {
  row: ImportJobRow;
  token: string;
  payload: PayloadRef;
}

/** The run's outcome stored (COMPLETED, payload reference cleared) with `job.completed`; null when the lease was lost. */
async function completeRun(rt: WorkerRuntime, { row, token, payload }: Claimed, outcome: ParseOutcome) {
  const counters = countersOf(outcome.output);
  const latencyMs = Date.now() - new Date(row.startedAt ?? rt.jobs.clock()).getTime();
  const set = {
    status: 'COMPLETED' as const,
    ...stateFields('COMPLETED'),
    reviewStatus: REVIEW.ready,
    parseResultJson: JSON.stringify(outcome.output),
    packagingJson: JSON.stringify(packaging(row, payload, outcome)),
    counters,
    errorSummary: null,
    completedAt: rt.jobs.clock(),
    lease: null,
    payloadRef: null,
  };
  const spec = jobCompleted(row, { counters, warningCodes: warningCodesOf(outcome.output), latencyMs });
  const match = { id: row._id, run: row.run, statuses: ['PROCESSING' as const], leaseToken: token };
  return writeJob(rt.jobs, match, { set }, spec);
}

async function runClaimed(rt: WorkerRuntime, row: ImportJobRow, token: string): Promise<void> {
  const pauseFile = rt.jobs.config.DOCX_WORKER_PAUSE_FILE;
  if (pauseFile) await waitUntil(rt, () => !existsSync(pauseFile));
  const done = rt.inHand?.(row._id);
  try {
    await runHeld(rt, row, token);
  } finally {
    done?.();
  }
}

async function runHeld(rt: WorkerRuntime, row: ImportJobRow, token: string): Promise<void> {
  const { jobs } = rt;
  const payload = row.payloadRef;
  const bytes = payload ? await jobs.store.spool.read(payload) : null;
  if (!payload || !bytes) {
    await failJob(jobs, row, PAYLOAD_MISSING, { leaseToken: token });
    return;
  }
  const outcome = await parseOrFailure(rt, row, bytes);
  const ended =
    'code' in outcome
      ? await failJob(jobs, row, outcome, { leaseToken: token })
      : await completeRun(rt, { row, token, payload }, outcome);
  if (!ended) {
    jobs.logger.warn({ jobId: row._id, run: row.run }, 'docx worker: lease lost, result discarded');
    return;
  }
  await jobs.store.spool.remove(payload);
  jobs.logger.info({ jobId: row._id, run: row.run, status: ended.status }, 'docx worker: job ended');
  if (ended.status === 'COMPLETED') await rt.completed(row._id).catch(() => undefined);
}

// The run's workers all died on it: FAILED, payload released. False when it moved on (look again).
async function endExhausted(rt: WorkerRuntime, row: ImportJobRow): Promise<boolean> {
  const ended = await failExhausted(rt.jobs, row);
  if (!ended) return false;
  if (row.payloadRef) await rt.jobs.store.spool.remove(row.payloadRef);
  rt.jobs.logger.warn({ jobId: row._id, run: row.run, attempts: row.attempts }, 'docx worker: poison job FAILED');
  return true;
}

/**
 * One work item, start to end: claim, read the spool, parse, store the outcome with its event,
 * release the payload; a copy of a run another live worker holds waits for its lease.
 */
export async function handleWorkItem(rt: WorkerRuntime, item: WorkItem): Promise<void> {
  for (;;) {
    const claim = await claimJob(rt.jobs, item);
    if (claim.kind === 'drop') {
      rt.jobs.logger.info({ jobId: item.jobId, run: item.run, reason: claim.reason }, 'docx worker: work item dropped');
      return;
    }
    if (claim.kind === 'exhausted') {
      if (await endExhausted(rt, claim.row)) return;
      continue;
    }
    if (claim.kind === 'claimed') {
      const stopRenewing = renewLease(rt.jobs, claim.row._id, claim.token);
      try {
        return await runClaimed(rt, claim.row, claim.token);
      } finally {
        stopRenewing();
      }
    }
    const until = claim.until.getTime();
    await waitUntil(rt, () => rt.jobs.clock().getTime() >= until);
  }
}
