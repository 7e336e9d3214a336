import { Schema, type Connection, type Model } from 'mongoose';
import { outboxOwnerPlugin } from '../../../kit/src/data/index.js';
import type { ApprovalTarget, JobCounters, JobFailure, JobKind, JobSource, JobStatus } from './job-types.js';

/** Where a run's upload is spooled; internal, never serialized out of the store. */
export interface PayloadRef {
  store: string;
  ref: string;
  sizeBytes: number;
  sha256: string;
}

export interface StoredEventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  time: Date;
}

export interface ApprovalRow {
  approvalKey: string;
  target: ApprovalTarget;
  auto: boolean;
  questionIds: string[];
  examId: string | null;
  documentId: string | null;
  /** JSON text: what the approval answered, returned verbatim on a retry. */
  result: string;
  at: Date;
}

export interface ImportJobRow {
  _id: string;
  organizationId: string;
  createdBy: string;
  /** The creator's role in the organization when it submitted; null on rows older than the field. */
  createdByRole?: string | null;
  /** The current run's ingest grant (kit grant.ts), signed by the API process; never in an answer. */
  ingestGrant?: string | null;
  jobKind: JobKind;
  source: JobSource;
  title: string | null;
  fileName: string;
  questionFileName: string;
  status: JobStatus;
  fileStatus: string;
  extractionStatus: string;
  parseStatus: string;
  matchStatus: string;
  reviewStatus: string;
  progress: number;
  errorSummary: JobFailure | null;
  run: number;
  autoApproveToQuestionBank: boolean;
  subjectId: string | null;
  gradeLevel: number | null;
  questionStorageKey: string | null;
  idempotencyKey: string | null;
  counters: JobCounters;
  /** JSON texts: stored verbatim (a reviewed payload may hold keys MongoDB refuses as field names). */
  packagingJson: string | null;
  parseResultJson: string | null;
  reviewedResultJson: string | null;
  payloadRef: PayloadRef | null;
  lease: { token: string; until: Date } | null;
  /** Workers that took this run (claims); a run whose workers die this often is FAILED, not retried. */
  attempts?: number;
  approvals: ApprovalRow[];
  events: StoredEventRow[];
  queuedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  failedAt: Date | null;
  reviewedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Fast-job idempotency: one row per organization, actor, key and storage key (hashed into _id). */
export interface FastJobKeyRow {
  _id: string;
  jobId: string;
  createdAt: Date;
}

const counters = new Schema(
  {
    totalQuestions: { type: Number, default: 0 },
    parsedQuestions: { type: Number, default: 0 },
    pendingEquations: { type: Number, default: 0 },
    pendingImages: { type: Number, default: 0 },
    warnings: { type: Number, default: 0 },
    errors: { type: Number, default: 0 },
  },
  { _id: false, suppressReservedKeysWarning: true },
);

const jobSchema = new Schema<ImportJobRow>(
  {
    _id: { type: String, required: true },
    organizationId: { type: String, required: true },
    createdBy: { type: String, required: true },
    createdByRole: { type: String, default: null },
    ingestGrant: { type: String, default: null },
    jobKind: { type: String, required: true, enum: ['QAS', 'DOCX_FAST'] },
    source: { type: String, required: true, enum: ['UPLOAD', 'STORAGE'] },
    title: { type: String, default: null },
    fileName: { type: String, required: true },
    questionFileName: { type: String, required: true },
    status: { type: String, required: true, enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] },
    fileStatus: { type: String, required: true },
    extractionStatus: { type: String, required: true },
    parseStatus: { type: String, required: true },
    matchStatus: { type: String, required: true },
    reviewStatus: { type: String, required: true },
    progress: { type: Number, required: true, default: 0 },
    errorSummary: { type: Schema.Types.Mixed, default: null },
    run: { type: Number, required: true, default: 1 },
    autoApproveToQuestionBank: { type: Boolean, default: false },
    subjectId: { type: String, default: null },
    gradeLevel: { type: Number, default: null },
    questionStorageKey: { type: String, default: null },
    idempotencyKey: { type: String, default: null },
    counters: { type: counters, default: () => ({}) },
    packagingJson: { type: String, default: null, select: false },
    parseResultJson: { type: String, default: null, select: false },
    reviewedResultJson: { type: String, default: null, select: false },
    payloadRef: { type: Schema.Types.Mixed, default: null, select: false },
    lease: { type: Schema.Types.Mixed, default: null },
    attempts: { type: Number, default: 0 },
    approvals: { type: [Schema.Types.Mixed], default: [], select: false } as never,
    events: { type: [Schema.Types.Mixed], default: [], select: false } as never,
    queuedAt: { type: Date, required: true },
    startedAt: { type: Date, default: null },
    completedAt: { type: Date, default: null },
    failedAt: { type: Date, default: null },
    reviewedAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'import_jobs', versionKey: false },
);
jobSchema.plugin(outboxOwnerPlugin);
// Lists (organization, newest first), the teacher library (its creator), the queue counts and
// position (status, queuedAt), the live poller (updatedAt) and recovery (status).
jobSchema.index({ organizationId: 1, createdAt: -1 });
jobSchema.index({ organizationId: 1, createdBy: 1, createdAt: -1 });
jobSchema.index({ status: 1, queuedAt: 1 });
jobSchema.index({ updatedAt: 1 });
// Whose a document storage key is (storageKeyElsewhere).
jobSchema.index({ questionStorageKey: 1, organizationId: 1 });

const fastJobKeySchema = new Schema<FastJobKeyRow>(
  {
    _id: { type: String, required: true },
    jobId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'import_fast_job_keys', versionKey: false },
);

export interface JobModels {
  ImportJob: Model<ImportJobRow>;
  FastJobKey: Model<FastJobKeyRow>;
}

export function jobModels(conn: Connection): JobModels {
  return {
    ImportJob: (conn.models.ImportJob as Model<ImportJobRow> | undefined) ?? conn.model('ImportJob', jobSchema),
    FastJobKey:
      (conn.models.FastJobKey as Model<FastJobKeyRow> | undefined) ?? conn.model('FastJobKey', fastJobKeySchema),
  };
}
