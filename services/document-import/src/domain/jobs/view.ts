// Pure mappings: a stored job row to the summary and detail shapes, the per-state status fields,
// and the counters of a parse output.
import type { ApprovalRow, ImportJobRow } from '../../store/job-models.js';
import type { JobCounters, JobDetail, JobStatus, JobSummary, QueueInfo, StoredApproval } from './types.js';

/** The sub-statuses each job state shows (the contract names the fields, not their values). */
export function stateFields(status: JobStatus) {
  switch (status) {
    case 'PENDING':
      return {
        fileStatus: 'SPOOLED',
        extractionStatus: 'PENDING',
        parseStatus: 'PENDING',
        matchStatus: 'PENDING',
        progress: 0,
      };
    case 'PROCESSING':
      return {
        fileStatus: 'SPOOLED',
        extractionStatus: 'PROCESSING',
        parseStatus: 'PROCESSING',
        matchStatus: 'PENDING',
        progress: 10,
      };
    case 'COMPLETED':
      return {
        fileStatus: 'RELEASED',
        extractionStatus: 'COMPLETED',
        parseStatus: 'COMPLETED',
        matchStatus: 'COMPLETED',
        progress: 100,
      };
    case 'FAILED':
      return {
        fileStatus: 'RELEASED',
        extractionStatus: 'FAILED',
        parseStatus: 'FAILED',
        matchStatus: 'SKIPPED',
        progress: 100,
      };
  }
}

/** The reviewStatus values of each step. */
export const REVIEW = {
  none: 'NOT_READY',
  ready: 'PENDING_REVIEW',
  reviewed: 'REVIEWED',
  approved: 'APPROVED',
} as const;

/** The counters of a job with no output yet. */
export const ZERO_COUNTERS: JobCounters = Object.freeze({
  totalQuestions: 0,
  parsedQuestions: 0,
  pendingEquations: 0,
  pendingImages: 0,
  warnings: 0,
  errors: 0,
});

type Item = Record<string, unknown>;

function list(value: unknown): Item[] {
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === 'object') as Item[]) : [];
}

function isPendingImage(m: Item): boolean {
  return m.kind !== 'equation_object' && (m.media_asset_id === null || m.media_asset_id === undefined);
}

/**
 * Counters of a QAS output: parsed = questions no warning names; pending equations = MathType/OLE
 * equation objects kept as media; pending images = pictures not materialized (no media asset id);
 * errors = warnings that name a question (each needs a reviewer's look).
 */
export function countersOf(output: Item): JobCounters {
  const questions = list(output.questions);
  const warnings = list(output.warnings);
  const flagged = new Set<unknown>(warnings.map((w) => w.question_id).filter((id) => typeof id === 'string'));
  const media = questions.flatMap((q) => list(q.media));
  return {
    totalQuestions: questions.length,
    parsedQuestions: questions.filter((q) => !flagged.has(q.id)).length,
    pendingEquations: media.filter((m) => m.kind === 'equation_object').length,
    pendingImages: media.filter(isPendingImage).length,
    warnings: warnings.length,
    errors: warnings.filter((w) => typeof w.question_id === 'string').length,
  };
}

/** The distinct warning codes of an output (code-shaped ones only), for job.completed. */
export function warningCodesOf(output: Item): string[] {
  return [...new Set(list(output.warnings).map((w) => String(w.code)))].filter((c) => /^[A-Z][A-Z0-9_]*$/.test(c));
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A row as the summary shape (dates as ISO text, the queue when given). */
export function toSummary(row: ImportJobRow, queue?: QueueInfo): JobSummary {
  const summary: JobSummary = {
    id: row._id,
    jobKind: row.jobKind,
    source: row.source,
    title: row.title ?? null,
    questionFileName: row.questionFileName,
    fileName: row.fileName,
    status: row.status,
    fileStatus: row.fileStatus,
    extractionStatus: row.extractionStatus,
    parseStatus: row.parseStatus,
    matchStatus: row.matchStatus,
    reviewStatus: row.reviewStatus,
    progress: row.progress,
    errorSummary: row.errorSummary ?? null,
    organizationId: row.organizationId,
    createdBy: row.createdBy,
    run: row.run,
    autoApproveToQuestionBank: row.autoApproveToQuestionBank,
    subjectId: row.subjectId ?? null,
    gradeLevel: row.gradeLevel ?? null,
    questionStorageKey: row.questionStorageKey ?? null,
    counters: { ...ZERO_COUNTERS, ...row.counters },
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    queuedAt: iso(row.queuedAt)!,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    failedAt: iso(row.failedAt),
    reviewedAt: iso(row.reviewedAt),
  };
  if (queue) summary.queue = queue;
  return summary;
}

/** A stored JSON text as an object; null for none. */
export function parseJson(text: string | null | undefined): Record<string, unknown> | null {
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

/** A stored approval row as the answer shape. */
export function toApproval(a: ApprovalRow): StoredApproval {
  return {
    approvalKey: a.approvalKey,
    target: a.target,
    auto: a.auto,
    questionIds: a.questionIds,
    examId: a.examId,
    documentId: a.documentId,
    result: JSON.parse(a.result) as unknown,
    at: new Date(a.at).toISOString(),
  };
}

/** A row as the detail shape (the reviewed result, when saved, as parseResultJson). */
export function toDetail(row: ImportJobRow, queue?: QueueInfo): JobDetail {
  const original = parseJson(row.parseResultJson);
  return {
    ...toSummary(row, queue),
    packagingJson: parseJson(row.packagingJson),
    parseResultJson: parseJson(row.reviewedResultJson) ?? original,
    originalParseResultJson: original,
    approvals: (row.approvals ?? []).map(toApproval),
  };
}

/** The queue object from the global counts and the job's place (pure). */
export function queueInfo(
  job: { status: JobStatus },
  counts: { waiting: number; active: number; ahead: number; workerConcurrency: number },
): QueueInfo | undefined {
  if (job.status !== 'PENDING' && job.status !== 'PROCESSING') return undefined;
  const waitingNow = job.status === 'PENDING';
  return {
    status: waitingNow ? 'WAITING' : 'ACTIVE',
    waiting: counts.waiting,
    active: counts.active,
    totalPending: counts.waiting + counts.active,
    waitingPosition: waitingNow ? counts.ahead + 1 : 0,
    jobsAhead: waitingNow ? counts.ahead : 0,
    workerConcurrency: counts.workerConcurrency,
  };
}
