// Pure builders of the job events and the work item (kafka/schemas/docx-import.*.json). Each takes
// the job row and returns the event data; nothing here ever reads the parse body or payload bytes.
import { EVENT_TYPES } from '../../../../../kafka/topics.js';
import type { ImportJobRow, PayloadRef } from '../../store/job-models.js';
import type { ApprovalTarget, JobCounters, JobFailure } from './types.js';

export const SOURCE = 'document-import';

/** The contract's short names (stored per job) and the catalogue's event types (published). */
export const JOB_EVENT_TYPES = {
  'job.queued': EVENT_TYPES.docxImportJobQueued,
  'job.started': EVENT_TYPES.docxImportJobStarted,
  'job.completed': EVENT_TYPES.docxImportJobCompleted,
  'job.failed': EVENT_TYPES.docxImportJobFailed,
  'review.updated': EVENT_TYPES.docxImportReviewUpdated,
  'approval.completed': EVENT_TYPES.docxImportApprovalCompleted,
  'auto_approval.completed': EVENT_TYPES.docxImportAutoApprovalCompleted,
  'auto_approval.failed': EVENT_TYPES.docxImportAutoApprovalFailed,
} as const;

export type JobEventName = keyof typeof JOB_EVENT_TYPES;

export interface JobEventSpec {
  name: JobEventName;
  data: Record<string, unknown>;
}

type JobHead = Pick<ImportJobRow, '_id' | 'organizationId' | 'createdBy' | 'jobKind'>;

function head(job: JobHead) {
  return { jobId: job._id, organizationId: job.organizationId, actorId: job.createdBy, jobKind: job.jobKind };
}

const MAX_FILE_NAME = 255;
const MAX_TITLE = 500;
const MAX_MESSAGE = 1000;

export function jobQueued(job: ImportJobRow): JobEventSpec {
  return {
    name: 'job.queued',
    data: {
      ...head(job),
      status: 'PENDING',
      run: job.run,
      fileName: job.fileName.slice(0, MAX_FILE_NAME),
      title: job.title === null ? null : job.title.slice(0, MAX_TITLE),
      autoApproveToQuestionBank: job.autoApproveToQuestionBank,
    },
  };
}

export function jobStarted(job: JobHead & { run: number }): JobEventSpec {
  return { name: 'job.started', data: { ...head(job), status: 'PROCESSING', run: job.run } };
}

export function jobCompleted(
  job: JobHead & { run: number },
  result: { counters: JobCounters; warningCodes: string[]; latencyMs: number },
): JobEventSpec {
  return {
    name: 'job.completed',
    data: {
      ...head(job),
      status: 'COMPLETED',
      run: job.run,
      counts: result.counters,
      warningCodes: [...new Set(result.warningCodes)],
      latencyMs: Math.max(0, Math.round(result.latencyMs)),
    },
  };
}

export function failure(error: JobFailure): JobFailure {
  return { code: error.code, message: error.message.slice(0, MAX_MESSAGE) };
}

export function jobFailed(job: JobHead & { run: number }, error: JobFailure): JobEventSpec {
  return { name: 'job.failed', data: { ...head(job), status: 'FAILED', run: job.run, error: failure(error) } };
}

export function reviewUpdated(job: JobHead, questionCount: number): JobEventSpec {
  return { name: 'review.updated', data: { ...head(job), status: 'COMPLETED', questionCount } };
}

export interface ApprovalEventInput {
  target: ApprovalTarget;
  approvalKey: string;
  questionIds: string[];
  examId: string | null;
  documentId: string | null;
  auto: boolean;
}

export function approvalCompleted(job: JobHead, a: ApprovalEventInput): JobEventSpec {
  return {
    name: a.auto ? 'auto_approval.completed' : 'approval.completed',
    data: {
      ...head(job),
      status: 'COMPLETED',
      target: a.target,
      approvalKey: a.approvalKey,
      documentId: a.documentId,
      questionIds: a.questionIds,
      examId: a.examId,
    },
  };
}

export function autoApprovalFailed(job: JobHead, error: JobFailure): JobEventSpec {
  return {
    name: 'auto_approval.failed',
    data: { ...head(job), status: 'COMPLETED', target: 'QUESTION_BANK', error: failure(error) },
  };
}

/** The work item of one run: a reference to the spooled upload, never its bytes. */
export function jobRequested(job: ImportJobRow, payload: PayloadRef): Record<string, unknown> {
  return {
    ...head(job),
    run: job.run,
    fileName: job.fileName.slice(0, MAX_FILE_NAME),
    title: job.title === null ? null : job.title.slice(0, MAX_TITLE),
    storage: { store: payload.store, ref: payload.ref, sizeBytes: payload.sizeBytes, sha256: payload.sha256 },
    autoApproveToQuestionBank: job.autoApproveToQuestionBank,
    subjectId: job.subjectId,
    gradeLevel: job.gradeLevel,
  };
}

export interface WorkItem {
  jobId: string;
  run: number;
  storage: { store: string; ref: string; sizeBytes: number; sha256?: string };
}
