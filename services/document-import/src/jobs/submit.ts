// Submissions: a new job (spool, row with job.queued, work item), fast-job replay, reprocess.
import { createHash } from 'node:crypto';
import { AppError } from '../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import type { ImportJobRow, PayloadRef } from '../store/job-models.js';
import { enqueueWork, insertJob, writeJob, type JobContext } from './context.js';
import { jobQueued } from './events.js';
import { findScoped, summaryOf } from './queries.js';
import type { JobScope, JobSummary, PayloadSource, SubmitInput, SubmitResult } from './types.js';
import { REVIEW, stateFields, ZERO_COUNTERS } from './view.js';

export const REPLAY_WINDOW_MS = 15 * 60 * 1000;
export const JOB_ACTIVE = 'Import job is active or waiting in the queue';
// How long a second equal request waits for the first one's job row (the first is still spooling).
const RACE_WAIT_MS = 10_000;

function payloadName(id: string, run: number): string {
  return `${id}-r${run}.docx`;
}

function fastKeyId(scope: JobScope, key: string, storageKey: string): string {
  return createHash('sha256')
    .update([scope.organizationId, scope.actorId, key, storageKey].join('\u0000'))
    .digest('hex');
}

async function liveJobOf(ctx: JobContext, jobId: string, waitMs: number): Promise<ImportJobRow | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await ctx.models.ImportJob.findById(jobId).lean<ImportJobRow>().exec();
    if (row || Date.now() >= deadline) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function findReplay(
  ctx: JobContext,
  scope: JobScope,
  key: { idempotencyKey: string; storageKey: string },
  now: Date,
): Promise<JobSummary | null> {
  const found = await ctx.models.FastJobKey.findById(fastKeyId(scope, key.idempotencyKey, key.storageKey))
    .lean()
    .exec();
  if (!found || now.getTime() - found.createdAt.getTime() >= REPLAY_WINDOW_MS) return null;
  const row = await liveJobOf(ctx, found.jobId, 0);
  return row ? summaryOf(ctx, row) : null;
}

/** Claims the key for `jobId`; returns the job an equal recent request made instead, if any. */
async function claimFastKey(ctx: JobContext, scope: JobScope, input: SubmitInput, jobId: string) {
  const _id = fastKeyId(scope, input.idempotencyKey!, input.questionStorageKey ?? '');
  const { FastJobKey } = ctx.models;
  for (let round = 0; round < 3; round++) {
    const now = ctx.clock();
    try {
      await FastJobKey.create({ _id, jobId, createdAt: now });
      return null;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const held = await FastJobKey.findById(_id).lean().exec();
    if (!held) continue;
    const fresh = now.getTime() - held.createdAt.getTime() < REPLAY_WINDOW_MS;
    const row = fresh ? await liveJobOf(ctx, held.jobId, RACE_WAIT_MS) : null;
    if (row) return row;
    const taken = await FastJobKey.updateOne({ _id, jobId: held.jobId }, { $set: { jobId, createdAt: now } }).exec();
    if (taken.modifiedCount === 1) return null;
  }
  throw new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'An equal request is being processed');
}

function newRow(ctx: JobContext, scope: JobScope, input: SubmitInput, id: string): ImportJobRow {
  const now = ctx.clock();
  return {
    _id: id,
    organizationId: scope.organizationId,
    createdBy: scope.actorId,
    createdByRole: scope.actorRole ?? null,
    jobKind: input.jobKind,
    source: input.jobSource,
    title: input.title ?? null,
    fileName: input.fileName,
    questionFileName: input.fileName,
    status: 'PENDING',
    ...stateFields('PENDING'),
    reviewStatus: REVIEW.none,
    errorSummary: null,
    run: 1,
    autoApproveToQuestionBank: input.autoApproveToQuestionBank ?? false,
    subjectId: input.subjectId ?? null,
    gradeLevel: input.gradeLevel ?? null,
    questionStorageKey: input.questionStorageKey ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    counters: { ...ZERO_COUNTERS },
    packagingJson: null,
    parseResultJson: null,
    reviewedResultJson: null,
    payloadRef: null,
    lease: null,
    attempts: 0,
    approvals: [],
    events: [],
    queuedAt: now,
    startedAt: null,
    completedAt: null,
    failedAt: null,
    reviewedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function submitJob(ctx: JobContext, scope: JobScope, input: SubmitInput): Promise<SubmitResult> {
  const id = ctx.newId();
  if (input.idempotencyKey) {
    const earlier = await claimFastKey(ctx, scope, input, id);
    if (earlier) return { job: await summaryOf(ctx, earlier), replayed: true };
  }
  const payload = await ctx.spool.put(payloadName(id, 1), input.source);
  const row = { ...newRow(ctx, scope, input, id), payloadRef: payload };
  try {
    await insertJob(ctx, row, jobQueued(row));
  } catch (err) {
    await ctx.spool.remove(payload).catch(() => undefined);
    throw err;
  }
  await enqueueWork(ctx, row, payload);
  return { job: await summaryOf(ctx, row), replayed: false };
}

function assertIdle(row: ImportJobRow): void {
  if (row.status === 'PENDING' || row.status === 'PROCESSING') {
    throw new AppError('IMPORT_JOB_ACTIVE', JOB_ACTIVE, { details: { id: row._id, status: row.status } });
  }
}

function freshRun(run: number, payload: PayloadRef, now: Date) {
  return {
    status: 'PENDING',
    ...stateFields('PENDING'),
    reviewStatus: REVIEW.none,
    run,
    payloadRef: payload,
    packagingJson: null,
    parseResultJson: null,
    reviewedResultJson: null,
    counters: { ...ZERO_COUNTERS },
    errorSummary: null,
    lease: null,
    attempts: 0,
    queuedAt: now,
    startedAt: null,
    completedAt: null,
    failedAt: null,
    reviewedAt: null,
  };
}

export async function reprocessJob(
  ctx: JobContext,
  scope: JobScope,
  id: string,
  source: PayloadSource,
): Promise<JobSummary> {
  const before = await findScoped(ctx, scope, id);
  assertIdle(before);
  const run = before.run + 1;
  const payload = await ctx.spool.put(payloadName(id, run), source);
  const queued = jobQueued({ ...before, run });
  const filter = { _id: id, run: before.run, status: { $in: ['COMPLETED', 'FAILED'] } };
  const row = await writeJob(ctx, filter, { set: freshRun(run, payload, ctx.clock()) }, queued);
  if (!row) {
    // Another reprocess of the same job won the race: its run is the one queued.
    await ctx.spool.remove(payload).catch(() => undefined);
    assertIdle(await findScoped(ctx, scope, id));
    throw new AppError('IMPORT_JOB_ACTIVE', JOB_ACTIVE, { details: { id } });
  }
  await enqueueWork(ctx, row, payload);
  return summaryOf(ctx, row);
}
