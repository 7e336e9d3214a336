import { isDuplicateKey } from '../../../../kit/src/data/index.js';
import {
  claimRecord,
  findRecord,
  markRecordDone,
  type AiPreviewRecordRow,
  type RecordKey,
} from '../../store/ai-preview-models.js';
import {
  VERSION_BODY_FIELDS,
  type QuestionBody,
  type QuestionRow,
  type QuestionVersionRow,
} from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { upsertChange } from '../questions/projection.js';
import { assertPublishable, tokensOf, versionOf } from '../questions/rows.js';
import { notFound, writeFilter, type Writer } from '../questions/scope.js';
import { stampFor } from '../questions/write.js';
import { digestOf } from './digest.js';
import { assertSameDigest, freshRecord, MAX_ROUNDS, retryLater } from './records.js';
import { solvedBody, type SolutionInput } from './solution-body.js';

// Tenant and owner scope as for PATCH: another teacher's or organization's question is not found.
async function scopedQuestion(deps: QuestionBankDeps, w: Writer, id: string): Promise<QuestionRow> {
  const row = await store.findQuestion(deps.models, { ...writeFilter(w), _id: id });
  if (!row) throw notFound(id);
  return row;
}

/** Pure: the row after moving to `version` (status, source and provenance untouched). */
export function rowAtVersion(current: QuestionRow, version: QuestionVersionRow, now: Date): QuestionRow {
  const body = Object.fromEntries(VERSION_BODY_FIELDS.map((f) => [f, version[f]])) as unknown as QuestionBody;
  const next: QuestionRow = {
    ...current,
    ...body,
    currentVersionId: version._id,
    versionNumber: version.versionNumber,
    searchVersion: current.searchVersion + 1,
    updatedAt: now > current.updatedAt ? now : new Date(current.updatedAt.getTime() + 1),
  };
  next.searchTokens = tokensOf(next);
  return next;
}

/** The solved version, numbered after the current one, with the record's version id. */
function solvedVersion(w: Writer, q: QuestionRow, ctx: Ctx, now: Date) {
  const body = solvedBody(q, ctx.input);
  assertPublishable(q, body);
  const next = { ...q, ...body, currentVersionId: ctx.record.versionId, versionNumber: q.versionNumber + 1 };
  return versionOf(next, w, now);
}

async function insertSolvedVersion(deps: QuestionBankDeps, w: Writer, q: QuestionRow, ctx: Ctx) {
  const version = solvedVersion(w, q, ctx, deps.clock());
  try {
    await store.insertVersion(deps.models, version);
    return version;
  } catch (err) {
    // Our own twin (same id) or a PATCH that took this number: read again.
    if (isDuplicateKey(err)) return null;
    throw err;
  }
}

async function moveTo(deps: QuestionBankDeps, q: QuestionRow, version: QuestionVersionRow): Promise<boolean> {
  const next = rowAtVersion(q, version, deps.clock());
  const { _id: _i, createdAt: _c, ...set } = next;
  return deps.outbox.transaction((unit, session) =>
    store.casUpdateQuestion(
      deps.models,
      { id: q._id, expected: q.searchVersion },
      { set, stamp: stampFor(deps, unit, upsertChange(next)) },
      session,
    ),
  );
}

interface Ctx {
  record: AiPreviewRecordRow;
  input: SolutionInput;
}

/**
 * Idempotent: the record's version is applied once. A version there but not yet current (a crash
 * between the two writes) is moved to; one already reached (its number at or below the question's)
 * was applied, since the unique (questionId, versionNumber) index lets no other version take it.
 */
async function ensureApplied(deps: QuestionBankDeps, w: Writer, ctx: Ctx): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const q = await scopedQuestion(deps, w, ctx.record.questionId);
    const found = await store.findVersion(deps.models, ctx.record.versionId);
    if (found && found.versionNumber <= q.versionNumber) return;
    const version = found ?? (await insertSolvedVersion(deps, w, q, ctx));
    if (version?.versionNumber === q.versionNumber + 1 && (await moveTo(deps, q, version))) return;
  }
  throw retryLater();
}

export interface SolutionResult {
  questionId: string;
  replayed: boolean;
}

export const solutionDigest = (input: SolutionInput) =>
  digestOf({
    questionId: input.questionId,
    provider: input.provider ?? null,
    model: input.model ?? null,
    solution: input.solution,
  });

async function finish(deps: QuestionBankDeps, w: Writer, ctx: Ctx): Promise<SolutionResult> {
  await ensureApplied(deps, w, ctx);
  await markRecordDone(deps.models, ctx.record._id, deps.clock());
  return { questionId: ctx.record.questionId, replayed: false };
}

/** Scope first (nothing is written for a question the writer may not change), then the record, then the version. */
export async function applyAiPreviewSolution(
  deps: QuestionBankDeps,
  w: Writer,
  input: SolutionInput,
): Promise<SolutionResult> {
  const digest = solutionDigest(input);
  const key: RecordKey = {
    organizationId: w.organizationId,
    actorId: w.userId,
    kind: 'SOLUTION',
    previewId: input.previewId,
  };
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const q = await scopedQuestion(deps, w, input.questionId);
    const existing = await findRecord(deps.models, key);
    if (existing) {
      assertSameDigest(existing, digest);
      if (existing.state === 'DONE') return { questionId: existing.questionId, replayed: true };
      return finish(deps, w, { record: existing, input });
    }
    assertPublishable(q, solvedBody(q, input));
    const fresh = freshRecord(deps, w, { kind: 'SOLUTION', previewId: input.previewId, digest, questionId: q._id });
    const { inserted } = await claimRecord(deps.models, fresh);
    if (inserted) return finish(deps, w, { record: fresh, input });
  }
  throw retryLater();
}
