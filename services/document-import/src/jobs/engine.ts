// The document-import job engine: what the routes (API processes) call. One engine per process.
//
//   const engine = await createJobEngine({ config, db, bus, logger, metrics });
//   const { job, replayed } = await engine.submitUpload(scope, { source: { filePath }, fileName, jobKind: 'QAS', jobSource: 'UPLOAD' });
//
// - submitUpload: spools the bytes (directory or GridFS, DOCX_IMPORT_PAYLOAD_STORE), stores a PENDING
//   job with `job.queued`, then enqueues the work item `docx-import.job.requested.v1` on
//   `docx-import.jobs.v1`; both go out through the kit outbox (owner = the job row), so a crash never
//   leaves a job without its item. With an idempotencyKey (fast jobs) an equal request of the same
//   organization and actor for the same storage key within 15 minutes returns that job (replayed).
// - findReplay: the same lookup without submitting (the route calls it before fetching bytes).
// - reprocess: refused with IMPORT_JOB_ACTIVE while PENDING or PROCESSING; otherwise a fresh payload
//   under the same id, run + 1, old output (parse result, review, packaging, counters, error) cleared.
// - get / list / status / queueOf: reads; summaries carry `queue` only while PENDING or PROCESSING.
//   Unknown id, or another organization's job: IMPORT_JOB_NOT_FOUND.
// - saveReview: COMPLETED jobs only (IMPORT_JOB_NOT_COMPLETED), stored verbatim, `review.updated`.
// - findApproval / recordApproval / recordAutoApprovalFailure: approvals stored on the job by key with
//   `approval.completed` (or `auto_approval.completed`) / `auto_approval.failed`.
// - events(id): the stored per-job events, oldest first.
// - subscribe(jobId | null, listener): live `job.updated` (summary only) for one job or all jobs of
//   the listener's choosing; changes made by any process (the workers) arrive by polling
//   `updatedAt` while someone listens (DOCX_IMPORT_LIVE_POLL_MS). Returns the unsubscribe function.
// - recover(): service start. PENDING/PROCESSING jobs whose payload exists are re-enqueued (same run:
//   a worker drops a duplicate of a finished run); the others are FAILED with DOCX_IMPORT_PAYLOAD_MISSING.
// - onCompleted(hook): the auto-approval seam. Called in the process that completes a job (the worker)
//   for COMPLETED jobs with autoApproveToQuestionBank; see worker/main.ts.
// - close(): stops the relay and the live poller (the bus and MongoDB belong to the caller).
// Every event is validated by kafka/schemas and never carries the parse body, bytes or payload ref.
import type { Registry } from 'prom-client';
import type { EventBus, Logger, MongoHandle } from '../../../kit/src/index.js';
import type { DocumentImportConfig } from '../config.js';
import { buildEngine } from './engine-impl.js';
import type {
  ApprovalRecord,
  JobDetail,
  JobFailure,
  JobFilters,
  JobListener,
  JobPage,
  JobScope,
  JobStatusView,
  JobSummary,
  Paging,
  PayloadSource,
  QueueInfo,
  ReviewInput,
  StoredApproval,
  StoredJobEvent,
  SubmitInput,
  SubmitResult,
} from './types.js';

export type * from './types.js';

export interface JobEngineOptions {
  config: DocumentImportConfig;
  db: MongoHandle;
  /** Without a bus, jobs and events are stored and wait in the outbox; nothing runs them. */
  bus?: EventBus;
  logger: Logger;
  metrics?: Registry;
  clock?: () => Date;
  newId?: () => string;
}

/**
 * Called after a job COMPLETED, with its detail and its creator's stored role (null on older rows);
 * errors are the hook's to record (they are logged).
 */
export type CompletedHook = (job: JobDetail, creatorRole: string | null) => Promise<void>;

export interface JobEngine {
  submitUpload(scope: JobScope, input: SubmitInput): Promise<SubmitResult>;
  findReplay(
    scope: JobScope,
    idempotencyKey: string,
    questionStorageKey: string,
    now?: Date,
  ): Promise<JobSummary | null>;
  reprocess(scope: JobScope, id: string, source: PayloadSource): Promise<JobSummary>;
  get(scope: JobScope, id: string): Promise<JobDetail>;
  list(scope: JobScope, filters: JobFilters, paging: Paging): Promise<JobPage>;
  status(scope: JobScope, id: string): Promise<JobStatusView>;
  queueOf(job: Pick<JobSummary, 'id' | 'status' | 'queuedAt'>): Promise<QueueInfo | undefined>;
  saveReview(scope: JobScope, id: string, input: ReviewInput): Promise<JobDetail>;
  findApproval(scope: JobScope, id: string, approvalKey: string): Promise<StoredApproval | null>;
  recordApproval(scope: JobScope, id: string, approval: ApprovalRecord): Promise<StoredApproval>;
  recordAutoApprovalFailure(id: string, error: JobFailure): Promise<void>;
  events(scope: JobScope, id: string): Promise<StoredJobEvent[]>;
  subscribe(jobId: string | null, listener: JobListener): () => void;
  recover(): Promise<{ requeued: number; failed: number }>;
  onCompleted(hook: CompletedHook): void;
  close(): Promise<void>;
}

export async function createJobEngine(opts: JobEngineOptions): Promise<JobEngine> {
  return buildEngine(opts);
}
