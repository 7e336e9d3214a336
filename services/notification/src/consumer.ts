// analytics.weak-topic-detected.v1 → notifications for the student (and the parents remembered
// for them). Idempotent twice over: the kit's processed-event record, and the unique
// (event id, recipient) key of the rows themselves for a crash between the two writes.
import Joi from 'joi';
import { EVENT_TYPES, topicSpec, TOPICS } from '../../../kafka/topics.js';
import type { Logger } from '../../kit/src/core/index.js';
import { PoisonMessageError, type EventBus, type PlatformEvent, type Subscription } from '../../kit/src/bus/index.js';
import { consumeTopic } from '../../kit/src/data/index.js';
import type { NotificationDeps } from './domain/deps.js';
import { alertFromEvent, type WeakTopicAlert } from './domain/weak-topic.js';
// The event catalogue's shapes (kafka/schemas/defs/common.json): any 1..128 id, labels up to 500.
const id = () => Joi.string().min(1).max(128);
const label = () => Joi.string().min(1).max(500);
const alertData = Joi.object({
  studentId: id().required(),
  organizationId: id().allow(null),
  attemptId: id().allow(null),
  classroomId: id().allow(null),
  exam: Joi.object({ id: id().required(), title: label().required() }).allow(null),
  topics: Joi.array()
    .items(
      Joi.object({
        topic: label().required(),
        topicId: id().allow(null),
        wrongCount: Joi.number().integer().min(0).required(),
        attemptCount: Joi.number().integer().min(1).required(),
        accuracy: Joi.number().min(0).max(1).required(),
      }).unknown(true),
    )
    .min(1)
    .max(200)
    .required(),
}).unknown(true);

/** The event's data as an alert; an event no retry could fix goes to the dead-letter topic at once. */
export function alertOf(event: PlatformEvent): WeakTopicAlert {
  if (event.type !== EVENT_TYPES.analyticsWeakTopicDetected)
    throw new PoisonMessageError(`event ${event.id}: type ${event.type} is not a weak-topic detection`);
  const { value, error } = alertData.validate(event.data, { stripUnknown: true });
  if (error) throw new PoisonMessageError(`weak-topic event ${event.id}: ${error.message}`);
  return value as WeakTopicAlert;
}

/** Where the weak-topic consumer reads (the topic is configurable for tests) and its group timing. */
export interface WeakTopicConsumerOptions {
  topic: string;
  groupId: string;
  sessionTimeoutMs: number;
  logger: Logger;
}

/**
 * Consumes weak-topic detections from the beginning. The topic is created here as well as by
 * analytics: whichever service starts first, the subscription works.
 */
export function startWeakTopicConsumer(
  deps: NotificationDeps,
  bus: EventBus,
  opts: WeakTopicConsumerOptions,
): Promise<Subscription> {
  return consumeTopic(bus, deps.models, {
    topic: opts.topic,
    groupId: opts.groupId,
    fromBeginning: true,
    ensure: topicSpec(TOPICS.analyticsWeakTopicDetected),
    session: {
      sessionTimeout: opts.sessionTimeoutMs,
      rebalanceTimeout: opts.sessionTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(opts.sessionTimeoutMs / 10)),
    },
    handle: async (event) => {
      const result = await alertFromEvent(deps, event.id, alertOf(event));
      opts.logger.info({ eventId: event.id, ...result }, 'weak-topic alert handled');
    },
  });
}
