import type { AnswerGrade, AnswerInput, AttemptGrade, QuestionSnapshot } from './types.js';

export function gradeAnswer(_question: QuestionSnapshot, _answer: AnswerInput | null): AnswerGrade {
  throw new Error('not implemented yet');
}

export function gradeAttempt(_questions: readonly QuestionSnapshot[], _answers: readonly AnswerInput[]): AttemptGrade {
  throw new Error('not implemented yet');
}
