// Pure builders of the job events and the work item (kafka/schemas/docx-import.*.json). Each takes
// the job row and returns the event data; nothing here ever reads the parse body or payload bytes.
import { EVENT_TYPES } from '../../../../../kafka/topics.js';
import type { ImportJobRow, PayloadRef } from '../../store/job-models.js';
import type { ApprovalTarget, JobCounters, JobFailure } from './types.js';

/** The `source` of every event this service publishes. */
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

/** A stored event's short name (the contract's). */
export type JobEventName = keyof typeof JOB_EVENT_TYPES;

/** An event to store on a job and publish: its short name and data. */
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

/** `job.queued`: a run is waiting (new job or reprocess). */
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

/** `job.started`: a worker took the run. */
export function jobStarted(job: JobHead & { run: number }): JobEventSpec {
  return { name: 'job.started', data: { ...head(job), status: 'PROCESSING', run: job.run } };
}

/** `job.completed` with the counters, warning codes and latency. */
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

/** A failure as published: code and message (capped), never the parser's details. */
export function failure(error: JobFailure): JobFailure {
  return { code: error.code, message: error.message.slice(0, MAX_MESSAGE) };
}

/** `job.failed` with the failure's code and message. */
export function jobFailed(job: JobHead & { run: number }, error: JobFailure): JobEventSpec {
  return { name: 'job.failed', data: { ...head(job), status: 'FAILED', run: job.run, error: failure(error) } };
}

/** `review.updated` with the reviewed question count. */
export function reviewUpdated(job: JobHead, questionCount: number): JobEventSpec {
  return { name: 'review.updated', data: { ...head(job), status: 'COMPLETED', questionCount } };
}

/** What an approval event says about the approval. */
export interface ApprovalEventInput {
  target: ApprovalTarget;
  approvalKey: string;
  questionIds: string[];
  examId: string | null;
  documentId: string | null;
  auto: boolean;
}

/** `approval.completed`, or `auto_approval.completed` for an auto-approval. */
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

/** `auto_approval.failed` with its code and message (the job stays COMPLETED). */
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

/** The fields of a work item a worker reads. */
export interface WorkItem {
  jobId: string;
  run: number;
  storage: { store: string; ref: string; sizeBytes: number; sha256?: string };
}
