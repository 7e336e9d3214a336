import Joi from 'joi';
import { ConfigError } from './config-error.js';
import { kafkaConfig, type KafkaClientConfig } from './kafka-config.js';
import { mongoTlsConfig, type MongoTlsConfig } from './mongo-tls.js';

export { ConfigError };

/**
 * Validates the environment against a joi schema once, at start, and returns a frozen typed object.
 * Unknown variables are ignored (the environment holds far more than one service's config).
 * Fails with `config: "MONGODB_URI" is required` — one line, naming the variable.
 */
export function loadConfig<T>(schema: Joi.ObjectSchema<T>, env: NodeJS.ProcessEnv = process.env): Readonly<T> {
  const { value, error } = schema.validate(env, {
    abortEarly: true,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) {
    const first = error.details[0];
    throw new ConfigError(`config: ${first ? first.message : error.message}`);
  }
  return Object.freeze(value as T);
}

/** Variables every service reads; services extend this with their own keys. */
export const commonConfig = {
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().required(),
  MONGODB_URI: Joi.string()
    .uri({ scheme: ['mongodb', 'mongodb+srv'] })
    .required(),
  // MONGODB_TLS*, MONGODB_USERNAME/PASSWORD/AUTH_SOURCE: passed to the driver by mongoDriverOptions.
  ...mongoTlsConfig,
  // KAFKA_BROKERS, TLS, SASL and topic policy: one definition, shared with the DOCX worker and the operator.
  ...kafkaConfig,
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  // A service in production refuses to start without it (assertTrustBoundary): every /v1 route
  // trusts the actor headers only behind it.
  INTERNAL_API_TOKEN: Joi.string().min(16).optional(),
  // A narrower credential for callers that open hostile input (the DOCX workers): a service accepts
  // it only on the routes it lists (createApp `workerRoutes`), never where the internal token is needed.
  WORKER_API_TOKEN: Joi.string().min(16).invalid(Joi.ref('INTERNAL_API_TOKEN')).optional().messages({
    'any.invalid': '{{#label}} must differ from INTERNAL_API_TOKEN',
  }),
  // Bearer token `/metrics` requires; unset, `/metrics` takes the internal token when one is set.
  METRICS_TOKEN: Joi.string().min(16).optional(),
  // The address to listen on: every interface in a container, loopback under `make dev`.
  HOST: Joi.string().ip().default('0.0.0.0'),
  SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).max(120000).default(10000),
  SHUTDOWN_DELAY_MS: Joi.number().integer().min(0).max(60000).default(0),
  MONGODB_REQUIRE_TRANSACTIONS: Joi.boolean().optional(),
};

export interface CommonConfig extends KafkaClientConfig, MongoTlsConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  PORT: number;
  MONGODB_URI: string;
  LOG_LEVEL: string;
  INTERNAL_API_TOKEN?: string;
  WORKER_API_TOKEN?: string;
  METRICS_TOKEN?: string;
  HOST: string;
  SHUTDOWN_GRACE_MS: number;
  SHUTDOWN_DELAY_MS: number;
  /** Unset: required in production only. `false` lets production run on a server without them. */
  MONGODB_REQUIRE_TRANSACTIONS?: boolean;
}

/**
 * A service in production refuses to start without the internal token: without it, anyone who can
 * reach the service could send actor headers. (The DOCX worker, which serves no HTTP, needs only
 * its own narrower WORKER_API_TOKEN.)
 */
export function assertTrustBoundary(config: Pick<CommonConfig, 'NODE_ENV' | 'INTERNAL_API_TOKEN'>): void {
  if (config.NODE_ENV === 'production' && !config.INTERNAL_API_TOKEN) {
    throw new ConfigError('config: "INTERNAL_API_TOKEN" is required in production');
  }
}

/** Whether the process must refuse a MongoDB that cannot run transactions. */
export const requiresTransactions = (config: CommonConfig): boolean =>
  config.MONGODB_REQUIRE_TRANSACTIONS ?? config.NODE_ENV === 'production';
