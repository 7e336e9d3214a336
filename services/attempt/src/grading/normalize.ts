import type { AnswerInput, QuestionSnapshot } from './types.js';

export function normalizeAnswer(_body: unknown): AnswerInput {
  throw new Error('not implemented yet');
}

export function checkAnswerFits(_question: QuestionSnapshot, _answer: AnswerInput): void {
  throw new Error('not implemented yet');
}
