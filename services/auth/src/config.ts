import Joi from 'joi';
import { ConfigError, commonConfig, outboxConfig, type CommonConfig } from '../../kit/src/index.js';

/** The development default is public knowledge; production refuses it (see assertProductionSafe). */
export const DEV_JWT_SECRET = 'edu-platform-development-only-jwt-secret';

export interface AuthConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
  AUTH_JWT_SECRET: string;
  AUTH_ACCESS_TTL_SECONDS: number;
  AUTH_REFRESH_TTL_SECONDS: number;
  AUTH_REFRESH_REUSE_GRACE_SECONDS: number;
  AUTH_BCRYPT_COST: number;
  AUTH_TOKEN_BCRYPT_COST: number;
  AUTH_LOGIN_MAX_FAILURES_PER_ACCOUNT: number;
  AUTH_LOGIN_MAX_FAILURES_PER_ADDRESS: number;
  AUTH_LOGIN_WINDOW_SECONDS: number;
  AUTH_HASH_CONCURRENCY: number;
  AUTH_HASH_QUEUE: number;
  AUTH_DEFAULT_ORGANIZATION_ID: string;
  AUTH_DEFAULT_ORGANIZATION_NAME: string;
  TRUST_PROXY: number;
}

export const authConfigSchema = Joi.object<AuthConfig>({
  ...commonConfig,
  ...outboxConfig,
  PORT: Joi.number().port().default(4001),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_auth'),
  AUTH_JWT_SECRET: Joi.string().min(16).default(DEV_JWT_SECRET),
  AUTH_ACCESS_TTL_SECONDS: Joi.number().integer().min(30).max(86400).default(900),
  AUTH_REFRESH_TTL_SECONDS: Joi.number().integer().min(300).max(31536000).default(2592000),
  AUTH_REFRESH_REUSE_GRACE_SECONDS: Joi.number().integer().min(0).max(60).default(5),
  AUTH_BCRYPT_COST: Joi.number().integer().min(4).max(15).default(12),
  AUTH_TOKEN_BCRYPT_COST: Joi.number().integer().min(4).max(15).default(10),
  AUTH_LOGIN_MAX_FAILURES_PER_ACCOUNT: Joi.number().integer().min(1).max(1000).default(5),
  AUTH_LOGIN_MAX_FAILURES_PER_ADDRESS: Joi.number().integer().min(1).max(100000).default(50),
  AUTH_LOGIN_WINDOW_SECONDS: Joi.number().integer().min(1).max(86400).default(900),
  AUTH_HASH_CONCURRENCY: Joi.number().integer().min(1).max(64).default(4),
  AUTH_HASH_QUEUE: Joi.number().integer().min(0).max(10000).default(200),
  AUTH_DEFAULT_ORGANIZATION_ID: Joi.string().max(64).default('local'),
  AUTH_DEFAULT_ORGANIZATION_NAME: Joi.string().max(160).default('Local organization'),
  TRUST_PROXY: Joi.number().integer().min(0).max(10).default(0),
});

/** One line naming the variable, like every other config failure. */
export function assertProductionSafe(config: AuthConfig): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.AUTH_JWT_SECRET === DEV_JWT_SECRET || config.AUTH_JWT_SECRET.length < 32) {
    throw new ConfigError(
      'config: "AUTH_JWT_SECRET" must be set to a non-default secret of at least 32 characters in production',
    );
  }
}
