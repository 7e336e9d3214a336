// One work item, start to end: claim, read the spool, parse, store the outcome with its event,
// release the payload. Database errors are thrown (the kit retries the message, the offset stays
// uncommitted); a refusal of the file is the job's failure, never the worker's.
import { existsSync } from 'node:fs';
import { writeJob, type JobContext } from '../jobs/context.js';
import { jobCompleted, type WorkItem } from '../jobs/events.js';
import { failJob, PAYLOAD_MISSING } from '../jobs/recover.js';
import type { JobFailure } from '../jobs/types.js';
import { countersOf, REVIEW, stateFields, warningCodesOf } from '../jobs/view.js';
import type { ImportJobRow, PayloadRef } from '../store/job-models.js';
import { claimJob, failExhausted, renewLease } from './claim.js';
import { ParseFailure, type ParseOutcome, type ParseStep } from './parse-step.js';

export interface WorkerRuntime {
  ctx: JobContext;
  parse: ParseStep;
  /** After a job COMPLETED (auto-approval); its errors are logged, never the job's. */
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

interface Claimed {
  row: ImportJobRow;
  token: string;
  payload: PayloadRef;
}

async function complete(rt: WorkerRuntime, { row, token, payload }: Claimed, outcome: ParseOutcome) {
  const counters = countersOf(outcome.output);
  const latencyMs = Date.now() - new Date(row.startedAt ?? rt.ctx.clock()).getTime();
  const set = {
    status: 'COMPLETED',
    ...stateFields('COMPLETED'),
    reviewStatus: REVIEW.ready,
    parseResultJson: JSON.stringify(outcome.output),
    packagingJson: JSON.stringify(packaging(row, payload, outcome)),
    counters,
    errorSummary: null,
    completedAt: rt.ctx.clock(),
    lease: null,
    payloadRef: null,
  };
  const spec = jobCompleted(row, { counters, warningCodes: warningCodesOf(outcome.output), latencyMs });
  return writeJob(rt.ctx, { _id: row._id, run: row.run, status: 'PROCESSING', 'lease.token': token }, { set }, spec);
}

async function runClaimed(rt: WorkerRuntime, row: ImportJobRow, token: string): Promise<void> {
  const { ctx } = rt;
  const pauseFile = ctx.config.DOCX_WORKER_PAUSE_FILE;
  if (pauseFile) await waitUntil(rt, () => !existsSync(pauseFile));
  const done = rt.inHand?.(row._id);
  try {
    await runHeld(rt, row, token);
  } finally {
    done?.();
  }
}

async function runHeld(rt: WorkerRuntime, row: ImportJobRow, token: string): Promise<void> {
  const { ctx } = rt;
  const payload = row.payloadRef;
  const bytes = payload ? await ctx.spool.read(payload) : null;
  if (!payload || !bytes) {
    await failJob(ctx, row, PAYLOAD_MISSING, { 'lease.token': token });
    return;
  }
  const outcome = await parseOrFailure(rt, row, bytes);
  const ended =
    'code' in outcome
      ? await failJob(ctx, row, outcome, { 'lease.token': token })
      : await complete(rt, { row, token, payload }, outcome);
  if (!ended) {
    ctx.logger.warn({ jobId: row._id, run: row.run }, 'docx worker: lease lost, result discarded');
    return;
  }
  await ctx.spool.remove(payload);
  ctx.logger.info({ jobId: row._id, run: row.run, status: ended.status }, 'docx worker: job ended');
  if (ended.status === 'COMPLETED') await rt.completed(row._id).catch(() => undefined);
}

// The run's workers all died on it: FAILED, payload released. False when it moved on (look again).
async function endExhausted(rt: WorkerRuntime, row: ImportJobRow): Promise<boolean> {
  const ended = await failExhausted(rt.ctx, row);
  if (!ended) return false;
  if (row.payloadRef) await rt.ctx.spool.remove(row.payloadRef);
  rt.ctx.logger.warn({ jobId: row._id, run: row.run, attempts: row.attempts }, 'docx worker: poison job FAILED');
  return true;
}

export async function handleWorkItem(rt: WorkerRuntime, item: WorkItem): Promise<void> {
  for (;;) {
    const claim = await claimJob(rt.ctx, item);
    if (claim.kind === 'drop') {
      rt.ctx.logger.info({ jobId: item.jobId, run: item.run, reason: claim.reason }, 'docx worker: work item dropped');
      return;
    }
    if (claim.kind === 'exhausted') {
      if (await endExhausted(rt, claim.row)) return;
      continue;
    }
    if (claim.kind === 'claimed') {
      const stopRenewing = renewLease(rt.ctx, claim.row._id, claim.token);
      try {
        return await runClaimed(rt, claim.row, claim.token);
      } finally {
        stopRenewing();
      }
    }
    const until = claim.until.getTime();
    await waitUntil(rt, () => rt.ctx.clock().getTime() >= until);
  }
}
