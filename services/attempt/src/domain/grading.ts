// The one place the service meets the pure grading library (src/grading).
import type { Actor } from '../../../kit/src/core/index.js';
import { gradeAttempt, maxScoreOf, scorePercent, shuffleFor, visibility, type HiddenReason } from '../grading/index.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { AnswerRow, QuestionRow } from '../store/models.js';

/** A permutation fixed by the seed (the attempt id), so a reload shows the same order. */
export const shuffled = <T>(items: readonly T[], seed: string): T[] => shuffleFor(seed, [...items]);

export interface SnapshotGrade {
  answers: Array<{ isCorrect: boolean | null; score: number; wrong: boolean }>;
  totalScore: number;
  correctCount: number;
  wrongCount: number;
}

/** Grades the attempt's own copies only; `wrong` is what wrongCount counts (WRONG and PARTIAL). */
export function gradeSnapshots(questions: readonly QuestionRow[], answers: readonly AnswerRow[]): SnapshotGrade {
  const result = gradeAttempt(questions, answers);
  return {
    answers: result.answers.map((a) => ({
      isCorrect: a.isCorrect,
      score: a.score,
      wrong: a.outcome === 'WRONG' || a.outcome === 'PARTIAL',
    })),
    totalScore: result.totalScore,
    correctCount: result.correctCount,
    wrongCount: result.wrongCount,
  };
}

/** The exact sum of the copies' points (a float sum of 30 × 0.1 would be 3.0000000000000004). */
export const maxScoreOfRows = (questions: readonly QuestionRow[]): number => maxScoreOf(questions);

/** Unrounded; null when the attempt is worth nothing (no quotient to state). */
export const scorePercentOf = (total: number, max: number): number | null =>
  max > 0 ? scorePercent(total, max) : null;

export function resultVisibility(
  doc: Pick<AttemptDoc, 'resultPolicy' | 'status'>,
  actor: Actor,
  now: Date,
): { visible: true } | { visible: false; reason: HiddenReason } {
  const policy = { ...doc.resultPolicy, status: doc.status };
  const v = visibility(policy, { role: actor.role, userId: actor.userId }, now);
  return v.visible ? { visible: true } : { visible: false, reason: v.hiddenReason };
}
