// Pure: what a caller sees of an attempt. Students never see answer keys; grading fields are
// null with a hidden reason while the result policy hides them.
import type { Actor } from '../../../kit/src/core/index.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { AnswerRow, QuestionRow } from '../store/models.js';
import { redact } from '../grading/index.js';
import { resultVisibility, scorePercentOf } from './grading.js';

type Json = Record<string, unknown>;

// Snapshot members that give the answer away.
const KEY_FIELDS = ['answerKeys', 'correctAnswer', 'explanation', 'explanationJson', 'solution', 'solutionJson'];

function withoutKeys(q: QuestionRow): Json {
  const out: Json = { ...q };
  for (const f of KEY_FIELDS) delete out[f];
  if (Array.isArray(q.options)) out.options = (q.options as Json[]).map(({ isCorrect: _c, ...o }) => o);
  if (Array.isArray(q.subItems)) out.subItems = (q.subItems as Json[]).map(({ correctBoolean: _c, ...s }) => s);
  return out;
}

/** Options in this attempt's order (the snapshot's `optionOrder`). */
function ordered(q: Json): Json {
  const order = q.optionOrder as string[];
  const options = (q.options as Json[] | undefined) ?? [];
  const rank = new Map(order.map((id, i) => [id, i]));
  return {
    ...q,
    options: [...options].sort((a, b) => (rank.get(a.id as string) ?? 1e9) - (rank.get(b.id as string) ?? 1e9)),
  };
}

const hideAnswer = (a: AnswerRow): AnswerRow => ({ ...a, isCorrect: null, score: null });

export interface AttemptView extends Json {
  id: string;
  resultsVisible: boolean;
  hiddenReason: string | null;
}

export function attemptView(doc: AttemptDoc, actor: Actor, now: Date): AttemptView {
  const { _id, activeKey: _k, rev: _r, eventCount: _e, ...rest } = doc as AttemptDoc & Json;
  const vis = resultVisibility(doc, actor, now);
  const staff = actor.role === 'TEACHER' || actor.role === 'ADMIN';
  const questions = doc.questions.map((q) => ordered(staff ? { ...q } : withoutKeys(q)));
  const view: AttemptView = {
    id: _id,
    ...rest,
    questions,
    resultsVisible: vis.visible,
    hiddenReason: vis.visible ? null : vis.reason,
  };
  if (vis.visible) return view;
  Object.assign(view, { totalScore: null, correctCount: null, wrongCount: null, answers: doc.answers.map(hideAnswer) });
  return redact(view, vis.reason);
}

export function resultView(doc: AttemptDoc, actor: Actor, now: Date) {
  const attempt = attemptView(doc, actor, now);
  const scorePercent =
    attempt.resultsVisible && doc.totalScore !== null ? scorePercentOf(doc.totalScore, doc.maxScore) : null;
  return { attempt, scorePercent };
}
