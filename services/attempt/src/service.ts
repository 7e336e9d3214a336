import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { topicsProducedBy } from '../../../kafka/topics.js';
import { createOutbox, startOutboxRelay, syncIndexes, type OutboxRelay } from '../../kit/src/data/index.js';
import { type ServiceDefinition, appOptions } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { attemptConfigSchema, type AttemptConfig } from './config.js';
import type { AttemptDeps } from './domain/deps.js';
import { startSweeper, type Sweeper } from './domain/sweeper.js';
import { attemptStore } from './store/attempt-store.js';
import { attemptModels } from './store/models.js';

export interface BuiltAttempt {
  app: Express;
  deps: AttemptDeps;
  sweeper: Sweeper;
  relay?: OutboxRelay;
  stoppers: Array<() => Promise<unknown>>;
}

/** The attempt service as the kit starts it: main.ts runs it, tests start it in-process. */
export const attemptService: ServiceDefinition<AttemptConfig, BuiltAttempt> = {
  name: SERVICE_NAME,
  configSchema: attemptConfigSchema,
  async build(ctx) {
    const { config, logger, db, bus, metrics } = ctx;
    const models = attemptModels(db.conn);
    await syncIndexes(db.conn);
    const outbox = createOutbox({ db, owners: [models.Attempt], logger, registry: metrics });
    const deps: AttemptDeps = {
      models,
      store: attemptStore(models),
      outbox,
      logger,
      clock: () => new Date(),
      newId: randomUUID,
    };
    const app = buildApp(deps, appOptions(ctx));
    if (config.OUTBOX_PUBLISHER === 'kafka' && !bus) throw new Error('OUTBOX_PUBLISHER=kafka needs KAFKA_BROKERS');
    if (bus) await bus.ensureTopics(topicsProducedBy(SERVICE_NAME));
    const relay = bus ? startOutboxRelay(config.OUTBOX_PUBLISHER, { outbox, publish: bus.publish }) : undefined;
    const sweeper = startSweeper(deps, config.ATTEMPT_SWEEP_INTERVAL_MS, config.ATTEMPT_SWEEP_BATCH);
    const stoppers: Array<() => Promise<unknown>> = [() => sweeper.stop()];
    if (relay) stoppers.push(() => relay.stop());
    return { app, deps, sweeper, relay, stoppers };
  },
};
