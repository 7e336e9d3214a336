// The import jobs' data shapes and the deps their use cases run on, shared by the use cases, the
// worker and the routes. The ones a stored job row is made of are the store's (store/job-types.ts),
// re-exported here.
import type { Logger } from '../../../../kit/src/core/index.js';
import type { DocumentImportConfig } from '../../config.js';
import type { ImportJobRow } from '../../store/job-models.js';
import type { JobStore } from '../../store/job-store.js';
import type {
  ApprovalTarget,
  JobCounters,
  JobKind,
  JobSource,
  JobStatus,
  PayloadSource,
} from '../../store/job-types.js';

/** The stored row's shapes, re-exported for the use cases, the worker and the routes. */
export type {
  ApprovalTarget,
  JobCounters,
  JobFailure,
  JobFilters,
  JobKind,
  JobSource,
  JobStatus,
  Paging,
  PayloadSource,
} from '../../store/job-types.js';

/** Who acts: `X-Organization-Id`, `X-User-Id`, `X-User-Role`. Jobs are visible within their organization. */
export interface JobScope {
  organizationId: string;
  actorId: string;
  /** The actor's role in the organization; stored on a new job as its creator's (auto-approval forwards it). */
  actorRole?: string;
}

/** The `queue` object, present only while PENDING or PROCESSING. */
export interface QueueInfo {
  status: 'WAITING' | 'ACTIVE';
  /** PENDING jobs of the whole queue (every organization: the workers are shared). */
  waiting: number;
  /** PROCESSING jobs of the whole queue. */
  active: number;
  totalPending: number;
  /** 1-based place among the waiting jobs (oldest first); 0 once active. */
  waitingPosition: number;
  /** Waiting jobs queued before this one; 0 once active. */
  jobsAhead: number;
  workerConcurrency: number;
}

/** The stored row's fields a summary shows as they are stored. */
type StoredSummaryFields =
  | 'jobKind'
  | 'source'
  | 'title'
  | 'questionFileName'
  | 'fileName'
  | 'status'
  | 'fileStatus'
  | 'extractionStatus'
  | 'parseStatus'
  | 'matchStatus'
  | 'reviewStatus'
  | 'progress'
  | 'errorSummary'
  | 'organizationId'
  | 'createdBy'
  | 'run'
  | 'autoApproveToQuestionBank'
  | 'subjectId'
  | 'gradeLevel'
  | 'questionStorageKey'
  | 'counters';

/** List and stream snapshot shape (the contract's summary fields): the stored ones, the id and the times as text. */
export interface JobSummary extends Pick<ImportJobRow, StoredSummaryFields> {
  id: string;
  createdAt: string;
  updatedAt: string;
  queuedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  reviewedAt: string | null;
  queue?: QueueInfo;
}

/** Detail: the summary plus the parse output (the reviewed payload when one was saved). */
export interface JobDetail extends JobSummary {
  packagingJson: Record<string, unknown> | null;
  parseResultJson: Record<string, unknown> | null;
  /** The worker's own output, kept beside the reviewed one (the baseline for a re-review). */
  originalParseResultJson: Record<string, unknown> | null;
  approvals: StoredApproval[];
}

/** An approval as stored on the job and answered on a retry. */
export interface StoredApproval {
  approvalKey: string;
  target: ApprovalTarget;
  auto: boolean;
  questionIds: string[];
  examId: string | null;
  documentId: string | null;
  /** What the approval answered, returned verbatim on a retry with the same key. */
  result: unknown;
  at: string;
}

/** One event as stored per job (`type` is the contract's short name, e.g. `job.queued`). */
export interface StoredJobEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  time: string;
}

/** A new job: its bytes, names and options. */
export interface SubmitInput {
  source: PayloadSource;
  fileName: string;
  title?: string | null;
  jobKind: JobKind;
  jobSource: JobSource;
  autoApproveToQuestionBank?: boolean;
  subjectId?: string | null;
  gradeLevel?: number | null;
  questionStorageKey?: string | null;
  /** Fast jobs: already trimmed and capped by the route. */
  idempotencyKey?: string | null;
}

/** A submitted (or replayed) job's summary. */
export interface SubmitResult {
  job: JobSummary;
  /** True when an equal fast-job request within 15 minutes already made this job (nothing enqueued). */
  replayed: boolean;
}

/** A page of summaries and the filter's total. */
export interface JobPage {
  items: JobSummary[];
  total: number;
}

/** The status route's answer: status and counters. */
export interface JobStatusView extends JobCounters {
  status: JobStatus;
}

/** A reviewed result to store. */
export interface ReviewInput {
  /** Stored verbatim. */
  parseResult: Record<string, unknown>;
  title?: string | null;
}

/** An approval to store on a COMPLETED job. */
export interface ApprovalRecord {
  approvalKey: string;
  target: ApprovalTarget;
  /** `auto_approval.completed` instead of `approval.completed`. */
  auto?: boolean;
  questionIds: string[];
  examId?: string | null;
  documentId?: string | null;
  result: unknown;
}

/** A live change, for the event streams: the summary, never the parse body. */
export interface JobUpdate {
  type: 'job.updated';
  job: JobSummary;
}

/** Receives live updates. */
export type JobListener = (update: JobUpdate) => void;

/** Live `job.updated` for the event streams (live.ts): subscribe, and tell it a job changed here. */
export interface LiveFeed {
  /** Updates of one job, or of every job with null; returns the unsubscribe function. */
  subscribe(jobId: string | null, listener: JobListener): () => void;
  /** A job changed in this process: poll now instead of at the next tick. */
  changed(jobId: string): void;
  close(): void;
}

/**
 * What the job use cases run on, one per process (open.ts builds it): the store, the config, the
 * live feed, the topics, and the only time and id sources (tests pin them).
 */
export interface JobDeps {
  store: JobStore;
  config: DocumentImportConfig;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  topics: { jobs: string; events: string };
  live: LiveFeed;
}
