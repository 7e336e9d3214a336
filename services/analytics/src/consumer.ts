import { TOPICS } from '../../../kafka/topics.js';
import type { EventBus, Subscription } from '../../kit/src/bus/index.js';
import { idempotent } from '../../kit/src/data/index.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { handleAttemptGraded } from './domain/graded.js';

/**
 * attempt.graded.v1 → the result snapshot (and the weak-topic alert). Idempotent by event id
 * under the group's name; from the beginning, so a new group projects every graded attempt kept.
 */
export function consumeAttemptGraded(deps: AnalyticsDeps, bus: EventBus, groupId: string): Promise<Subscription> {
  return bus.consume({
    topic: TOPICS.attemptGraded,
    groupId,
    fromBeginning: true,
    handle: idempotent(deps.models, async (event) => {
      await handleAttemptGraded(deps, event);
    }),
  });
}
