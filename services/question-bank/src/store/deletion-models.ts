import { Schema, type Connection, type Model, type SchemaDefinition } from 'mongoose';

export const JOB_STATUSES = ['pending', 'running', 'completed', 'cancelled', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_PHASES = [
  'queued',
  'counting',
  'deleting',
  'interrupted',
  'completed',
  'cancelled',
  'failed',
] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

export interface JobWarning {
  code: string;
  message: string;
  batch: number | null;
  count: number;
}

/** A permanent-delete job; its row is also the lease two replicas compete for. */
export interface DeletionJobRow {
  _id: string;
  organizationId: string;
  actorId: string;
  actorRole: 'ADMIN' | 'TEACHER';
  mode: 'ids' | 'all';
  /** The distinct requested ids (mode `ids`); empty for `all`. */
  ids: string[];
  status: JobStatus;
  phase: JobPhase;
  /** null until the runner counted the rows (phase `counting`). */
  totalQuestions: number | null;
  processedQuestions: number;
  deletedCount: number;
  failedCount: number;
  skippedCount: number;
  currentBatch: number;
  batchSize: number;
  /** Where the next batch starts: the last processed question id (`all`) or an index into `ids`. */
  cursorId: string | null;
  cursorIndex: number;
  warnings: JobWarning[];
  error: { code: string; message: string } | null;
  /** Moves by one on every write: the event stream sends `job.updated` when it moved. */
  revision: number;
  /** Claims so far (a bound on resumes: a job that kills every runner ends failed). */
  attempts: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  cancelledAt: Date | null;
}

export interface DeletionModels {
  DeletionJob: Model<DeletionJobRow>;
}

const nullableString = { type: String, default: null };
const nullableDate = { type: Date, default: null };
const count = { type: Number, default: 0 };

const jobSchema = new Schema<DeletionJobRow>(
  {
    _id: { type: String, required: true },
    organizationId: { type: String, required: true },
    actorId: { type: String, required: true },
    actorRole: { type: String, required: true },
    mode: { type: String, required: true },
    ids: { type: [String], default: [] },
    status: { type: String, required: true, enum: JOB_STATUSES },
    phase: { type: String, required: true, enum: JOB_PHASES },
    totalQuestions: { type: Number, default: null },
    processedQuestions: count,
    deletedCount: count,
    failedCount: count,
    skippedCount: count,
    currentBatch: count,
    batchSize: { type: Number, required: true },
    cursorId: nullableString,
    cursorIndex: count,
    warnings: { type: [Schema.Types.Mixed], default: [] },
    error: { type: Schema.Types.Mixed, default: null },
    revision: count,
    attempts: count,
    leaseOwner: nullableString,
    leaseUntil: nullableDate,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    startedAt: nullableDate,
    finishedAt: nullableDate,
    cancelledAt: nullableDate,
  } as SchemaDefinition,
  { collection: 'question_delete_jobs', versionKey: false, timestamps: false },
);
// The runner's claim: unfinished jobs whose lease is free or lapsed, oldest first.
jobSchema.index({ status: 1, leaseUntil: 1, _id: 1 });
jobSchema.index({ organizationId: 1, actorId: 1, _id: -1 });

export function deletionModels(conn: Connection): DeletionModels {
  return {
    DeletionJob:
      (conn.models.DeletionJob as Model<DeletionJobRow> | undefined) ??
      conn.model<DeletionJobRow>('DeletionJob', jobSchema),
  };
}
