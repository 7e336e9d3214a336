// The kit's bus layer: Kafka (the event bus, its consumers and topics, the CloudEvents headers and
// the start in the background). It imports the core layer only.
export {
  createKafkaBus,
  buildEvent,
  parseEvent,
  type EventBus,
  type BusMessage,
  type ReceivedMessage,
  type SubscribeOptions,
  type Subscription,
  type PlatformEvent,
  type EventSpec,
  type ConsumeOptions,
  type EventHandler,
  type SessionOptions,
  type ConsumerState,
} from './kafka.js';
export { topicPartitionCount, partitionCounts, physicalName, logicalName } from './kafka-topics.js';
export {
  PoisonMessageError,
  DEFAULT_RETRY,
  DLQ_HEADERS,
  deadLetterMessage,
  type RetryPolicy,
} from './kafka-consumer.js';
export {
  CLOUDEVENTS_CONTENT_TYPE,
  CE_HEADERS,
  LEGACY_ID_HEADER,
  cloudEventHeaders,
  eventIdFromHeaders,
} from './cloudevents-headers.js';
export { startKafkaInBackground, KAFKA_START_BACKOFF, type BackgroundKafka } from './kafka-start.js';
