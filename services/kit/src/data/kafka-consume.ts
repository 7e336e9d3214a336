// The one way a service consumes a topic of platform events (issue 24): the topic and its
// dead-letter topic ensured, the handler run once per event id, the subscription made through the
// bus, so a bus that waits for Kafka in the background (kafka-start.ts) queues all three in order.
import type { TopicDeclaration } from '../core/index.js';
import type { ConsumeOptions, EventBus, EventHandler, Subscription } from '../bus/index.js';
import { idempotent, type IdempotencyStore } from './idempotent.js';

/** How a consumed topic is created when it is missing: its catalogue entry's partitions and cleanup policy. */
export type TopicShape = Pick<TopicDeclaration, 'partitions' | 'cleanupPolicy'>;

/** What consumeTopic subscribes to and how; the dead-letter topic is always `<topic>.dlq`. */
export interface ConsumeTopicOptions<T = unknown> extends Omit<ConsumeOptions<T>, 'deadLetterTopic' | 'handle'> {
  /**
   * Creates the topic with this shape when it is missing (a consumer may start before its
   * producer ever did); absent, the topic is its producer's to create and only checked to exist.
   */
  ensure?: TopicShape;
  /** Runs once per event id and consumer group: a redelivered event is skipped. */
  handle: EventHandler<T>;
  /** The name processed events are remembered under, when not the consumer group's (see `idempotent`). */
  processedAs?: string;
}

/**
 * Consumes `opts.topic` as a service does: ensures the topic (with `ensure`) and its dead-letter
 * topic, wraps the handler in `idempotent` (processed-event ids kept in the service's database,
 * `store`), and subscribes through `bus.consume`. A message no retry can fix, or one whose retries
 * are spent, goes to `<topic>.dlq`.
 */
export async function consumeTopic<T>(
  bus: EventBus,
  store: IdempotencyStore,
  opts: ConsumeTopicOptions<T>,
): Promise<Subscription> {
  const { ensure, handle, processedAs, ...subscription } = opts;
  const deadLetterTopic = `${opts.topic}.dlq`;
  const topics: TopicDeclaration[] = [{ name: deadLetterTopic, partitions: 1 }];
  if (ensure) topics.unshift({ name: opts.topic, partitions: ensure.partitions, cleanupPolicy: ensure.cleanupPolicy });
  await bus.ensureTopics(topics);
  return bus.consume({
    ...subscription,
    deadLetterTopic,
    handle: idempotent(store, handle, { consumer: processedAs }),
  });
}
