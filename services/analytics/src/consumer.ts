import { topicSpec, TOPICS } from '../../../kafka/topics.js';
import type { EventBus, Subscription } from '../../kit/src/bus/index.js';
import { consumeTopic } from '../../kit/src/data/index.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { handleAttemptGraded } from './domain/graded.js';

/**
 * attempt.graded.v1 → the result snapshot (and the weak-topic alert). Idempotent by event id
 * under the group's name; from the beginning, so a new group projects every graded attempt kept.
 * The topic is created here too: analytics may start before the attempt service.
 */
export function consumeAttemptGraded(deps: AnalyticsDeps, bus: EventBus, groupId: string): Promise<Subscription> {
  return consumeTopic(bus, deps.models, {
    topic: TOPICS.attemptGraded,
    groupId,
    fromBeginning: true,
    ensure: topicSpec(TOPICS.attemptGraded),
    handle: async (event) => {
      await handleAttemptGraded(deps, event);
    },
  });
}
