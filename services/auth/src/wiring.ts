import { randomBytes, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Registry } from 'prom-client';
import { createOutbox, syncIndexes, type Logger, type MongoHandle } from '../../kit/src/index.js';
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
    perAccount: { maxFailures: c.AUTH_LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds: c.AUTH_LOGIN_WINDOW_SECONDS },
    perAddress: { maxFailures: c.AUTH_LOGIN_MAX_FAILURES_PER_ADDRESS, windowSeconds: c.AUTH_LOGIN_WINDOW_SECONDS },
    defaultOrganization: { id: c.AUTH_DEFAULT_ORGANIZATION_ID, name: c.AUTH_DEFAULT_ORGANIZATION_NAME },
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
    limiter: new WorkLimiter(c.AUTH_HASH_CONCURRENCY, c.AUTH_HASH_QUEUE),
    dummyHash: await bcrypt.hash(randomBytes(24).toString('base64'), settings.bcryptCost),
    clock: () => new Date(),
    newId: randomUUID,
    logger,
    metrics: authMetrics(registry),
  };
}
