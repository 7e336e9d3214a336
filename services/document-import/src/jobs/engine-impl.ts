import { TOPICS, topicSpec } from '../../../../kafka/topics.js';
import type { TopicDeclaration } from '../../../kit/src/core/index.js';
import type { EventBus } from '../../../kit/src/bus/index.js';
import { startOutboxRelay, type OutboxRelay } from '../../../kit/src/data/index.js';
import type { DocumentImportConfig } from '../config.js';
import { createJobContext, type JobContext } from './context.js';
import type { CompletedHook, JobEngine, JobEngineOptions } from './engine-types.js';
import { createLiveFeed } from './live.js';
import { registerJobMetrics } from './metrics.js';
import { getJob, jobEvents, jobStatus, listJobs, queueOf } from './queries.js';
import { recoverJobs } from './recover.js';
import { findApproval, recordApproval, recordAutoApprovalFailure, saveReview } from './review.js';
import { findReplay, reprocessJob, submitJob } from './submit.js';

/** The engine's internals, for the worker in the same codebase (never for routes). */
export interface EngineInternals {
  ctx: JobContext;
  completedHooks: CompletedHook[];
}

const internals = new WeakMap<JobEngine, EngineInternals>();

export function internalsOf(engine: JobEngine): EngineInternals {
  const found = internals.get(engine);
  if (!found) throw new Error('not an engine made by createJobEngine');
  return found;
}

/** The topics the engine and workers produce, named by config, shaped by kafka/topics.json. */
export function engineTopics(config: DocumentImportConfig): TopicDeclaration[] {
  const jobs = topicSpec(TOPICS.docxImportJobs);
  const dlq = topicSpec(TOPICS.docxImportJobsDlq);
  const events = topicSpec(TOPICS.docxImportJobEvents);
  return [
    { name: config.DOCX_IMPORT_TOPIC, partitions: jobs.partitions, cleanupPolicy: jobs.cleanupPolicy },
    { name: `${config.DOCX_IMPORT_TOPIC}.dlq`, partitions: dlq.partitions, cleanupPolicy: dlq.cleanupPolicy },
    { name: config.DOCX_IMPORT_EVENTS_TOPIC, partitions: events.partitions, cleanupPolicy: events.cleanupPolicy },
  ];
}

function startRelay(ctx: JobContext, bus: EventBus | undefined): OutboxRelay | undefined {
  if (!bus) return undefined;
  return startOutboxRelay(ctx.config.OUTBOX_PUBLISHER, { outbox: ctx.outbox, publish: bus.publish });
}

export async function buildEngine(opts: JobEngineOptions): Promise<JobEngine> {
  const ctx = createJobContext(opts);
  await ctx.models.ImportJob.createIndexes();
  await ctx.models.FastJobKey.createIndexes();
  if (opts.bus) await opts.bus.ensureTopics(engineTopics(opts.config));
  const live = createLiveFeed(ctx, opts.config.DOCX_IMPORT_LIVE_POLL_MS);
  ctx.changed = (id) => live.changed(id);
  const relay = startRelay(ctx, opts.bus);
  // Only the API process passes a registry (worker/main.ts passes none: workers are not scraped).
  if (opts.metrics) registerJobMetrics(ctx, opts.metrics);
  const completedHooks: CompletedHook[] = [];
  const engine: JobEngine = {
    submitUpload: (scope, input) => submitJob(ctx, scope, input),
    findReplay: (scope, idempotencyKey, storageKey, now) =>
      findReplay(ctx, scope, { idempotencyKey, storageKey }, now ?? ctx.clock()),
    reprocess: (scope, id, source) => reprocessJob(ctx, scope, id, source),
    get: (scope, id) => getJob(ctx, scope, id),
    list: (scope, filters, paging) => listJobs(ctx, scope, filters, paging),
    status: (scope, id) => jobStatus(ctx, scope, id),
    queueOf: (job) => queueOf(ctx, job),
    saveReview: (scope, id, input) => saveReview(ctx, scope, id, input),
    findApproval: (scope, id, key) => findApproval(ctx, scope, id, key),
    recordApproval: (scope, id, approval) => recordApproval(ctx, scope, id, approval),
    recordAutoApprovalFailure: (id, error) => recordAutoApprovalFailure(ctx, id, error),
    events: (scope, id) => jobEvents(ctx, scope, id),
    subscribe: (jobId, listener) => live.subscribe(jobId, listener),
    recover: () => recoverJobs(ctx),
    onCompleted: (hook) => void completedHooks.push(hook),
    async close() {
      live.close();
      await relay?.stop();
    },
  };
  internals.set(engine, { ctx, completedHooks });
  return engine;
}
