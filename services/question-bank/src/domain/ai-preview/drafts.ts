import { isDuplicateKey } from '../../../../kit/src/data/index.js';
import { claimRecord, deleteRecord, markRecordDone, type AiPreviewRecordRow } from '../../store/ai-preview-models.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { canonical, type QuestionInput } from '../questions/body.js';
import { upsertChange } from '../questions/projection.js';
import { assertOwnRefs } from '../questions/refs.js';
import { newQuestionRow, versionOf } from '../questions/rows.js';
import type { Writer } from '../questions/scope.js';
import { stampFor } from '../questions/write.js';
import { digestOf, seededIds } from './digest.js';
import { assertSameDigest, freshRecord, MAX_ROUNDS, retryLater } from './records.js';

export const AI_PREVIEW_SOURCE = 'AI preview';

export interface DraftInput extends QuestionInput {
  previewId: string;
  provider?: string;
  model?: string;
  generationMode?: string;
  sourceMetadata?: Record<string, unknown> | null;
}

export interface Draft {
  question: QuestionInput;
  digest: string;
}

/** Pure: the forced draft fields, the provenance under `sourceMetadataJson.aiPreview`, and the replay digest. */
export function draftOf(input: DraftInput): Draft {
  const { previewId, provider, model, generationMode, sourceMetadata, ...fields } = input;
  const reviewed = canonical(fields);
  const aiPreview = {
    previewId,
    provider: provider ?? null,
    model: model ?? null,
    generationMode: generationMode ?? null,
    sourceMetadata: sourceMetadata ?? null,
  };
  const question: QuestionInput = {
    ...reviewed,
    status: 'DRAFT',
    source: AI_PREVIEW_SOURCE,
    sourceType: 'AI_GENERATED',
    sourceMetadataJson: { aiPreview },
  };
  return { question, digest: digestOf({ reviewed, aiPreview }) };
}

/** Pure: the record's draft row; the same record and payload always give the same document. */
export function draftRow(w: Writer, record: AiPreviewRecordRow, question: QuestionInput): QuestionRow {
  const row = newQuestionRow(question, w, { newId: seededIds(record.questionId), now: record.createdAt });
  return { ...row, _id: record.questionId, currentVersionId: record.versionId };
}

type Outcome = 'created' | 'existing' | 'stale';

async function writeDraft(deps: QuestionBankDeps, w: Writer, record: AiPreviewRecordRow, draft: Draft) {
  const row = draftRow(w, record, draft.question);
  try {
    await store.insertVersion(deps.models, versionOf(row, w, row.createdAt));
  } catch (err) {
    // A retry of a half-written draft: the version there is this very version.
    if (!isDuplicateKey(err)) throw err;
  }
  try {
    await deps.outbox.transaction((unit, session) =>
      store.insertQuestion(deps.models, row, stampFor(deps, unit, upsertChange(row)), session),
    );
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return 'existing' as const;
  }
  return 'created' as const;
}

// A record whose question was removed (or was finished and is gone) is stale: its previewId is free.
async function settle(deps: QuestionBankDeps, w: Writer, record: AiPreviewRecordRow, draft: Draft): Promise<Outcome> {
  const question = await store.findQuestion(deps.models, { _id: record.questionId });
  if (question?.removedAt || (!question && record.state === 'DONE')) return 'stale';
  assertSameDigest(record, draft.digest);
  return question ? 'existing' : writeDraft(deps, w, record, draft);
}

export interface DraftResult {
  questionId: string;
  created: boolean;
}

/**
 * Record first (with the question and version ids it will write), then the version, then the
 * question with its search event: a crash anywhere leaves a record that a retry finishes.
 */
export async function createAiPreviewDraft(deps: QuestionBankDeps, w: Writer, input: DraftInput): Promise<DraftResult> {
  const draft = draftOf(input);
  await assertOwnRefs(deps, w, draft.question);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const fresh = freshRecord(deps, w, { kind: 'DRAFT', previewId: input.previewId, digest: draft.digest });
    const { record, inserted } = await claimRecord(deps.models, fresh);
    if (!record) continue;
    const outcome = inserted ? await writeDraft(deps, w, record, draft) : await settle(deps, w, record, draft);
    if (outcome === 'stale') {
      await deleteRecord(deps.models, record._id);
      continue;
    }
    await markRecordDone(deps.models, record._id, deps.clock());
    return { questionId: record.questionId, created: outcome === 'created' };
  }
  throw retryLater();
}
