// The kit's data layer: MongoDB (connection, transactions, indexes), the transactional outbox and
// its relay to the bus, and idempotent event handling. It imports the core and bus layers only.
export {
  connectMongo,
  supportsTransactions,
  withTransaction,
  syncIndexes,
  mongoCheck,
  isDuplicateKey,
  type MongoHandle,
  type ConnectOptions,
} from './mongo.js';
export {
  idempotent,
  processedEventModel,
  type IdempotencyStore,
  type IdempotentOptions,
  type ProcessedEventRow,
} from './idempotent.js';
export {
  createOutbox,
  outboxConfig,
  type Outbox,
  type OutboxOptions,
  type OutboxOwner,
  type OutboxUnit,
  type OutboxStamp,
  type EnqueueInput,
  type OutboxMetrics,
} from './outbox.js';
export { createOutboxRelay, startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
export {
  outboxOwnerPlugin,
  outboxModels,
  type OutboxEntryRow,
  type OutboxStampRow,
  type OutboxStatus,
  type OutboxModels,
} from './outbox-model.js';
export { type BackoffPolicy } from './outbox-plan.js';
export { consumeTopic, type ConsumeTopicOptions, type TopicShape } from './kafka-consume.js';
