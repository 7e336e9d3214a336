import { timeOrderedIds } from '../../kit/src/core/index.js';
import type { Subscription } from '../../kit/src/bus/index.js';
import { syncIndexes } from '../../kit/src/data/index.js';
import { appOptions, type BuiltWith, type ServiceDefinition } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { notificationConfigSchema, type NotificationConfig } from './config.js';
import { startWeakTopicConsumer } from './consumer.js';
import type { NotificationDeps } from './domain/deps.js';
import { notificationModels } from './store/models.js';

export type BuiltNotification = BuiltWith<NotificationDeps, { consumer?: Subscription }>;

/** The notification service as the kit starts it: main.ts runs it, tests start it in-process. */
export const notificationService: ServiceDefinition<NotificationConfig, BuiltNotification> = {
  name: SERVICE_NAME,
  configSchema: notificationConfigSchema,
  async build(ctx) {
    const { config, logger, db, bus } = ctx;
    const models = notificationModels(db.conn);
    await syncIndexes(db.conn);
    const deps: NotificationDeps = { models, logger, clock: () => new Date(), newId: timeOrderedIds() };
    const app = buildApp(deps, appOptions(ctx));
    const consumer =
      bus && config.NOTIFICATION_CONSUMER === 'kafka'
        ? await startWeakTopicConsumer(deps, bus, {
            topic: config.NOTIFICATION_WEAK_TOPIC_TOPIC,
            groupId: config.NOTIFICATION_CONSUMER_GROUP,
            sessionTimeoutMs: config.NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS,
            logger,
          })
        : undefined;
    return { app, deps, consumer, stoppers: consumer ? [() => consumer.stop()] : [] };
  },
};
