// The attempt's grading and result rules, as pure functions (no I/O, no clock: `now` is passed in).
//
// Surface:
// - normalizeAnswer(body) -> AnswerInput. The answer fields nested (`answer { selectedOptionIds,
//   statementAnswers, textAnswer }`) or at the top level (nested wins per field). Throws
//   AnswerFormatError (VALIDATION_ERROR, 400) on a malformed shape. See normalize.ts for the variants.
// - checkAnswerFits(question, answer): throws AnswerFormatError when the answer names an option id
//   or a statement label the question does not have (call at save time).
// - gradeAnswer(question, answer | null) -> { isCorrect, score, maxScore, outcome }.
// - gradeAttempt(questions, answers) -> per-answer grades in question order and the totals.
// - maxScoreOf(questions) -> the exact sum of the questions' points (store it as the attempt's
//   maxScore at start: a float reduce of 30 × 0.1 is 3.0000000000000004).
// - scorePercent(totalScore, maxScore) -> number | null, unrounded.
// - visibility(policy, actor, now) -> { visible } | { visible: false, hiddenReason }.
// - redact(detail, hiddenReason) -> the detail with grading fields null and `hiddenReason` set.
// - shuffleFor(seed, items) -> a new array, a permutation determined by the seed alone.
//
// The choices the contract leaves open: DECISIONS (decisions.ts), worded for the OpenAPI x-decisions.
export { AnswerFormatError } from './types.js';
export type {
  AnswerGrade,
  AnswerInput,
  AttemptGrade,
  GradableAnswer,
  HiddenReason,
  Outcome,
  QuestionSnapshot,
  ResultPolicyInput,
  ShowResultMode,
  StatementAnswer,
  Visibility,
  VisibilityActor,
} from './types.js';
export { normalizeAnswer, checkAnswerFits } from './normalize.js';
export { gradeAnswer, gradeAttempt, maxScoreOf } from './grade.js';
export { scorePercent, visibility, redact } from './visibility.js';
export { shuffleFor } from './shuffle.js';
export { DECISIONS } from './decisions.js';
