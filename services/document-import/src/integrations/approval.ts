import Joi from 'joi';
import { AppError, canonicalDigest } from '../../../kit/src/core/index.js';
import type { QasOutput } from '../parser/index.js';
import type { ExamClient, ExamCreate } from './exam-client.js';
import type { Scope } from './http.js';
import type { IngestResult, QuestionBankClient } from './question-bank-client.js';
import { buildSnapshots } from './snapshots.js';

export type ApprovalTarget = 'QUESTION_BANK' | 'EXAM_DRAFT';

export interface QuestionMetadata {
  subjectId?: string;
  gradeLevel?: number;
  tags?: string[];
}

/** The contract's approval body. */
export interface ApprovalRequest {
  target: ApprovalTarget;
  questionMetadata?: QuestionMetadata;
  examId?: string;
  exam?: ExamCreate;
}

const id = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);

/** The approval body as the route validates it (EXAM_DRAFT needs `examId` or `exam`, not both). */
export const approvalBodySchema = Joi.object<ApprovalRequest>({
  target: Joi.string().valid('QUESTION_BANK', 'EXAM_DRAFT').required(),
  questionMetadata: Joi.object({
    subjectId: id,
    gradeLevel: Joi.number().integer().min(1).max(12),
    tags: Joi.array().items(Joi.string().trim().min(1).max(200)).max(50),
  }),
  examId: id,
  exam: Joi.object({
    title: Joi.string().trim().min(1).max(300).required(),
    subjectId: id,
    gradeLevel: Joi.number().integer().min(1).max(12),
    durationMinutes: Joi.number().integer().min(1).max(1440),
  }),
})
  .when(Joi.object({ target: 'EXAM_DRAFT' }).unknown(), { then: Joi.object().xor('examId', 'exam') })
  .when(Joi.object({ target: 'QUESTION_BANK' }).unknown(), {
    then: Joi.object({ examId: Joi.forbidden(), exam: Joi.forbidden() }),
  });

export interface ApprovalJob {
  id: string;
  fileName?: string;
  title?: string;
  /** The payload to approve: the reviewed one when a review was saved, else the parse result. */
  output: QasOutput;
}

export interface ApprovalClients {
  questionBank: QuestionBankClient;
  /** Absent: no exam service configured; EXAM_DRAFT is then refused with 503. */
  exams?: ExamClient;
}

export interface ApprovalResult {
  target: ApprovalTarget;
  approvalKey: string;
  documentId: string;
  questionIds: string[];
  importedCount: number;
  examId?: string;
  examCreated?: boolean;
  snapshotCount?: number;
}

/** SHA-256 (hex) of target, metadata, examId and exam, key order ignored: equal requests, equal keys. */
export function approvalKey(request: ApprovalRequest): string {
  const { target, questionMetadata, examId, exam } = request;
  return canonicalDigest({ target, questionMetadata, examId, exam });
}

/** The Idempotency-Key sent upstream for one job and approval (well under the 120-character cap). */
export function upstreamIdempotencyKey(jobId: string, key: string): string {
  return `docx-import:${jobId.slice(0, 64)}:${key.slice(0, 32)}`;
}

/**
 * The question bank's ingest body. Nothing in it depends on the target or on who approves, so an
 * EXAM_DRAFT approval after a QUESTION_BANK one (same metadata) replays the same import there.
 */
export function ingestBody(job: ApprovalJob, metadata: QuestionMetadata = {}): Record<string, unknown> {
  const { document_id, latency_ms, questions, groups, warnings, stats } = job.output;
  return {
    document_id,
    latency_ms,
    questions,
    groups,
    warnings,
    stats,
    subjectId: metadata.subjectId,
    gradeLevel: metadata.gradeLevel,
    tags: metadata.tags,
    sourceFileName: job.fileName,
    sourceImportJobId: job.id,
    sourceMetadataJson: {
      source: 'document-import',
      importJobId: job.id,
      documentId: document_id,
      title: job.title ?? null,
    },
  };
}

async function ingest(job: ApprovalJob, request: ApprovalRequest, scope: Scope, qb: QuestionBankClient) {
  if (job.output.questions.length === 0)
    throw new AppError('BAD_REQUEST', 'The import job has no questions to approve');
  const key = approvalKey(request);
  const result = await qb.importDocxOutput(
    ingestBody(job, request.questionMetadata),
    scope,
    upstreamIdempotencyKey(job.id, key),
  );
  return { key, result };
}

function base(request: ApprovalRequest, key: string, result: IngestResult): ApprovalResult {
  return {
    target: request.target,
    approvalKey: key,
    documentId: result.documentId,
    questionIds: result.questionIds,
    importedCount: result.questionIds.length,
  };
}

async function examDraft(job: ApprovalJob, request: ApprovalRequest, scope: Scope, clients: ApprovalClients) {
  const exams = clients.exams;
  if (!exams) throw new AppError('DEPENDENCY_UNAVAILABLE', 'No exam service is configured');
  if (!request.examId && !request.exam) throw new AppError('VALIDATION_ERROR', 'EXAM_DRAFT needs examId or exam');
  const examKey = upstreamIdempotencyKey(job.id, approvalKey(request));
  const examId = request.examId ?? (await exams.createDraft(request.exam!, scope, examKey)).id;
  const { key, result } = await ingest(job, request, scope, clients.questionBank);
  const snapshots = buildSnapshots(job.output, result);
  await exams.putQuestionSnapshots(examId, snapshots, scope);
  return { ...base(request, key, result), examId, examCreated: !request.examId, snapshotCount: snapshots.length };
}

/**
 * Approves a parsed job. QUESTION_BANK: the output goes to the question bank's ingest with the
 * scope headers, the job id, file name and metadata, and an Idempotency-Key from the job id and
 * the approval key. EXAM_DRAFT: the draft exam is created when `exam` is given (same key, so a
 * retry does not create a second one), the output is ingested as above, then the exam's question
 * snapshots are replaced with one per imported question. Errors of a peer are 502 UPSTREAM_ERROR or
 * 503 DEPENDENCY_UNAVAILABLE with the peer's status in `details`. The caller stores the result
 * with `approval.completed` under `approvalKey(request)` and answers a retry from there.
 */
export async function approveJob(
  job: ApprovalJob,
  request: ApprovalRequest,
  scope: Scope,
  clients: ApprovalClients,
): Promise<ApprovalResult> {
  if (request.target === 'EXAM_DRAFT') return examDraft(job, request, scope, clients);
  const { key, result } = await ingest(job, request, scope, clients.questionBank);
  return base(request, key, result);
}
