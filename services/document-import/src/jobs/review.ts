// Writes on a COMPLETED job: the reviewed result and approvals, each with its stored event.
import { AppError } from '../../../kit/src/core/index.js';
import type { ApprovalRow, ImportJobRow } from '../store/job-models.js';
import { writeJob, type JobContext } from './context.js';
import { approvalCompleted, autoApprovalFailed, reviewUpdated } from './events.js';
import { findScoped, getJob } from './queries.js';
import type { ApprovalRecord, JobDetail, JobFailure, JobScope, ReviewInput, StoredApproval } from './types.js';
import { REVIEW, toApproval } from './view.js';

export const JOB_NOT_COMPLETED = 'Import job is not completed';

function assertCompleted(row: ImportJobRow): void {
  if (row.status !== 'COMPLETED') {
    throw new AppError('IMPORT_JOB_NOT_COMPLETED', JOB_NOT_COMPLETED, { details: { id: row._id, status: row.status } });
  }
}

function questionCount(parseResult: Record<string, unknown>): number {
  return Array.isArray(parseResult.questions) ? parseResult.questions.length : 0;
}

export async function saveReview(ctx: JobContext, scope: JobScope, id: string, input: ReviewInput): Promise<JobDetail> {
  const row = await findScoped(ctx, scope, id);
  assertCompleted(row);
  const set: Record<string, unknown> = {
    reviewedResultJson: JSON.stringify(input.parseResult),
    reviewStatus: REVIEW.reviewed,
    reviewedAt: ctx.clock(),
  };
  if (input.title !== undefined) set.title = input.title;
  const filter = { _id: id, run: row.run, status: 'COMPLETED' };
  const written = await writeJob(ctx, filter, { set }, reviewUpdated(row, questionCount(input.parseResult)));
  // A reprocess started between the read and the write: the job is no longer reviewable.
  if (!written) assertCompleted(await findScoped(ctx, scope, id));
  return getJob(ctx, scope, id);
}

export async function findApproval(
  ctx: JobContext,
  scope: JobScope,
  id: string,
  approvalKey: string,
): Promise<StoredApproval | null> {
  const row = await findScoped(ctx, scope, id, '+approvals');
  const found = (row.approvals ?? []).find((a) => a.approvalKey === approvalKey);
  return found ? toApproval(found) : null;
}

export async function recordApproval(
  ctx: JobContext,
  scope: JobScope,
  id: string,
  approval: ApprovalRecord,
): Promise<StoredApproval> {
  const row = await findScoped(ctx, scope, id);
  assertCompleted(row);
  const stored: ApprovalRow = {
    approvalKey: approval.approvalKey,
    target: approval.target,
    auto: approval.auto ?? false,
    questionIds: approval.questionIds,
    examId: approval.examId ?? null,
    documentId: approval.documentId ?? null,
    result: JSON.stringify(approval.result ?? null),
    at: ctx.clock(),
  };
  const filter = { _id: id, status: 'COMPLETED', 'approvals.approvalKey': { $ne: approval.approvalKey } };
  const spec = approvalCompleted(row, stored);
  const written = await writeJob(
    ctx,
    filter,
    { set: { reviewStatus: REVIEW.approved }, push: { approvals: stored } },
    spec,
  );
  if (written) return toApproval(stored);
  // The same key was stored meanwhile (a concurrent retry): its result is the answer.
  const existing = await findApproval(ctx, scope, id, approval.approvalKey);
  if (existing) return existing;
  assertCompleted(await findScoped(ctx, scope, id));
  throw new AppError('IMPORT_JOB_NOT_COMPLETED', JOB_NOT_COMPLETED, { details: { id } });
}

export async function recordAutoApprovalFailure(ctx: JobContext, id: string, error: JobFailure): Promise<void> {
  const row = await ctx.models.ImportJob.findById(id).lean<ImportJobRow>().exec();
  if (!row) return;
  await writeJob(ctx, { _id: id, status: 'COMPLETED' }, {}, autoApprovalFailed(row, error));
}
