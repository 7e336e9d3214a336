// Submissions: a new job (spool, row with job.queued, work item), fast-job replay, reprocess.
import { createHash } from 'node:crypto';
import { AppError } from '../../../../kit/src/core/index.js';
import { createFastKey, findFastKey, findJob, retakeFastKey } from '../../store/job-store.js';
import type { ImportJobRow, PayloadRef } from '../../store/job-models.js';
import { jobQueued } from './events.js';
import { ingestGrantFor } from './grant.js';
import { findScoped, summaryOf } from './queries.js';
import type { JobDeps, JobScope, JobSummary, PayloadSource, SubmitInput, SubmitResult } from './types.js';
import { REVIEW, stateFields, ZERO_COUNTERS } from './view.js';
import { enqueueWork, insertJob, writeJob } from './write.js';

/** How long an equal fast-job request is answered with the job the first one made. */
export const REPLAY_WINDOW_MS = 15 * 60 * 1000;
/** The message of IMPORT_JOB_ACTIVE. */
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

async function liveJobOf(deps: JobDeps, jobId: string, waitMs: number): Promise<ImportJobRow | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await findJob(deps.store, { id: jobId });
    if (row || Date.now() >= deadline) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The job an equal fast-job request (organization, actor, key, storage key) made within the replay
 * window, without submitting anything (the route asks before it fetches the bytes); null when none.
 */
export async function findReplay(
  deps: JobDeps,
  scope: JobScope,
  key: { idempotencyKey: string; storageKey: string },
  now: Date = deps.clock(),
): Promise<JobSummary | null> {
  const found = await findFastKey(deps.store, fastKeyId(scope, key.idempotencyKey, key.storageKey));
  if (!found || now.getTime() - found.createdAt.getTime() >= REPLAY_WINDOW_MS) return null;
  const row = await liveJobOf(deps, found.jobId, 0);
  return row ? summaryOf(deps, row) : null;
}

/** Claims the key for `jobId`; returns the job an equal recent request made instead, if any. */
async function claimFastKey(deps: JobDeps, scope: JobScope, input: SubmitInput, jobId: string) {
  const _id = fastKeyId(scope, input.idempotencyKey!, input.questionStorageKey ?? '');
  for (let round = 0; round < 3; round++) {
    const now = deps.clock();
    if (await createFastKey(deps.store, { _id, jobId, createdAt: now })) return null;
    const held = await findFastKey(deps.store, _id);
    if (!held) continue;
    const fresh = now.getTime() - held.createdAt.getTime() < REPLAY_WINDOW_MS;
    const row = fresh ? await liveJobOf(deps, held.jobId, RACE_WAIT_MS) : null;
    if (row) return row;
    if (await retakeFastKey(deps.store, held.jobId, { _id, jobId, createdAt: now })) return null;
  }
  throw new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'An equal request is being processed');
}

function newRow(deps: JobDeps, scope: JobScope, input: SubmitInput, id: string): ImportJobRow {
  const now = deps.clock();
  return {
    _id: id,
    organizationId: scope.organizationId,
    createdBy: scope.actorId,
    createdByRole: scope.actorRole ?? null,
    ingestGrant: ingestGrantFor(deps, { id, organizationId: scope.organizationId, createdBy: scope.actorId }, now),
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

/**
 * Spools the bytes (directory or GridFS, DOCX_IMPORT_PAYLOAD_STORE), stores a PENDING job with
 * `job.queued`, then enqueues the work item `docx-import.job.requested.v1`; both leave through the
 * outbox (owner = the job row), so a crash never leaves a job without its item. With an
 * idempotencyKey (fast jobs) an equal request within the replay window returns that job (replayed).
 */
export async function submitJob(deps: JobDeps, scope: JobScope, input: SubmitInput): Promise<SubmitResult> {
  const id = deps.newId();
  if (input.idempotencyKey) {
    const earlier = await claimFastKey(deps, scope, input, id);
    if (earlier) return { job: await summaryOf(deps, earlier), replayed: true };
  }
  const payload = await deps.store.spool.put(payloadName(id, 1), input.source);
  const row = { ...newRow(deps, scope, input, id), payloadRef: payload };
  try {
    await insertJob(deps, row, jobQueued(row));
  } catch (err) {
    await deps.store.spool.remove(payload).catch(() => undefined);
    throw err;
  }
  await enqueueWork(deps, row, payload);
  return { job: await summaryOf(deps, row), replayed: false };
}

function assertIdle(row: ImportJobRow): void {
  if (row.status === 'PENDING' || row.status === 'PROCESSING') {
    throw new AppError('IMPORT_JOB_ACTIVE', JOB_ACTIVE, { details: { id: row._id, status: row.status } });
  }
}

function freshRun(run: number, payload: PayloadRef, now: Date, ingestGrant: string | null): Partial<ImportJobRow> {
  return {
    status: 'PENDING',
    ingestGrant,
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

/**
 * A fresh payload under the same id, run + 1, old output (parse result, review, packaging, counters,
 * error) cleared; refused with IMPORT_JOB_ACTIVE while PENDING or PROCESSING.
 */
export async function reprocessJob(
  deps: JobDeps,
  scope: JobScope,
  id: string,
  source: PayloadSource,
): Promise<JobSummary> {
  const before = await findScoped(deps, scope, id);
  assertIdle(before);
  const run = before.run + 1;
  const payload = await deps.store.spool.put(payloadName(id, run), source);
  const queued = jobQueued({ ...before, run });
  const match = { id, run: before.run, statuses: ['COMPLETED' as const, 'FAILED' as const] };
  const now = deps.clock();
  const grant = ingestGrantFor(deps, { id, organizationId: before.organizationId, createdBy: before.createdBy }, now);
  const row = await writeJob(deps, match, { set: freshRun(run, payload, now, grant) }, queued);
  if (!row) {
    // Another reprocess of the same job won the race: its run is the one queued.
    await deps.store.spool.remove(payload).catch(() => undefined);
    assertIdle(await findScoped(deps, scope, id));
    throw new AppError('IMPORT_JOB_ACTIVE', JOB_ACTIVE, { details: { id } });
  }
  await enqueueWork(deps, row, payload);
  return summaryOf(deps, row);
}
