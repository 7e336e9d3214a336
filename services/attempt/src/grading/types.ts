import { AppError } from '../../../kit/src/core/index.js';

type Json = Record<string, unknown>;

/**
 * A question snapshot as the attempt stores it (the question bank's selection result, copied at
 * start). Only `questionId` is required by the type: every other member is read defensively at
 * grading time, because a snapshot is data from another service, and a missing or odd key makes
 * the question ungradable (isCorrect null, score 0) instead of failing the submit.
 *
 * Read members: `type`, `score` (the exam's points for the question), `options[] { id, label,
 * isCorrect }`, `subItems[] { label, correctBoolean }`, `answerKeys { correctOptionIds,
 * correctLabels, acceptedAnswers, tolerance }`, `scoringRule { mode, maxScore, incorrectPenalty,
 * minScore, tolerance }`.
 */
export interface QuestionSnapshot extends Json {
  questionId: string;
}

/** One true/false statement's answer: the sub-item's label (`A`..`D`) and the student's value. */
export interface StatementAnswer {
  label: string;
  value: boolean | null;
}

/** A normalized answer (what `normalizeAnswer` returns and the store keeps). */
export interface AnswerInput {
  questionId?: string;
  selectedOptionIds: string[];
  statementAnswers: StatementAnswer[];
  textAnswer: string | null;
}

/**
 * What the graders accept: a stored answer row (statementAnswers typed `unknown[]` there) or an
 * AnswerInput. Members of the wrong shape read as not answered; normalizeAnswer is the gate that
 * rejects them at save time.
 */
export interface GradableAnswer {
  questionId?: string;
  selectedOptionIds?: unknown;
  statementAnswers?: unknown;
  textAnswer?: unknown;
}

/** CORRECT: full marks. PARTIAL: some credit, not full. WRONG: answered, no credit (or a penalty).
 * BLANK: nothing answered. UNGRADED: no usable key (essay, passage, missing key). */
export type Outcome = 'CORRECT' | 'PARTIAL' | 'WRONG' | 'BLANK' | 'UNGRADED';

export interface AnswerGrade {
  /** true only for full marks; false for partial credit and wrong answers; null for BLANK/UNGRADED. */
  isCorrect: boolean | null;
  /** Points earned, an exact decimal with at most 4 fractional digits; negative only via minScore. */
  score: number;
  /** The question's points (the denominator of scorePercent). */
  maxScore: number;
  outcome: Outcome;
}

export interface AttemptGrade {
  answers: Array<{ questionId: string; isCorrect: boolean | null; score: number; maxScore: number; outcome: Outcome }>;
  totalScore: number;
  maxScore: number;
  /** Answers with full marks. */
  correctCount: number;
  /** Answered questions without full marks (WRONG and PARTIAL). Blank and ungraded are in neither count. */
  wrongCount: number;
  blankCount: number;
  ungradedCount: number;
}

export type ShowResultMode = 'IMMEDIATE' | 'AFTER_CLOSE' | 'MANUAL';

export interface ResultPolicyInput {
  showResultMode: ShowResultMode | string | null | undefined;
  closeTime: Date | string | null | undefined;
  resultsReleasedAt: Date | string | null | undefined;
  /** The attempt's status (IN_PROGRESS, GRADED). */
  status: string;
}

export interface VisibilityActor {
  role?: string;
  userId?: string;
}

export type HiddenReason = 'ATTEMPT_IN_PROGRESS' | 'RESULTS_AFTER_CLOSE' | 'RESULTS_NOT_RELEASED' | 'ROLE_NOT_ALLOWED';

export type Visibility = { visible: true } | { visible: false; hiddenReason: HiddenReason };

/** A malformed answer body: 400 VALIDATION_ERROR with `details[] { path, message }`. */
export class AnswerFormatError extends AppError {
  constructor(details: Array<{ path: string; message: string }>) {
    const first = details[0];
    const message =
      details.length === 1 && first ? `Invalid answer: ${first.message}` : `Invalid answer: ${details.length} fields`;
    super('VALIDATION_ERROR', message, { details });
    this.name = 'AnswerFormatError';
  }
}
