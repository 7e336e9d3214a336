// The kit's core layer: what every process needs (config, logging, metrics, errors, ids, timing,
// the actor and the access token, the process lifecycle with its HTTP server) and the pure helpers
// domain code uses (paging, canonical JSON, the FieldError and UploadedFile types). It imports no
// other layer and loads neither express, mongoose nor kafkajs, so the operator imports it too.
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
export {
  AppError,
  STATUS,
  statusFor,
  toAppError,
  errorMiddleware,
  type AppErrorOptions,
  type FieldError,
} from './errors.js';
export {
  readActor,
  internalTokenGuard,
  isWorkerCall,
  metricsGuard,
  guardTokens,
  ROLES,
  type Actor,
  type Role,
  type GuardTokens,
} from './actor.js';
export { adminOrganization, isPlatformAdmin, writeOrganization } from './tenancy.js';
export {
  IMPORT_GRANT_HEADER,
  MAX_IMPORT_GRANT_LENGTH,
  importGrantKey,
  signImportGrant,
  verifyImportGrant,
  type GrantCheck,
  type GrantRefusal,
  type ImportGrant,
} from './grant.js';
export { bearerToken, sameSecret } from './secrets.js';
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
export {
  kafkaConfig,
  kafkaConnection,
  kafkaBusOptions,
  describeKafkaConnection,
  topicPolicy,
  parseTopicOverrides,
  requiredPartitions,
  topicCreationSpec,
  parseBrokers,
  TOPIC_PREFIX_PATTERN,
  type KafkaBusOptions,
  type KafkaClientConfig,
  type KafkaConnection,
  type SaslMechanism,
  type TopicCreation,
  type TopicDeclaration,
  type TopicOverride,
  type TopicPolicy,
} from './kafka-config.js';
export { mongoTlsConfig, mongoDriverOptions, type MongoTlsConfig, type MongoDriverOptions } from './mongo-tls.js';
export { timeOrderedIds } from './ids.js';
export { backoffMs, withTimeout, type BackoffSteps } from './timing.js';
export type { UploadedFile } from './uploaded-file.js';
export { canonicalJson, canonicalDigest } from './canonical.js';
export { pageParams, listMeta, PAGE_BOUNDS, type PageOptions, type PageParams, type ListMeta } from './paging.js';
export {
  paceVerdict,
  paceEnabled,
  watchBodyPace,
  paceTimeout,
  type BodyPace,
  type BodyCut,
  type BodyProgress,
  type PaceVerdict,
  type PaceWatch,
} from './body-pace.js';
export { createShares, type Share, type ShareCaps, type Shares } from './shares.js';

// For the kit's upper layers (the http layer's app, request line, uploads and 404s), not for services.
export { readinessHandler } from './health.js';
export { httpDurationObserver, type ObserveDuration } from './metrics.js';
export { requestLineWriter, type RequestLine } from './logging.js';
export { drainThen } from './drain.js';
export { notFoundHandler } from './errors.js';
