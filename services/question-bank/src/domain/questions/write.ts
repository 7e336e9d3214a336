import { AppError } from '../../../../kit/src/core/index.js';
import { isDuplicateKey, type OutboxUnit } from '../../../../kit/src/data/index.js';
import { searchProjectionChanged, SEARCH_TOPIC } from '../../events.js';
import { VERSION_BODY_FIELDS, type QuestionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { canonical, normalizeTags, patchedBody, type QuestionInput } from './body.js';
import { upsertChange, type ProjectionChange } from './projection.js';
import { assertOwnRefs } from './refs.js';
import { assertPublishable, newQuestionRow, tokensOf, versionOf } from './rows.js';
import { notFound, writeFilter, type Writer } from './scope.js';

const MAX_CAS_ROUNDS = 8;
// A writer moves the question within milliseconds of inserting its version; a version that has
// held the next number this long belongs to a writer that crashed in between, and would
// otherwise block every later write of the question.
const ABANDONED_VERSION_MS = 60_000;

/** The outbox stamp of one change of a question (its own document carries it). */
export function stampFor(deps: QuestionBankDeps, unit: OutboxUnit, change: ProjectionChange) {
  return unit.enqueue({
    topic: SEARCH_TOPIC,
    event: searchProjectionChanged(change, deps.clock()),
    owner: deps.models.Question,
    ownerId: change.questionId,
  });
}

export async function createQuestion(deps: QuestionBankDeps, w: Writer, input: QuestionInput): Promise<QuestionRow> {
  const row = newQuestionRow(input, w, { newId: deps.newId, now: deps.clock() });
  await assertOwnRefs(deps, w, input);
  await store.insertVersion(deps.models, versionOf(row, w, row.createdAt));
  try {
    await deps.outbox.transaction(async (unit, session) => {
      await store.insertQuestion(deps.models, row, stampFor(deps, unit, upsertChange(row)), session);
    });
  } catch (err) {
    await store.deleteVersion(deps.models, row.currentVersionId!).catch(() => undefined);
    throw err;
  }
  return row;
}

const BODY_KEYS = new Set<string>(VERSION_BODY_FIELDS);

function mergedRow(deps: QuestionBankDeps, current: QuestionRow, input: QuestionInput): QuestionRow {
  const body = patchedBody(current, input, deps.newId);
  const scalars = Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => !BODY_KEYS.has(k) && k !== 'tags')
      .map(([k, v]) => [k, v === '' ? null : v]),
  );
  const now = deps.clock();
  const next = {
    ...current,
    ...body,
    // After body: patchedBody copies whatever it is given, including the current scalars.
    ...scalars,
    tags: input.tags !== undefined ? normalizeTags(input.tags) : current.tags,
    currentVersionId: deps.newId(),
    versionNumber: current.versionNumber + 1,
    searchVersion: current.searchVersion + 1,
    updatedAt: now > current.updatedAt ? now : new Date(current.updatedAt.getTime() + 1),
  } as QuestionRow;
  next.searchTokens = tokensOf(next);
  assertPublishable(next, body);
  return next;
}

async function tryUpdate(deps: QuestionBankDeps, w: Writer, current: QuestionRow, input: QuestionInput) {
  const next = mergedRow(deps, current, input);
  try {
    await store.insertVersion(deps.models, versionOf(next, w, next.updatedAt));
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Another writer took this version number: read again (after clearing it if it was abandoned).
    const cutoff = new Date(deps.clock().getTime() - ABANDONED_VERSION_MS);
    await store.deleteAbandonedVersion(
      deps.models,
      { questionId: current._id, versionNumber: next.versionNumber },
      cutoff,
    );
    return null;
  }
  const { _id: _ignored, createdAt: _c, ...set } = next;
  const wrote = await deps.outbox
    .transaction((unit, session) =>
      store.casUpdateQuestion(
        deps.models,
        { id: current._id, expected: current.searchVersion },
        { set, stamp: stampFor(deps, unit, upsertChange(next)) },
        session,
      ),
    )
    .catch(async (err: unknown) => {
      await store.deleteVersion(deps.models, next.currentVersionId!).catch(() => undefined);
      throw err;
    });
  if (wrote) return next;
  await store.deleteVersion(deps.models, next.currentVersionId!);
  return null;
}

/** PATCH: a new version, `currentVersionId` moved, one search event; concurrent writers retry. */
export async function updateQuestion(
  deps: QuestionBankDeps,
  w: Writer,
  id: string,
  raw: QuestionInput,
): Promise<QuestionRow> {
  const input = canonical(raw);
  for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
    const current = await store.findQuestion(deps.models, { ...writeFilter(w), _id: id });
    if (!current) throw notFound(id);
    if (round === 0) await assertOwnRefs(deps, w, input);
    const next = await tryUpdate(deps, w, current, input);
    if (next) return next;
  }
  throw new AppError('QUESTION_CONFLICT', 'The question kept changing; try again');
}
