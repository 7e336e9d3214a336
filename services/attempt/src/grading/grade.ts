// Grading from the attempt's copied snapshots only.
import { keyOf, ruleOf, type Rule } from './keys.js';
import { scoreWith } from './modes.js';
import { coerceAnswer } from './normalize.js';
import type { AnswerGrade, AttemptGrade, GradableAnswer, Outcome, QuestionSnapshot } from './types.js';
import { fromUnits, mulDiv } from './units.js';

interface UnitGrade {
  isCorrect: boolean | null;
  earned: number;
  points: number;
  outcome: Outcome;
}

/** The rule's scale to the exam's points (the identity when the exam kept the rule's maxScore). */
const toPoints = (rule: Rule, raw: number) => (rule.ruleMax === 0 ? 0 : mulDiv(raw, rule.points, rule.ruleMax));

function gradeUnits(question: QuestionSnapshot, answer: GradableAnswer | null): UnitGrade {
  const rule = ruleOf(question);
  const scored = scoreWith(keyOf(question), coerceAnswer(answer), rule);
  if (scored === 'BLANK' || scored === 'UNGRADED')
    return { isCorrect: null, earned: 0, points: rule.points, outcome: scored };
  const earned = toPoints(rule, scored.raw);
  const outcome: Outcome = scored.correct ? 'CORRECT' : earned > 0 ? 'PARTIAL' : 'WRONG';
  return { isCorrect: scored.correct, earned, points: rule.points, outcome };
}

/** The attempt's maximum: the questions' points summed exactly (what gradeAttempt reports as maxScore). */
export const maxScoreOf = (questions: readonly QuestionSnapshot[]): number =>
  fromUnits(questions.reduce((sum, q) => sum + ruleOf(q).points, 0));

export function gradeAnswer(question: QuestionSnapshot, answer: GradableAnswer | null): AnswerGrade {
  const g = gradeUnits(question, answer);
  return { isCorrect: g.isCorrect, score: fromUnits(g.earned), maxScore: fromUnits(g.points), outcome: g.outcome };
}

/** The answer stored at the question's index when it is that question's, else the one naming it. */
function answerFor(questions: readonly QuestionSnapshot[], answers: readonly GradableAnswer[]) {
  const byId = new Map<string, GradableAnswer>();
  for (const a of answers) if (typeof a.questionId === 'string' && !byId.has(a.questionId)) byId.set(a.questionId, a);
  return (q: QuestionSnapshot, i: number): GradableAnswer | null => {
    const atIndex = answers[i];
    if (atIndex && (atIndex.questionId === undefined || atIndex.questionId === q.questionId)) return atIndex;
    return byId.get(q.questionId) ?? null;
  };
}

export function gradeAttempt(questions: readonly QuestionSnapshot[], answers: readonly GradableAnswer[]): AttemptGrade {
  const find = answerFor(questions, answers);
  const counts: Record<Outcome, number> = { CORRECT: 0, PARTIAL: 0, WRONG: 0, BLANK: 0, UNGRADED: 0 };
  let total = 0;
  let max = 0;
  const graded = questions.map((q, i) => {
    const g = gradeUnits(q, find(q, i));
    counts[g.outcome] += 1;
    total += g.earned;
    max += g.points;
    const { isCorrect, outcome } = g;
    return { questionId: q.questionId, isCorrect, score: fromUnits(g.earned), maxScore: fromUnits(g.points), outcome };
  });
  return {
    answers: graded,
    totalScore: fromUnits(total),
    maxScore: fromUnits(max),
    correctCount: counts.CORRECT,
    wrongCount: counts.WRONG + counts.PARTIAL,
    blankCount: counts.BLANK,
    ungradedCount: counts.UNGRADED,
  };
}
