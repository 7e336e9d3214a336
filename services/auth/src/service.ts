import { topicsProducedBy } from '../../../kafka/topics.js';
import { assertTokenSecretSafe } from '../../kit/src/core/index.js';
import { startOutboxRelay, type OutboxRelay } from '../../kit/src/data/index.js';
import type { ServiceDefinition } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { authConfigSchema, type AuthConfig } from './config.js';
import type { AuthDeps } from './domain/deps.js';
import { createAuthDeps } from './wiring.js';

export interface BuiltAuth {
  app: ReturnType<typeof buildApp>;
  deps: AuthDeps;
  relay?: OutboxRelay;
  stoppers: Array<() => Promise<unknown>>;
}

/** The auth service as the kit starts it: main.ts runs it, tests start it in-process. */
export const authService: ServiceDefinition<AuthConfig, BuiltAuth> = {
  name: SERVICE_NAME,
  configSchema: authConfigSchema,
  // The development secret, or a short one, stops a production start (one line naming the variable).
  checkConfig: assertTokenSecretSafe,
  async build({ config, logger, db, metrics, readiness, checks, bus }) {
    const deps = await createAuthDeps(db, config, logger, metrics);
    logger.info({ bcryptCost: config.AUTH_BCRYPT_COST }, 'auth settings');
    const app = buildApp(deps, {
      metrics,
      readiness,
      checks,
      internalToken: config.INTERNAL_API_TOKEN,
      metricsToken: config.METRICS_TOKEN,
      trustProxy: config.TRUST_PROXY,
    });
    if (config.OUTBOX_PUBLISHER === 'kafka' && !bus) throw new Error('OUTBOX_PUBLISHER=kafka needs KAFKA_BROKERS');
    if (bus) await bus.ensureTopics(topicsProducedBy(SERVICE_NAME));
    const relay = bus
      ? startOutboxRelay(config.OUTBOX_PUBLISHER, { outbox: deps.outbox, publish: bus.publish })
      : undefined;
    return { app, deps, relay, stoppers: relay ? [() => relay.stop()] : [] };
  },
};
