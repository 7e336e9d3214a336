// What the engine and the worker share: models, outbox, spool, topics, and the one write path that
// changes a job row together with its stored event and outbox stamp (one single-document update).
import { randomUUID } from 'node:crypto';
import type { FilterQuery, UpdateQuery } from 'mongoose';
import { EVENT_TYPES } from '../../../../kafka/topics.js';
import type { Logger } from '../../../kit/src/core/index.js';
import { buildEvent } from '../../../kit/src/bus/index.js';
import { createOutbox, type MongoHandle, type Outbox, type OutboxUnit } from '../../../kit/src/data/index.js';
import type { Registry } from 'prom-client';
import type { DocumentImportConfig } from '../config.js';
import { jobModels, type ImportJobRow, type JobModels, type PayloadRef } from '../store/job-models.js';
import { JOB_EVENT_TYPES, SOURCE, jobRequested, type JobEventSpec } from './events.js';
import { spoolFor, type PayloadSpool } from './spool.js';

export interface JobContext {
  config: DocumentImportConfig;
  models: JobModels;
  outbox: Outbox;
  spool: PayloadSpool;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  topics: { jobs: string; events: string };
  /** Tells this process's live listeners that a job changed (other processes poll). */
  changed: (jobId: string) => void;
}

export interface ContextOptions {
  config: DocumentImportConfig;
  db: MongoHandle;
  logger: Logger;
  metrics?: Registry;
  clock?: () => Date;
  newId?: () => string;
}

export function createJobContext(opts: ContextOptions): JobContext {
  const models = jobModels(opts.db.conn);
  return {
    config: opts.config,
    models,
    outbox: createOutbox({ db: opts.db, owners: [models.ImportJob], logger: opts.logger, registry: opts.metrics }),
    spool: spoolFor(opts.config.DOCX_IMPORT_PAYLOAD_STORE, {
      dir: opts.config.DOCX_IMPORT_PAYLOAD_DIR,
      conn: opts.db.conn,
    }),
    logger: opts.logger,
    clock: opts.clock ?? (() => new Date()),
    newId: opts.newId ?? randomUUID,
    topics: { jobs: opts.config.DOCX_IMPORT_TOPIC, events: opts.config.DOCX_IMPORT_EVENTS_TOPIC },
    changed: () => undefined,
  };
}

export interface JobChange {
  set?: UpdateQuery<ImportJobRow>['$set'];
  inc?: Record<string, number>;
  push?: Record<string, unknown>;
}

function stampEvent(ctx: JobContext, unit: OutboxUnit, spec: JobEventSpec & { jobId: string; now: Date }) {
  const { jobId, now } = spec;
  const type = JOB_EVENT_TYPES[spec.name];
  const event = buildEvent({ source: SOURCE, type, subject: jobId, data: spec.data }, now, ctx.newId());
  const stamp = unit.enqueue({ topic: ctx.topics.events, event, owner: ctx.models.ImportJob, ownerId: jobId });
  return { stamp, stored: { id: event.id, type: spec.name, data: spec.data, time: now } };
}

/**
 * Updates the job matching `filter` and, in the same write, stores `spec` in its event list and
 * stamps it for the outbox. Returns the row after the update, or null when nothing matched (and
 * then no event exists either).
 */
export async function writeJob(
  ctx: JobContext,
  filter: FilterQuery<ImportJobRow> & { _id: string },
  change: JobChange,
  spec?: JobEventSpec,
): Promise<ImportJobRow | null> {
  const row = await ctx.outbox.transaction(async (unit, session) => {
    const now = ctx.clock();
    const update: Record<string, unknown> = { $set: { ...change.set, updatedAt: now } };
    if (change.inc) update.$inc = change.inc;
    const push: Record<string, unknown> = { ...change.push };
    if (spec) {
      const { stamp, stored } = stampEvent(ctx, unit, { ...spec, jobId: filter._id, now });
      Object.assign(push, stamp.update.$push, { events: stored });
    }
    if (Object.keys(push).length > 0) update.$push = push;
    return ctx.models.ImportJob.findOneAndUpdate(filter, update, { new: true, session }).lean<ImportJobRow>().exec();
  });
  if (row) ctx.changed(row._id);
  return row;
}

/** Inserts a new job with its first event inside the insert. */
export async function insertJob(ctx: JobContext, row: ImportJobRow, spec: JobEventSpec): Promise<void> {
  await ctx.outbox.transaction(async (unit, session) => {
    const { stamp, stored } = stampEvent(ctx, unit, { ...spec, jobId: row._id, now: row.createdAt });
    await ctx.models.ImportJob.create([{ ...row, events: [stored], ...stamp.fields }], { session });
  });
  ctx.changed(row._id);
}

/** Puts the run's work item on the queue (through the outbox, owned by the job row). */
export async function enqueueWork(ctx: JobContext, job: ImportJobRow, payload: PayloadRef): Promise<void> {
  await ctx.outbox.transaction(async (unit, session) => {
    const event = buildEvent(
      { source: SOURCE, type: EVENT_TYPES.docxImportJobRequested, subject: job._id, data: jobRequested(job, payload) },
      ctx.clock(),
      ctx.newId(),
    );
    const stamp = unit.enqueue({ topic: ctx.topics.jobs, event, owner: ctx.models.ImportJob, ownerId: job._id });
    await ctx.models.ImportJob.updateOne({ _id: job._id, run: job.run }, stamp.update, { session }).exec();
  });
}
