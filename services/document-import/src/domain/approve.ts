import { createHash } from 'node:crypto';
import { AppError, toAppError, canonicalJson } from '../../../kit/src/core/index.js';
import { autoApprovalOf } from './jobs/queries.js';
import { findApproval, recordApproval, recordAutoApprovalFailure } from './jobs/review.js';
import type { JobDeps, JobDetail } from './jobs/types.js';
import { CODES, MSG } from '../messages.js';
import type { ApprovalScope, ApprovePort, ApproveRequest, ImportDeps } from './deps.js';
import { jobScope, visibleJob, type Scope } from './scope.js';

/**
 * Pure: identical requests for the same job, run and review share a key; a reprocess or a new review
 * makes a new one, so approving the changed result is not answered with the old outcome.
 */
export function approvalKey(
  job: Pick<JobDetail, 'id' | 'run' | 'reviewedAt'>,
  request: ApproveRequest,
  auto = false,
): string {
  const basis = canonicalJson({ jobId: job.id, run: job.run, reviewedAt: job.reviewedAt, auto, request });
  return `apv-${createHash('sha256').update(basis).digest('hex').slice(0, 40)}`;
}

export interface ApprovalAnswer {
  approvalKey: string;
  replayed: boolean;
  result: unknown;
}

/** Approves a completed job into the question bank or an exam draft; a retry returns the stored result. */
export async function approveJob(
  deps: ImportDeps,
  s: Scope,
  id: string,
  request: ApproveRequest,
): Promise<ApprovalAnswer> {
  const job = await visibleJob(deps.jobs, s, id);
  const key = approvalKey(job, request);
  const stored = await findApproval(deps.jobs, jobScope(s), job.id, key);
  if (stored) return { approvalKey: key, replayed: true, result: stored.result };
  if (job.status !== 'COMPLETED') {
    throw new AppError(CODES.jobNotCompleted, MSG.jobNotCompleted, { details: { status: job.status } });
  }
  const outcome = await deps.approve(s, job, request);
  const saved = await recordApproval(deps.jobs, jobScope(s), job.id, {
    approvalKey: key,
    target: request.target,
    questionIds: outcome.questionIds,
    examId: outcome.examId ?? null,
    documentId: outcome.documentId ?? null,
    result: outcome.result,
  });
  return { approvalKey: key, replayed: false, result: saved.result };
}

/** The auto-approval's request: QUESTION_BANK with the job's subject and grade. */
function autoRequest(job: JobDetail): ApproveRequest {
  return {
    target: 'QUESTION_BANK',
    questionMetadata: {
      ...(job.subjectId ? { subjectId: job.subjectId } : {}),
      ...(job.gradeLevel !== null ? { gradeLevel: job.gradeLevel } : {}),
    },
  };
}

/**
 * Auto-approval of a job the worker COMPLETED, when it asks for it (`autoApproveToQuestionBank`):
 * a QUESTION_BANK approval in the creator's scope (the role it had when it submitted the job, none
 * for rows older than that field: the question bank then refuses it), recorded with
 * `auto_approval.completed`, or `auto_approval.failed` with its code. The worker passes `approve`.
 */
export async function autoApproveJob(jobs: JobDeps, approve: ApprovePort, jobId: string): Promise<void> {
  const found = await autoApprovalOf(jobs, jobId);
  if (found) await autoApprove(jobs, approve, found.job, { creatorRole: found.creatorRole, grant: found.grant });
}

/**
 * The auto-approval of one job's detail as its creator, with the creator's role and the run's ingest grant
 * (autoApproveJob's step; nothing unless it asks and is COMPLETED).
 */
export async function autoApprove(
  jobs: JobDeps,
  approve: ApprovePort,
  job: JobDetail,
  as: { creatorRole: string | null; grant?: string | null },
): Promise<void> {
  if (!job.autoApproveToQuestionBank || job.status !== 'COMPLETED') return;
  const s: ApprovalScope = {
    organizationId: job.organizationId,
    userId: job.createdBy,
    ...(as.creatorRole ? { role: as.creatorRole } : {}),
    ...(as.grant ? { grant: as.grant } : {}),
  };
  const request = autoRequest(job);
  const key = approvalKey(job, request, true);
  const scope = { organizationId: job.organizationId, actorId: job.createdBy };
  if (await findApproval(jobs, scope, job.id, key)) return;
  try {
    const outcome = await approve(s, job, request);
    await recordApproval(jobs, scope, job.id, { approvalKey: key, target: 'QUESTION_BANK', auto: true, ...outcome });
  } catch (err) {
    const e = toAppError(err);
    await recordAutoApprovalFailure(jobs, job.id, { code: e.code, message: e.message });
  }
}
