// The job engine's contract (what routes, use cases and the worker call) apart from its builder, so
// the façade (engine.ts) and its implementation (engine-impl.ts) both import it and not each other.
import type { Registry } from 'prom-client';
import type { Logger } from '../../../kit/src/core/index.js';
import type { EventBus } from '../../../kit/src/bus/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import type { DocumentImportConfig } from '../config.js';
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

/** What an engine is built from: the config, the database, the bus (optional) and the logger. */
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

/** The job engine's operations, one engine per process. */
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
