// Writes on a COMPLETED job: the reviewed result and approvals, each with its stored event.
import { AppError } from '../../../../kit/src/core/index.js';
import { findJob } from '../../store/job-store.js';
import type { ApprovalRow, ImportJobRow } from '../../store/job-models.js';
import { approvalCompleted, autoApprovalFailed, reviewUpdated } from './events.js';
import { findScoped, getJob } from './queries.js';
import type { ApprovalRecord, JobDeps, JobDetail, JobFailure, JobScope, ReviewInput, StoredApproval } from './types.js';
import { REVIEW, toApproval } from './view.js';
import { writeJob } from './write.js';

/** The message of IMPORT_JOB_NOT_COMPLETED. */
export const JOB_NOT_COMPLETED = 'Import job is not completed';

function assertCompleted(row: ImportJobRow): void {
  if (row.status !== 'COMPLETED') {
    throw new AppError('IMPORT_JOB_NOT_COMPLETED', JOB_NOT_COMPLETED, { details: { id: row._id, status: row.status } });
  }
}

function questionCount(parseResult: Record<string, unknown>): number {
  return Array.isArray(parseResult.questions) ? parseResult.questions.length : 0;
}

/** Stores a COMPLETED job's reviewed result verbatim with `review.updated` (IMPORT_JOB_NOT_COMPLETED otherwise). */
export async function saveReview(deps: JobDeps, scope: JobScope, id: string, input: ReviewInput): Promise<JobDetail> {
  const row = await findScoped(deps, scope, id);
  assertCompleted(row);
  const set: Partial<ImportJobRow> = {
    reviewedResultJson: JSON.stringify(input.parseResult),
    reviewStatus: REVIEW.reviewed,
    reviewedAt: deps.clock(),
  };
  if (input.title !== undefined) set.title = input.title;
  const match = { id, run: row.run, statuses: ['COMPLETED' as const] };
  const written = await writeJob(deps, match, { set }, reviewUpdated(row, questionCount(input.parseResult)));
  // A reprocess started between the read and the write: the job is no longer reviewable.
  if (!written) assertCompleted(await findScoped(deps, scope, id));
  return getJob(deps, scope, id);
}

/** The approval stored on the job under `approvalKey`, or null. */
export async function findApproval(
  deps: JobDeps,
  scope: JobScope,
  id: string,
  approvalKey: string,
): Promise<StoredApproval | null> {
  const row = await findScoped(deps, scope, id, 'approvals');
  const found = (row.approvals ?? []).find((a) => a.approvalKey === approvalKey);
  return found ? toApproval(found) : null;
}

/**
 * Stores an approval of a COMPLETED job by key with `approval.completed` (or
 * `auto_approval.completed`); a retry with a stored key answers the stored approval.
 */
export async function recordApproval(
  deps: JobDeps,
  scope: JobScope,
  id: string,
  approval: ApprovalRecord,
): Promise<StoredApproval> {
  const row = await findScoped(deps, scope, id);
  assertCompleted(row);
  const stored: ApprovalRow = {
    approvalKey: approval.approvalKey,
    target: approval.target,
    auto: approval.auto ?? false,
    questionIds: approval.questionIds,
    examId: approval.examId ?? null,
    documentId: approval.documentId ?? null,
    result: JSON.stringify(approval.result ?? null),
    at: deps.clock(),
  };
  const match = { id, statuses: ['COMPLETED' as const], withoutApproval: approval.approvalKey };
  const spec = approvalCompleted(row, stored);
  const written = await writeJob(deps, match, { set: { reviewStatus: REVIEW.approved }, pushApproval: stored }, spec);
  if (written) return toApproval(stored);
  // The same key was stored meanwhile (a concurrent retry): its result is the answer.
  const existing = await findApproval(deps, scope, id, approval.approvalKey);
  if (existing) return existing;
  assertCompleted(await findScoped(deps, scope, id));
  throw new AppError('IMPORT_JOB_NOT_COMPLETED', JOB_NOT_COMPLETED, { details: { id } });
}

/** Stores `auto_approval.failed` on a COMPLETED job; the job itself stays as it is. */
export async function recordAutoApprovalFailure(deps: JobDeps, id: string, error: JobFailure): Promise<void> {
  const row = await findJob(deps.store, { id });
  if (!row) return;
  await writeJob(deps, { id, statuses: ['COMPLETED'] }, {}, autoApprovalFailed(row, error));
}
