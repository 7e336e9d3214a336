import Joi from 'joi';
import { commonConfig, tokenConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { outboxConfig } from '../../kit/src/data/index.js';
import { portOf } from '../../registry.js';

export interface AuthConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
  AUTH_JWT_SECRET: string;
  AUTH_ACCESS_TTL_SECONDS: number;
  AUTH_REFRESH_TTL_SECONDS: number;
  AUTH_REFRESH_REUSE_GRACE_SECONDS: number;
  AUTH_BCRYPT_COST: number;
  AUTH_TOKEN_BCRYPT_COST: number;
  AUTH_LOGIN_FAILURES_PER_PAIR: number;
  AUTH_LOGIN_FAILURES_PER_ADDRESS: number;
  AUTH_LOGIN_FAILURES_PER_ACCOUNT: number;
  AUTH_LOGIN_ACCOUNT_MAX_DELAY_SECONDS: number;
  AUTH_LOGIN_WINDOW_SECONDS: number;
  AUTH_LOGIN_KNOWN_ADDRESS_SECONDS: number;
  AUTH_REGISTER_MAX_PER_ADDRESS: number;
  AUTH_REGISTER_WINDOW_SECONDS: number;
  AUTH_HASH_CONCURRENCY: number;
  AUTH_HASH_QUEUE: number;
  AUTH_HASH_MAX_WAIT_MS: number;
  AUTH_PLATFORM_ORGANIZATION_ID: string;
  AUTH_REVOCATION_FEED_LAG_MS: number;
  TRUST_PROXY: number;
}

export const authConfigSchema = Joi.object<AuthConfig>({
  ...commonConfig,
  ...outboxConfig,
  PORT: Joi.number().port().default(portOf('auth')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_auth'),
  ...tokenConfig,
  AUTH_ACCESS_TTL_SECONDS: Joi.number().integer().min(30).max(86400).default(900),
  AUTH_REFRESH_TTL_SECONDS: Joi.number().integer().min(300).max(31536000).default(2592000),
  AUTH_REFRESH_REUSE_GRACE_SECONDS: Joi.number().integer().min(0).max(60).default(5),
  AUTH_BCRYPT_COST: Joi.number().integer().min(4).max(15).default(12),
  AUTH_TOKEN_BCRYPT_COST: Joi.number().integer().min(4).max(15).default(10),
  // Failed logins: free ones per (account, client address) pair, per client address, and per
  // account across addresses; past each, the next attempt waits 1 s, doubling per failure.
  AUTH_LOGIN_FAILURES_PER_PAIR: Joi.number().integer().min(1).max(1000).default(5),
  AUTH_LOGIN_FAILURES_PER_ADDRESS: Joi.number().integer().min(1).max(100000).default(100),
  AUTH_LOGIN_FAILURES_PER_ACCOUNT: Joi.number().integer().min(1).max(100000).default(50),
  // The account-wide wait stays short: it slows a distributed guesser, it never locks the owner out.
  AUTH_LOGIN_ACCOUNT_MAX_DELAY_SECONDS: Joi.number().integer().min(1).max(3600).default(30),
  // Quiet time after which a key's failures are forgotten; also the longest pair or address wait.
  AUTH_LOGIN_WINDOW_SECONDS: Joi.number().integer().min(1).max(86400).default(900),
  // How long an address a user logged in from stays exempt from the account-wide slow-down.
  AUTH_LOGIN_KNOWN_ADDRESS_SECONDS: Joi.number().integer().min(0).max(31536000).default(2592000),
  AUTH_REGISTER_MAX_PER_ADDRESS: Joi.number().integer().min(1).max(100000).default(20),
  AUTH_REGISTER_WINDOW_SECONDS: Joi.number().integer().min(1).max(86400).default(600),
  AUTH_HASH_CONCURRENCY: Joi.number().integer().min(1).max(64).default(4),
  AUTH_HASH_QUEUE: Joi.number().integer().min(0).max(10000).default(32),
  AUTH_HASH_MAX_WAIT_MS: Joi.number().integer().min(1).max(60000).default(1000),
  // An ADMIN membership in this organization makes a platform admin (account status, any organization).
  AUTH_PLATFORM_ORGANIZATION_ID: Joi.string()
    .pattern(/^[A-Za-z0-9_.:@-]{1,128}$/)
    .default('platform'),
  // The revocation feed answers up to now minus this, so a revocation still being written is never skipped.
  AUTH_REVOCATION_FEED_LAG_MS: Joi.number().integer().min(0).max(60000).default(2000),
  TRUST_PROXY: Joi.number().integer().min(0).max(10).default(0),
});
