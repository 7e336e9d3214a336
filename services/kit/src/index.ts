// The kit's only public surface: services and the operator import from here, nowhere else.
export {
  loadConfig,
  ConfigError,
  commonConfig,
  requiresTransactions,
  assertTrustBoundary,
  type CommonConfig,
} from './config.js';
export { createLogger, REDACT_PATHS, type Logger, type LoggerOptions } from './logging.js';
export { createMetricsRegistry } from './metrics.js';
export { AppError, STATUS, statusFor, toAppError, errorMiddleware, type AppErrorOptions } from './errors.js';
export {
  ok,
  list,
  listMeta,
  pageParams,
  pagingKeys,
  type ListMeta,
  type PageOptions,
  type PageParams,
} from './envelope.js';
export { upload, UPLOAD_TEMP_PREFIX, type UploadOptions, type UploadedFile } from './upload.js';
export { sse, StreamRegistry, type SseStream, type SseHandler, type SseOptions } from './sse.js';
export {
  canonicalJson,
  canonicalDigest,
  idempotencyKey,
  idempotencyRecordModel,
  type IdempotencyKeyOptions,
  type IdempotencyRecord,
} from './idempotency.js';
export { requireRole } from './roles.js';
export { validate, type RequestSchemas, type FieldError } from './validate.js';
export { tolerant, applySpellings, type Spelling, type SpellingConflict } from './tolerant.js';
export { trimmedString, trimmedPattern, dateTimeString, TRIMMED_WHITESPACE } from './text.js';
export {
  routes,
  routerFor,
  routeOrder,
  type Route,
  type RouteDeclaration,
  type OperationDoc,
  type ValidRequest,
  type Empty,
} from './route.js';
export { documented, documentedAs, named, jsonSchemaOf, type Json, type JsonObject } from './openapi/json-schema.js';
export { counterObject } from './openapi/json.js';
export { openApiDocument, openApiPath, type DocumentBase, type DocumentedRoute } from './openapi/document.js';
export {
  envelope,
  okResponse,
  errorResponse,
  errorResponses,
  ref,
  listData,
  ERROR_SCHEMA,
  INTERNAL_TOKEN_SCHEME,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
} from './openapi/responses.js';
export { kitPaths, type KitPathsOptions } from './openapi/kit-paths.js';
export { actorHeader } from './openapi/parameters.js';
export { decisionsFrom } from './openapi/decisions.js';
export {
  OUTBOX_METRICS,
  serviceDocument,
  serviceDocumentBase,
  type ServiceComponents,
  type ServiceDocumentHead,
} from './openapi/service-base.js';
export { closedObject } from './openapi/shapes.js';
export {
  readActor,
  internalTokenGuard,
  metricsGuard,
  guardTokens,
  ROLES,
  type Actor,
  type Role,
  type GuardTokens,
} from './actor.js';
export { bearerToken } from './secrets.js';
export {
  DEV_JWT_SECRET,
  ACCESS_COOKIE,
  TOKEN_ALGORITHM,
  tokenConfig,
  assertTokenSecretSafe,
  signToken,
  verifyToken,
  verifyAccessToken,
  accessTokenOf,
  accessCookie,
  type AccessClaims,
  type MembershipClaim,
  type VerifiedAccess,
  type AccessCheck,
  type AccessRefusal,
  type AccessVerifyOptions,
  type TokenCheck,
  type TokenRefusal,
  type TokenSecret,
} from './access-token.js';
export { reportOnly, type HealthCheck, type HealthChecks, type ReadinessState } from './health.js';
export {
  createApp,
  readOpenApi,
  serviceApp,
  type AppOptions,
  type ServiceAppOptions,
  type ServiceAppParts,
} from './app.js';
export { onlyMethods } from './routing.js';
export { serve, onStopSignal, runClosers, type RunningServer, type ServeOptions } from './server.js';
export {
  runProcess,
  startProcess,
  type ProcessContext,
  type ProcessDefinition,
  type ProcessHttp,
  type ProcessOptions,
  type ProcessStart,
  type RunningProcess,
} from './process.js';
export { startKafkaInBackground, KAFKA_START_BACKOFF, type BackgroundKafka } from './kafka-start.js';
export {
  runService,
  startService,
  appOptions,
  type BuiltWith,
  type ServiceDefinition,
  type ServiceContext,
  type BuiltService,
  type StartOptions,
  type RunningService,
} from './service.js';
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
  kafkaConfig,
  kafkaConnection,
  kafkaBusOptions,
  describeKafkaConnection,
  topicPolicy,
  parseTopicOverrides,
  requiredPartitions,
  topicCreationSpec,
  TOPIC_PREFIX_PATTERN,
  type KafkaClientConfig,
  type KafkaConnection,
  type SaslMechanism,
  type TopicCreation,
  type TopicOverride,
  type TopicPolicy,
} from './kafka-config.js';
export { topicPartitionCount, partitionCounts, physicalName, logicalName } from './kafka-topics.js';
export {
  createKafkaBus,
  buildEvent,
  parseBrokers,
  type KafkaBusOptions,
  type EventBus,
  type BusMessage,
  type TopicDeclaration,
  type ReceivedMessage,
  type SubscribeOptions,
  type Subscription,
  type PlatformEvent,
  type EventSpec,
  parseEvent,
  type ConsumeOptions,
  type EventHandler,
  type SessionOptions,
  type ConsumerState,
} from './kafka.js';
export { mongoTlsConfig, mongoDriverOptions, type MongoTlsConfig, type MongoDriverOptions } from './mongo-tls.js';
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
export { timeOrderedIds } from './ids.js';
export { backoffMs, withTimeout, type BackoffSteps } from './timing.js';
export { consumeTopic, type ConsumeTopicOptions, type TopicShape } from './kafka-consume.js';
