import { topicSpec, topicsProducedBy } from '../../../kafka/topics.js';
import type { Subscription } from '../../kit/src/bus/index.js';
import { consumeTopic, syncIndexes } from '../../kit/src/data/index.js';
import { appOptions, type BuiltWith, type ServiceDefinition } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { userConfigSchema, type UserConfig } from './config.js';
import type { UserDeps } from './domain/deps.js';
import { USER_CHANGED_TOPIC, userChangedHandler } from './events.js';
import { userModels } from './store/models.js';

export type BuiltUser = BuiltWith<UserDeps, { subscription?: Subscription }>;

/** The user service as the kit starts it: main.ts runs it, tests start it in-process. */
export const userService: ServiceDefinition<UserConfig, BuiltUser> = {
  name: SERVICE_NAME,
  configSchema: userConfigSchema,
  async build(ctx) {
    const { config, logger, db, bus } = ctx;
    const models = userModels(db.conn);
    await syncIndexes(db.conn);
    const deps: UserDeps = { db, models, logger, clock: () => new Date() };
    const app = buildApp(deps, appOptions(ctx));
    if (!bus) return { app, deps, stoppers: [] };
    await bus.ensureTopics(topicsProducedBy(SERVICE_NAME));
    // From the beginning: a new group reads the compacted topic whole, which is the backfill. The
    // consumed topic is ensured too: the user service may start before auth ever did.
    const subscription = await consumeTopic(bus, db, {
      topic: USER_CHANGED_TOPIC,
      ensure: topicSpec(USER_CHANGED_TOPIC),
      groupId: config.USER_EVENTS_GROUP,
      fromBeginning: true,
      processedAs: 'user',
      handle: userChangedHandler(deps),
    });
    return { app, deps, subscription, stoppers: [() => subscription.stop()] };
  },
};
