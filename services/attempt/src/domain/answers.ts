import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { checkAnswerFits, normalizeAnswer, type AnswerInput } from '../grading/index.js';
import { CODES, MSG } from '../messages.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { AnswerRow } from '../store/models.js';
import { assertOwner } from './access.js';
import { MAX_EVENTS } from './events.js';
import type { AttemptDeps } from './deps.js';
import { SYSTEM, submitAttempt } from './submit.js';

export interface SaveInput {
  questionId: string;
  /** The request body: its answer fields (nested or top level) are normalized by the grading library. */
  body: unknown;
  clientVersion: number;
  sourceTabId?: string | null;
}

const MAX_ROUNDS = 200;
// Saves keep being stored past this, unrecorded: the event log must not outgrow the document.
export const MAX_SAVE_EVENTS = 4 * MAX_EVENTS;

/** The answer's index: its question's `questionId`, else the snapshot's `id`, else `examQuestionId`. */
export function answerIndex(doc: AttemptDoc, questionId: string): number {
  for (const field of ['questionId', 'id', 'examQuestionId'] as const) {
    const i = doc.questions.findIndex((q) => q[field] === questionId);
    if (i >= 0) return i;
  }
  throw new AppError(CODES.notInAttempt, MSG.notInAttempt);
}

/**
 * `clientVersion` 0 (a client that does not count) always writes; a positive one below the
 * stored `serverVersion` is stale. The new version is above both, so the newest of concurrent
 * saves is never overwritten by an older one that arrives later.
 */
export function nextVersion(stored: AnswerRow, clientVersion: number): number | 'stale' {
  if (clientVersion > 0 && clientVersion < stored.serverVersion) return 'stale';
  return Math.max(stored.serverVersion + 1, clientVersion);
}

interface RowInput {
  input: SaveInput & { answer: AnswerInput };
  version: number;
  now: Date;
}

function answerRow(doc: AttemptDoc, i: number, { input, version, now }: RowInput): AnswerRow {
  const stored = doc.answers[i]!;
  return {
    questionId: doc.questions[i]!.questionId,
    selectedOptionIds: input.answer.selectedOptionIds,
    statementAnswers: input.answer.statementAnswers,
    textAnswer: input.answer.textAnswer,
    clientVersion: input.clientVersion,
    serverVersion: version,
    sourceTabId: input.sourceTabId ?? stored.sourceTabId ?? null,
    savedAt: now,
    isCorrect: null,
    score: null,
  };
}

async function expire(deps: AttemptDeps, doc: AttemptDoc): Promise<never> {
  await submitAttempt(deps, doc._id, { source: 'TIMEOUT', by: SYSTEM });
  throw new AppError(CODES.expired, MSG.expired);
}

/**
 * One compare-and-set per round on (IN_PROGRESS, this answer's serverVersion, before the
 * deadline): a save never lands after the submit flipped the status, and a lost race re-reads.
 */
export async function saveAnswer(
  deps: AttemptDeps,
  actor: Actor,
  attemptId: string,
  input: SaveInput,
): Promise<AttemptDoc> {
  let answer: AnswerInput | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const doc = assertOwner(actor, await deps.store.byId(attemptId));
    if (doc.status !== 'IN_PROGRESS') throw new AppError(CODES.locked, MSG.locked);
    answer ??= normalizeAnswer(input.body);
    const i = answerIndex(doc, input.questionId);
    checkAnswerFits(doc.questions[i]!, answer);
    const now = deps.clock();
    if (doc.deadlineAt && doc.deadlineAt <= now) return expire(deps, doc);
    const stored = doc.answers[i]!;
    const version = nextVersion(stored, input.clientVersion);
    if (version === 'stale') {
      throw new AppError(CODES.versionConflict, MSG.versionConflict, { details: { answer: stored } });
    }
    const row = answerRow(doc, i, { input: { ...input, answer }, version, now });
    const event = { id: deps.newId(), type: 'SAVE_ANSWER', createdAt: now, metadata: saveMeta(row) };
    // Past MAX_SAVE_EVENTS saves are still stored, unrecorded.
    const recorded = doc.eventCount < MAX_SAVE_EVENTS ? event : null;
    const save = { attemptId, index: i, expectedVersion: stored.serverVersion, now, row, event: recorded };
    // The write changes exactly what the save names, so the answer is the read document with that
    // change applied: a save never ships the whole attempt back from the database.
    if (await deps.store.setAnswer(save)) return afterSave(doc, i, row, recorded !== null);
  }
  throw new AppError(CODES.busy, MSG.busy);
}

function afterSave(doc: AttemptDoc, i: number, row: AnswerRow, recorded: boolean): AttemptDoc {
  const answers = doc.answers.map((a, j) => (j === i ? row : a));
  const eventCount = doc.eventCount + (recorded ? 1 : 0);
  return { ...doc, answers, updatedAt: row.savedAt!, rev: doc.rev + 1, eventCount };
}

const saveMeta = (a: AnswerRow) => ({
  questionId: a.questionId,
  serverVersion: a.serverVersion,
  clientVersion: a.clientVersion,
  sourceTabId: a.sourceTabId,
});
