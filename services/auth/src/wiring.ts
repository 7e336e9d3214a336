import { randomBytes, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Registry } from 'prom-client';
import type { Logger } from '../../kit/src/core/index.js';
import { createOutbox, syncIndexes, type MongoHandle } from '../../kit/src/data/index.js';
import type { AuthConfig } from './config.js';
import type { AuthDeps, AuthSettings } from './domain/deps.js';
import { WorkLimiter } from './domain/work-limiter.js';
import { authMetrics } from './metrics.js';
import { authModels } from './store/models.js';

export function settingsFrom(c: AuthConfig): AuthSettings {
  return {
    tokens: {
      secret: c.AUTH_JWT_SECRET,
      accessTtlSeconds: c.AUTH_ACCESS_TTL_SECONDS,
      refreshTtlSeconds: c.AUTH_REFRESH_TTL_SECONDS,
    },
    bcryptCost: c.AUTH_BCRYPT_COST,
    tokenBcryptCost: c.AUTH_TOKEN_BCRYPT_COST,
    refreshReuseGraceSeconds: c.AUTH_REFRESH_REUSE_GRACE_SECONDS,
    login: loginSettings(c),
    registration: { maxPerAddress: c.AUTH_REGISTER_MAX_PER_ADDRESS, windowSeconds: c.AUTH_REGISTER_WINDOW_SECONDS },
    platformOrganizationId: c.AUTH_PLATFORM_ORGANIZATION_ID,
    revocationFeedLagMs: c.AUTH_REVOCATION_FEED_LAG_MS,
  };
}

function loginSettings(c: AuthConfig): AuthSettings['login'] {
  const windowSeconds = c.AUTH_LOGIN_WINDOW_SECONDS;
  return {
    pair: { freeFailures: c.AUTH_LOGIN_FAILURES_PER_PAIR, maxDelaySeconds: windowSeconds, windowSeconds },
    address: { freeFailures: c.AUTH_LOGIN_FAILURES_PER_ADDRESS, maxDelaySeconds: windowSeconds, windowSeconds },
    account: {
      freeFailures: c.AUTH_LOGIN_FAILURES_PER_ACCOUNT,
      maxDelaySeconds: Math.min(c.AUTH_LOGIN_ACCOUNT_MAX_DELAY_SECONDS, windowSeconds),
      windowSeconds,
    },
    knownAddressSeconds: c.AUTH_LOGIN_KNOWN_ADDRESS_SECONDS,
  };
}

/** Models, indexes, the dummy hash and the limiter: what main.ts and tests both need. */
export async function createAuthDeps(
  db: MongoHandle,
  c: AuthConfig,
  logger: Logger,
  registry: Registry,
): Promise<AuthDeps> {
  const models = authModels(db.conn);
  await syncIndexes(db.conn);
  const settings = settingsFrom(c);
  return {
    db,
    models,
    outbox: createOutbox({ db, owners: [models.User], logger, registry }),
    settings,
    limiter: new WorkLimiter(c.AUTH_HASH_CONCURRENCY, c.AUTH_HASH_QUEUE, c.AUTH_HASH_MAX_WAIT_MS),
    dummyHash: await bcrypt.hash(randomBytes(24).toString('base64'), settings.bcryptCost),
    clock: () => new Date(),
    newId: randomUUID,
    logger,
    metrics: authMetrics(registry),
  };
}
