import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { topicsProducedBy } from '../../../kafka/topics.js';
import type { Subscription } from '../../kit/src/bus/index.js';
import { createOutbox, startOutboxRelay, syncIndexes, type OutboxRelay } from '../../kit/src/data/index.js';
import { type ServiceDefinition, appOptions } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { analyticsConfigSchema, type AnalyticsConfig } from './config.js';
import { consumeAttemptGraded } from './consumer.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { analyticsModels } from './store/models.js';

export interface BuiltAnalytics {
  app: Express;
  deps: AnalyticsDeps;
  relay?: OutboxRelay;
  consumer?: Subscription;
  stoppers: Array<() => Promise<unknown>>;
}

/** The analytics service as the kit starts it: main.ts runs it, tests start it in-process. */
export const analyticsService: ServiceDefinition<AnalyticsConfig, BuiltAnalytics> = {
  name: SERVICE_NAME,
  configSchema: analyticsConfigSchema,
  async build(ctx) {
    const { config, logger, db, bus, metrics } = ctx;
    const models = analyticsModels(db.conn);
    const outbox = createOutbox({ db, owners: [models.AlertState], logger, registry: metrics });
    const deps: AnalyticsDeps = { models, outbox, logger, clock: () => new Date(), newId: randomUUID };
    const app = buildApp(deps, { conn: db.conn, ...appOptions(ctx) });
    // After buildApp: the Idempotency-Key records' model registers there and needs its unique index.
    await syncIndexes(db.conn);
    if (config.OUTBOX_PUBLISHER === 'kafka' && !bus) throw new Error('OUTBOX_PUBLISHER=kafka needs KAFKA_BROKERS');
    if (!bus) return { app, deps, stoppers: [] };
    await bus.ensureTopics(topicsProducedBy(SERVICE_NAME));
    const relay = startOutboxRelay(config.OUTBOX_PUBLISHER, { outbox, publish: bus.publish });
    const consumer =
      config.ANALYTICS_CONSUMER === 'on'
        ? await consumeAttemptGraded(deps, bus, config.ANALYTICS_CONSUMER_GROUP)
        : undefined;
    const stoppers: Array<() => Promise<unknown>> = [];
    if (consumer) stoppers.push(() => consumer.stop());
    if (relay) stoppers.push(() => relay.stop());
    return { app, deps, relay, consumer, stoppers };
  },
};
