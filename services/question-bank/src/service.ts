import type { Express } from 'express';
import { topicsProducedBy } from '../../../kafka/topics.js';
import { timeOrderedIds, guardTokens, importGrantKey } from '../../kit/src/core/index.js';
import { createOutbox, startOutboxRelay, syncIndexes, type OutboxRelay } from '../../kit/src/data/index.js';
import type { ServiceDefinition } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { questionBankConfigSchema, type QuestionBankConfig } from './config.js';
import { createDeletionRunner } from './domain/deletion/runner.js';
import type { QuestionBankDeps } from './domain/deps.js';
import { jobStreams } from './routes/deletion.js';
import { aiPreviewModels } from './store/ai-preview-models.js';
import { catalogModels } from './store/catalog-models.js';
import { deletionModels } from './store/deletion-models.js';
import { ingestModels } from './store/ingest-models.js';
import { questionModels } from './store/question-models.js';

export interface BuiltQuestionBank {
  app: Express;
  deps: QuestionBankDeps;
  relay?: OutboxRelay;
  beforeDrain?: Array<() => void>;
  stoppers: Array<() => Promise<unknown>>;
}

/** The question bank as the kit starts it: main.ts runs it, tests start it in-process. */
export const questionBankService: ServiceDefinition<QuestionBankConfig, BuiltQuestionBank> = {
  name: SERVICE_NAME,
  configSchema: questionBankConfigSchema,
  async build({ config, logger, db, metrics, readiness, checks, bus }) {
    const models = {
      ...questionModels(db.conn),
      ...catalogModels(db.conn),
      ...deletionModels(db.conn),
      ...aiPreviewModels(db.conn),
      ...ingestModels(db.conn),
    };
    await syncIndexes(db.conn);
    const outbox = createOutbox({ db, owners: [models.Question], logger, registry: metrics });
    const deps: QuestionBankDeps = { db, models, outbox, logger, clock: () => new Date(), newId: timeOrderedIds() };
    if (config.INTERNAL_API_TOKEN) deps.importGrantKey = importGrantKey(config.INTERNAL_API_TOKEN);
    deps.deletion = createDeletionRunner(deps);
    const app = buildApp(deps, { metrics, readiness, checks, ...guardTokens(config) });
    if (config.OUTBOX_PUBLISHER === 'kafka' && !bus) throw new Error('OUTBOX_PUBLISHER=kafka needs KAFKA_BROKERS');
    if (bus) await bus.ensureTopics(topicsProducedBy(SERVICE_NAME));
    const relay = bus ? startOutboxRelay(config.OUTBOX_PUBLISHER, { outbox, publish: bus.publish }) : undefined;
    const stoppers = relay ? [() => relay.stop()] : [];
    // Jobs left running or pending by a stopped or crashed instance are resumed from here.
    deps.deletion.start();
    stoppers.unshift(() => deps.deletion!.stop());
    return { app, deps, relay, stoppers, beforeDrain: [() => void jobStreams(deps).closeAll()] };
  },
};
