import Joi from 'joi';
import { assertTokenSecretSafe, assertTrustBoundary, commonConfig, tokenConfig } from '../../kit/src/core/index.js';
import { devUrl, portOf } from '../../registry.js';
import { parseAllowedOrigins } from './csrf.js';
import { TABLE_NAMES, type TableName } from './tables.js';

/** The service behind each table: under `make dev` it listens where services/registry.ts says. */
const DEV_UPSTREAM_SERVICE: Record<TableName, string> = {
  auth: 'auth',
  analytics: 'analytics',
  notifications: 'notification',
  parentAlerts: 'notification',
  documentImport: 'document-import',
};

/** Time to the upstream's response headers once the request body is sent; document import approves synchronously. */
const DEFAULT_TIMEOUT_MS: Record<TableName, number> = {
  auth: 10_000,
  analytics: 10_000,
  notifications: 10_000,
  parentAlerts: 10_000,
  documentImport: 60_000,
};

/** GATEWAY_TABLE_PARENT_ALERTS, GATEWAY_PARENT_ALERTS_URL, … from a table name. */
export function envPrefix(name: TableName): string {
  return name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

export interface TableSettings {
  enabled: boolean;
  url: URL;
  timeoutMs: number;
}

export interface GatewayConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  PORT: number;
  HOST: string;
  METRICS_TOKEN?: string;
  LOG_LEVEL: string;
  SHUTDOWN_GRACE_MS: number;
  SHUTDOWN_DELAY_MS: number;
  AUTH_JWT_SECRET: string;
  INTERNAL_API_TOKEN?: string;
  GATEWAY_TRUST_PROXY: number;
  GATEWAY_LEGACY_URL?: string;
  GATEWAY_LEGACY_TIMEOUT_MS: number;
  GATEWAY_RATE_LIMIT_RPS: number;
  GATEWAY_RATE_LIMIT_BURST: number;
  GATEWAY_MAX_SOCKETS: number;
  GATEWAY_MAX_TOKEN_LIFETIME_SECONDS: number;
  GATEWAY_REVOCATION_POLL_MS: number;
  GATEWAY_REVOCATION_FAIL_CLOSED_MS: number;
  GATEWAY_ALLOWED_ORIGINS?: string;
  GATEWAY_MAX_CONCURRENT_PER_CLIENT: number;
  GATEWAY_MAX_STREAMS_PER_CLIENT: number;
  GATEWAY_QUEUE_TIMEOUT_MS: number;
  GATEWAY_BODY_TIMEOUT_MS: number;
  GATEWAY_BODY_MIN_BYTES_PER_SECOND: number;
  GATEWAY_BODY_IDLE_TIMEOUT_MS: number;
  GATEWAY_DRAIN_LIMIT_BYTES: number;
  [key: string]: unknown;
}

const httpUrl = () => Joi.string().uri({ scheme: ['http', 'https'] });
const onOff = () => Joi.boolean().truthy('on', '1', 'yes').falsy('off', '0', 'no');

function tableKeys(): Record<string, Joi.Schema> {
  const keys: Record<string, Joi.Schema> = {};
  for (const name of TABLE_NAMES) {
    const p = envPrefix(name);
    keys[`GATEWAY_TABLE_${p}`] = onOff().optional();
    keys[`GATEWAY_${p}_URL`] = httpUrl().default(devUrl(DEV_UPSTREAM_SERVICE[name]));
    keys[`GATEWAY_${p}_TIMEOUT_MS`] = Joi.number().integer().min(100).max(600_000).default(DEFAULT_TIMEOUT_MS[name]);
  }
  return keys;
}

export const gatewayConfigSchema = Joi.object<GatewayConfig>({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().default(portOf('gateway')),
  HOST: commonConfig.HOST,
  METRICS_TOKEN: commonConfig.METRICS_TOKEN,
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  SHUTDOWN_GRACE_MS: commonConfig.SHUTDOWN_GRACE_MS,
  // As every service: keep answering, readiness failing, while the endpoint removal propagates.
  SHUTDOWN_DELAY_MS: commonConfig.SHUTDOWN_DELAY_MS,
  // The same key and development default as the auth service: the gateway must verify what auth signs.
  ...tokenConfig,
  INTERNAL_API_TOKEN: Joi.string().min(16).optional(),
  GATEWAY_TRUST_PROXY: Joi.number().integer().min(0).max(10).default(0),
  GATEWAY_LEGACY_URL: httpUrl().optional(),
  GATEWAY_LEGACY_TIMEOUT_MS: Joi.number().integer().min(100).max(600_000).default(30_000),
  GATEWAY_RATE_LIMIT_RPS: Joi.number().min(0).max(100_000).default(50),
  GATEWAY_RATE_LIMIT_BURST: Joi.number().integer().min(1).max(1_000_000).default(100),
  GATEWAY_MAX_SOCKETS: Joi.number().integer().min(1).max(10_000).default(256),
  // Access tokens whose exp - iat is longer are refused (auth issues 15 minutes); also how long a
  // revoked session is remembered and how far back a starting gateway reads the revocation feed.
  GATEWAY_MAX_TOKEN_LIFETIME_SECONDS: Joi.number().integer().min(60).max(604_800).default(86_400),
  // How often GET {GATEWAY_AUTH_URL}/v1/auth/revocations is polled; 0 turns the poller off (no auth service).
  GATEWAY_REVOCATION_POLL_MS: Joi.number().integer().min(0).max(600_000).default(2000),
  // Feed unreachable this long (since the last good poll, or the start): token tables answer 503
  // instead of trusting a stale set. 0 (default) never fails closed: log, metrics, keep serving.
  GATEWAY_REVOCATION_FAIL_CLOSED_MS: Joi.number().integer().min(0).max(86_400_000).default(0),
  // Comma list of origins (scheme://host[:port]) a cookie-authenticated write may come from;
  // unset: the request's own Host, over http or https.
  GATEWAY_ALLOWED_ORIGINS: Joi.string()
    .custom((v: string) => {
      parseAllowedOrigins(v);
      return v;
    })
    .optional(),
  // Per client (the token's user, else the client address): upstream requests in flight and open
  // event streams; past them 429 with Retry-After. 0 is no cap.
  GATEWAY_MAX_CONCURRENT_PER_CLIENT: Joi.number().integer().min(0).max(10_000).default(16),
  GATEWAY_MAX_STREAMS_PER_CLIENT: Joi.number().integer().min(0).max(10_000).default(4),
  // Longest wait for a free socket of an upstream's pool (GATEWAY_MAX_SOCKETS); past it 503 with Retry-After.
  GATEWAY_QUEUE_TIMEOUT_MS: Joi.number().integer().min(1).max(600_000).default(5000),
  // A request body's pace (Apache's mod_reqtimeout body=20,MinRate=…): it gets GATEWAY_BODY_TIMEOUT_MS
  // plus a second per GATEWAY_BODY_MIN_BYTES_PER_SECOND bytes received, and at most
  // GATEWAY_BODY_IDLE_TIMEOUT_MS between two chunks; past either, 408 REQUEST_TIMEOUT (the
  // connection closed), or the connection closed when the answer has started. 0 turns a rule off.
  GATEWAY_BODY_TIMEOUT_MS: Joi.number().integer().min(0).max(3_600_000).default(20_000),
  GATEWAY_BODY_MIN_BYTES_PER_SECOND: Joi.number().integer().min(0).max(1_000_000_000).default(1024),
  GATEWAY_BODY_IDLE_TIMEOUT_MS: Joi.number().integer().min(0).max(3_600_000).default(10_000),
  // A body still arriving after its answer is read and dropped up to this many bytes (so the
  // client gets the answer while sending), then its connection is closed.
  GATEWAY_DRAIN_LIMIT_BYTES: Joi.number()
    .integer()
    .min(0)
    .max(1024 ** 3)
    .default(64 * 1024 * 1024),
  ...tableKeys(),
});

/** A table is on when its switch says so; without one, on everywhere but production (the contracts' "non-default"). */
export function tableSettings(config: Readonly<GatewayConfig>): Record<TableName, TableSettings> {
  const out = {} as Record<TableName, TableSettings>;
  for (const name of TABLE_NAMES) {
    const p = envPrefix(name);
    const fromEnv = config[`GATEWAY_TABLE_${p}`];
    out[name] = {
      enabled: typeof fromEnv === 'boolean' ? fromEnv : config.NODE_ENV !== 'production',
      url: new URL(config[`GATEWAY_${p}_URL`] as string),
      timeoutMs: config[`GATEWAY_${p}_TIMEOUT_MS`] as number,
    };
  }
  return out;
}

/** One line naming the variable, as every other config failure. */
export function assertProductionSafe(config: Readonly<GatewayConfig>): void {
  assertTokenSecretSafe(config);
  assertTrustBoundary(config);
}
