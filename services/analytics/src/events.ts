import { EVENT_TYPES, TOPICS } from '../../../kafka/topics.js';
import { buildEvent, type PlatformEvent } from '../../kit/src/bus/index.js';
import type { WeakTopic } from './domain/weak-topics.js';

export const WEAK_TOPIC_TOPIC = TOPICS.analyticsWeakTopicDetected;

export interface WeakTopicDetected {
  studentId: string;
  organizationId: string;
  attemptId: string;
  classroomId: string | null;
  exam: { id: string; title: string };
  topics: Array<WeakTopic & { shouldAlert: true }>;
}

/** The id is the alert state and the version it moved to: a recomputation never mints a second one. */
export function weakTopicDetected(data: WeakTopicDetected, now: Date, id: string): PlatformEvent<WeakTopicDetected> {
  return buildEvent(
    { source: 'analytics', type: EVENT_TYPES.analyticsWeakTopicDetected, subject: data.studentId, data },
    now,
    id,
  );
}
