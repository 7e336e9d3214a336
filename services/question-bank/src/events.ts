import { EVENT_TYPES, TOPICS } from '../../../kafka/topics.js';
import { buildEvent, type PlatformEvent } from '../../kit/src/bus/index.js';
import type { ProjectionChange } from './domain/questions/projection.js';

export const SEARCH_TOPIC = TOPICS.searchProjectionChanged;

/** The event id is the question and its sourceVersion: a replay of the same change has the same id. */
export function searchProjectionChanged(change: ProjectionChange, now: Date): PlatformEvent<ProjectionChange> {
  return buildEvent(
    { source: 'question-bank', type: EVENT_TYPES.searchProjectionChanged, subject: change.questionId, data: change },
    now,
    `${change.questionId}:${change.sourceVersion}`,
  );
}
