// The idempotency records shared by AI preview drafts and solutions, and the hard-delete hook.
import { AppError } from '../../../../kit/src/core/index.js';
import {
  deleteRecordsOfQuestions,
  type AiPreviewKind,
  type AiPreviewRecordRow,
} from '../../store/ai-preview-models.js';
import type { QuestionBankDeps } from '../deps.js';
import type { Writer } from '../questions/scope.js';

export const MAX_ROUNDS = 8;

export const AI_MSG = {
  conflict: 'This previewId was already used with different content',
  busy: 'The AI preview kept changing; try again',
} as const;

export function freshRecord(
  deps: QuestionBankDeps,
  w: Writer,
  what: { kind: AiPreviewKind; previewId: string; digest: string; questionId?: string },
): AiPreviewRecordRow {
  return {
    _id: deps.newId(),
    kind: what.kind,
    organizationId: w.organizationId,
    actorId: w.userId,
    previewId: what.previewId,
    digest: what.digest,
    questionId: what.questionId ?? deps.newId(),
    versionId: deps.newId(),
    state: 'PENDING',
    createdAt: deps.clock(),
    completedAt: null,
  };
}

export function assertSameDigest(record: AiPreviewRecordRow, digest: string): void {
  if (record.digest === digest) return;
  throw new AppError('AI_PREVIEW_CONFLICT', AI_MSG.conflict, {
    details: { previewId: record.previewId, questionId: record.questionId },
  });
}

export const retryLater = () => new AppError('QUESTION_CONFLICT', AI_MSG.busy);

/**
 * Hard delete frees the previews of the removed questions: a new draft may reuse the previewId.
 * Archiving never calls this. A record left behind by a crash before this ran is found stale by
 * the next draft with its previewId (its question is gone) and dropped then.
 */
export async function forgetPreviewsOf(deps: QuestionBankDeps, questionIds: string[]): Promise<void> {
  await deleteRecordsOfQuestions(deps.models, questionIds);
}
