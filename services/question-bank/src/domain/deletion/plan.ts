// Pure: the rules of permanent-delete jobs (sizes, progress, status transitions, the snapshot).
import type { DeletionJobRow, JobStatus, JobWarning } from '../../store/deletion-models.js';
import type { Writer } from '../questions/scope.js';

/** Rows per job batch: one progress write (and one `job.updated` event) per batch. */
export const JOB_BATCH_SIZE = 100;
/** Removals of one batch running at once (each is a few single-document writes). */
export const JOB_CONCURRENCY = 4;
export const MAX_SYNC_IDS = 100;
export const MAX_JOB_IDS = 5000;
/** Claims before a job that keeps stopping its runner (a crash each time) ends `failed`. */
export const MAX_JOB_ATTEMPTS = 5;
export const MAX_WARNINGS = 50;

export const TERMINAL: readonly JobStatus[] = ['completed', 'cancelled', 'failed'];
export const CANCELLABLE: JobStatus[] = ['pending', 'running'];

export const isTerminal = (status: JobStatus): boolean => TERMINAL.includes(status);

/** Whole percent, never above 100; 100 only once the job completed. */
export function progressPercent(job: Pick<DeletionJobRow, 'status' | 'totalQuestions' | 'processedQuestions'>): number {
  if (job.status === 'completed') return 100;
  const total = job.totalQuestions ?? 0;
  if (total <= 0) return 0;
  return Math.min(99, Math.floor((job.processedQuestions * 100) / total));
}

export const totalBatches = (total: number | null, size: number): number | null =>
  total === null ? null : Math.ceil(total / size);

/** The ids of the next batch of an `ids` job, from its cursor. */
export const nextIdBatch = (ids: readonly string[], cursorIndex: number, size: number): string[] =>
  ids.slice(cursorIndex, cursorIndex + size);

export const distinct = (ids: readonly string[]): string[] => [...new Set(ids)];

export function batchWarnings(batch: number, counts: { skipped: number; failed: number }): JobWarning[] {
  const out: JobWarning[] = [];
  if (counts.skipped > 0)
    out.push({
      code: 'QUESTIONS_SKIPPED',
      message: `${counts.skipped} requested question(s) were not archived, not in this scope or already removed`,
      batch,
      count: counts.skipped,
    });
  if (counts.failed > 0)
    out.push({
      code: 'QUESTIONS_FAILED',
      message: `${counts.failed} question(s) could not be removed (they kept changing)`,
      batch,
      count: counts.failed,
    });
  return out;
}

export const resumedWarning = (attempt: number, batch: number): JobWarning => ({
  code: 'JOB_RESUMED',
  message: `the job was interrupted (service stopped or lease lapsed) and resumed, claim ${attempt}; rows an interrupted run removed after its last recorded batch are not counted`,
  batch,
  count: 1,
});

export interface NewJobInput {
  mode: 'ids' | 'all';
  ids?: string[];
}

export function newJobRow(w: Writer, input: NewJobInput, at: { id: string; now: Date }): DeletionJobRow {
  const ids = input.mode === 'ids' ? distinct(input.ids ?? []) : [];
  return {
    _id: at.id,
    organizationId: w.organizationId,
    actorId: w.userId,
    actorRole: w.role,
    mode: input.mode,
    ids,
    status: 'pending',
    phase: 'queued',
    totalQuestions: input.mode === 'ids' ? ids.length : null,
    processedQuestions: 0,
    deletedCount: 0,
    failedCount: 0,
    skippedCount: 0,
    currentBatch: 0,
    batchSize: JOB_BATCH_SIZE,
    cursorId: null,
    cursorIndex: 0,
    warnings: [],
    error: null,
    revision: 1,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    createdAt: at.now,
    updatedAt: at.now,
    startedAt: null,
    finishedAt: null,
    cancelledAt: null,
  };
}

export interface JobView {
  id: string;
  status: JobStatus;
  phase: string;
  mode: 'ids' | 'all';
  totalQuestions: number | null;
  processedQuestions: number;
  deletedCount: number;
  failedCount: number;
  skippedCount: number;
  currentBatch: number;
  totalBatches: number | null;
  batchSize: number;
  progressPercent: number;
  warnings: JobWarning[];
  error?: { code: string; message: string };
  revision: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The snapshot every job route and event carries (never the lease or the id list). */
export function jobView(row: DeletionJobRow): JobView {
  return {
    id: row._id,
    status: row.status,
    phase: row.phase,
    mode: row.mode,
    totalQuestions: row.totalQuestions,
    processedQuestions: row.processedQuestions,
    deletedCount: row.deletedCount,
    failedCount: row.failedCount,
    skippedCount: row.skippedCount,
    currentBatch: row.currentBatch,
    totalBatches: totalBatches(row.totalQuestions, row.batchSize),
    batchSize: row.batchSize,
    progressPercent: progressPercent(row),
    warnings: row.warnings,
    ...(row.error ? { error: row.error } : {}),
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    cancelledAt: iso(row.cancelledAt),
  };
}

/** The writer a job acts as, rebuilt from its row (a resumed job keeps its creator's scope). */
export const writerOfJob = (row: DeletionJobRow): Writer => ({
  userId: row.actorId,
  role: row.actorRole,
  organizationId: row.organizationId,
});
