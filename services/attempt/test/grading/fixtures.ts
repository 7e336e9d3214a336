// Question snapshots in the shapes the question bank's blueprint selection returns.
import type { QuestionSnapshot } from '../../src/grading/index.js';

type Json = Record<string, unknown>;

let seq = 0;
const nextId = () => `q-${(seq += 1)}`;

export function choice(correct: string[], over: Json = {}, labels = ['a', 'b', 'c', 'd']): QuestionSnapshot {
  const options = labels.map((id, i) => ({
    id,
    label: 'ABCD'[i],
    content: `option ${id}`,
    isCorrect: correct.includes(id),
  }));
  return {
    questionId: nextId(),
    type: correct.length > 1 ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE',
    options,
    optionOrder: options.map((o) => o.id),
    answerKeys: { correctOptionIds: correct, correctLabels: options.filter((o) => o.isCorrect).map((o) => o.label) },
    subItems: null,
    scoringRule: { mode: 'EXACT', maxScore: 1 },
    ...over,
  };
}

/** A statements question; `key` is the correct booleans for A, B, C, D (or fewer). */
export function statements(key: boolean[], over: Json = {}): QuestionSnapshot {
  return {
    questionId: nextId(),
    type: 'TRUE_FALSE_GROUP',
    options: [],
    answerKeys: null,
    subItems: key.map((b, i) => ({ label: 'ABCD'[i], content: `statement ${i}`, correctBoolean: b })),
    scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 },
    ...over,
  };
}

export function short(accepted: string[], over: Json = {}): QuestionSnapshot {
  return {
    questionId: nextId(),
    type: 'SHORT_ANSWER',
    options: [],
    subItems: null,
    answerKeys: { acceptedAnswers: accepted },
    scoringRule: { mode: 'EXACT', maxScore: 1 },
    ...over,
  };
}

/** The four booleans of a 4-bit pattern, A the high bit. */
export const bits = (mask: number): boolean[] => [8, 4, 2, 1].map((b) => (mask & b) !== 0);

/** An answer body with statement answers `{ label, value }`. */
export const tf = (values: Array<boolean | null>) => ({
  statementAnswers: values.map((value, i) => ({ label: 'ABCD'[i]!, value })),
});
