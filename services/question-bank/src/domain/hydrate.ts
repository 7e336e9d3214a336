import type { QuestionRow } from '../store/question-models.js';
import type { QuestionBankDeps } from './deps.js';

export type HydrateView = 'list' | 'detail' | 'editor' | 'legacy';

// Placeholder until QB-B delivers batched hydration: rows come back as they went in.
export async function hydrateQuestions<T extends Partial<QuestionRow> & { id: string }>(
  _deps: QuestionBankDeps,
  rows: T[],
  _opts: { view: HydrateView },
): Promise<Array<T & Record<string, unknown>>> {
  return rows;
}
