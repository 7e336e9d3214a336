// One process's job deps (the API's and each worker's): the store (models, outbox, spool), the live
// feed, the job gauges (API only) and, with a bus, the topics ensured and the outbox relay started.
// Routes and the worker run the same use cases over what this returns.
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { TOPICS, topicSpec } from '../../../../../kafka/topics.js';
import type { Logger, TopicDeclaration } from '../../../../kit/src/core/index.js';
import type { EventBus } from '../../../../kit/src/bus/index.js';
import { startOutboxRelay, type MongoHandle } from '../../../../kit/src/data/index.js';
import type { DocumentImportConfig } from '../../config.js';
import { changedSince, openJobStore } from '../../store/job-store.js';
import { createLiveFeed } from './live.js';
import { registerJobMetrics } from './metrics.js';
import { summaryOf } from './queries.js';
import type { JobDeps } from './types.js';

/** What the job deps are built from. */
export interface JobsOptions {
  config: DocumentImportConfig;
  db: MongoHandle;
  /** Without a bus, jobs and events are stored and wait in the outbox; nothing runs them. */
  bus?: EventBus;
  logger: Logger;
  /** Only the API process passes a registry (workers are not scraped). */
  metrics?: Registry;
  clock?: () => Date;
  newId?: () => string;
}

/** The deps and what stops them (the relay and the live poller; the bus and MongoDB are the caller's). */
export interface OpenJobs {
  deps: JobDeps;
  close(): Promise<void>;
}

/** The topics the API and the workers produce, named by config, shaped by kafka/topics.json. */
export function jobTopics(config: DocumentImportConfig): TopicDeclaration[] {
  const jobs = topicSpec(TOPICS.docxImportJobs);
  const dlq = topicSpec(TOPICS.docxImportJobsDlq);
  const events = topicSpec(TOPICS.docxImportJobEvents);
  return [
    { name: config.DOCX_IMPORT_TOPIC, partitions: jobs.partitions, cleanupPolicy: jobs.cleanupPolicy },
    { name: `${config.DOCX_IMPORT_TOPIC}.dlq`, partitions: dlq.partitions, cleanupPolicy: dlq.cleanupPolicy },
    { name: config.DOCX_IMPORT_EVENTS_TOPIC, partitions: events.partitions, cleanupPolicy: events.cleanupPolicy },
  ];
}

/** Opens the store, builds the deps and starts what runs beside them. */
export async function openJobs(opts: JobsOptions): Promise<OpenJobs> {
  const { config, logger } = opts;
  const store = await openJobStore({
    db: opts.db,
    logger,
    metrics: opts.metrics,
    payloadStore: config.DOCX_IMPORT_PAYLOAD_STORE,
    payloadDir: config.DOCX_IMPORT_PAYLOAD_DIR,
  });
  if (opts.bus) await opts.bus.ensureTopics(jobTopics(config));
  const clock = opts.clock ?? (() => new Date());
  const source = {
    changedSince: (since: Date, limit: number) => changedSince(store, since, limit),
    summarize: (row: Parameters<typeof summaryOf>[1]) => summaryOf(deps, row),
    clock,
    logger,
  };
  const live = createLiveFeed(source, config.DOCX_IMPORT_LIVE_POLL_MS);
  const deps: JobDeps = {
    store,
    config,
    logger,
    clock,
    newId: opts.newId ?? randomUUID,
    topics: { jobs: config.DOCX_IMPORT_TOPIC, events: config.DOCX_IMPORT_EVENTS_TOPIC },
    live,
  };
  const relay = opts.bus
    ? startOutboxRelay(config.OUTBOX_PUBLISHER, { outbox: store.outbox, publish: opts.bus.publish })
    : undefined;
  if (opts.metrics) registerJobMetrics(deps, opts.metrics);
  return {
    deps,
    async close() {
      live.close();
      await relay?.stop();
    },
  };
}
