// Pure: the classification history kept under sourceMetadataJson.aiClassification.
import type { QuestionRow } from '../../store/question-models.js';
import { AI_DIFFICULTY, DIFFICULTY_SOURCE } from './fields.js';
import type { Plan } from './plan.js';

export const HISTORY_LIMIT = 20;

export interface HistoryEntry {
  at: string;
  actorId: string;
  mode: 'missing' | 'all';
  overwrite: boolean;
  threshold: number;
  applied: Plan['applied'];
  skipped: Plan['skipped'];
}

function priorHistory(meta: Record<string, unknown> | null): unknown[] {
  const prior = meta?.aiClassification as { history?: unknown } | unknown[] | undefined;
  if (Array.isArray(prior)) return prior; // an older flat list is kept as history
  return Array.isArray(prior?.history) ? prior.history : [];
}

/** The metadata with this entry appended (the last HISTORY_LIMIT kept) and the difficulty's source. */
export function withHistory(row: Pick<QuestionRow, 'sourceMetadataJson'>, plan: Plan, entry: HistoryEntry) {
  const meta = row.sourceMetadataJson ?? {};
  const history = [...priorHistory(meta), entry].slice(-HISTORY_LIMIT);
  const next: Record<string, unknown> = {
    ...meta,
    aiClassification: { updatedAt: entry.at, updatedById: entry.actorId, history },
  };
  // The difficulty now comes from the classifier, so it is no longer the legacy sync's.
  if (plan.applied.some((a) => a.field === 'difficultyLevelId')) next[DIFFICULTY_SOURCE] = AI_DIFFICULTY;
  return next;
}
