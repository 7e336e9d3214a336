import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import type { Collection } from 'mongodb';
import type { ClientSession, Schema } from 'mongoose';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { PlatformEvent } from '../bus/index.js';
import type { Logger } from '../core/index.js';
import { withTransaction, type MongoHandle } from './mongo.js';
import { hasOutboxPaths, outboxModels, type OutboxModels, type OutboxStampRow } from './outbox-model.js';
import { moveStampsOfMany, sweepOwner, type MoverContext } from './outbox-mover.js';

/** A mongoose model whose schema went through `outboxOwnerPlugin` (structural, any row type). */
export interface OutboxOwner {
  modelName: string;
  schema: Schema;
  collection: Collection;
}

/** `OUTBOX_PUBLISHER`: `none` (default) leaves entries waiting, `kafka` runs the relay. */
export const outboxConfig = {
  OUTBOX_PUBLISHER: Joi.string().valid('none', 'kafka').default('none'),
};

export interface OutboxOptions {
  db: MongoHandle;
  /** Every model whose documents carry stamps: the relay's sweeper scans them. */
  owners: readonly OutboxOwner[];
  logger: Logger;
  /** Where the outbox gauges and counters go (the service's /metrics registry). */
  registry?: Registry;
  now?: () => Date;
  /** How long a mover's claim on an owner document holds if the mover dies (default 10 s). */
  claimMs?: number;
}

export interface EnqueueInput<T> {
  topic: string;
  /** The envelope from `buildEvent`; it is stored serialized and published byte for byte. */
  event: PlatformEvent<T>;
  /** The owner document whose write announces the event: its model and `_id`. */
  owner: OutboxOwner;
  ownerId: unknown;
  /** The Kafka key, the aggregate id; defaults to `event.subject`. */
  key?: string;
}

/** What the owner write must carry: `update` for an update, `fields` spread into an insert. */
export interface OutboxStamp {
  update: { $push: { _outbox: OutboxStampRow } };
  fields: { _outbox: OutboxStampRow[] };
}

/** One unit of work: one `outbox.transaction` call. */
export interface OutboxUnit {
  readonly token: string;
  /**
   * Makes the stamp for one event. Put it into the owner write that the event announces (the
   * same single-document update), e.g. `Model.updateOne(filter, { $set, ...stamp.update }, { session })`.
   * Several events for one key in one unit coalesce into one entry carrying the last one.
   */
  enqueue<T>(input: EnqueueInput<T>): OutboxStamp;
}

export interface OutboxMetrics {
  published: Counter;
  dead: Counter;
}

export interface Outbox {
  readonly models: OutboxModels;
  readonly owners: readonly OutboxOwner[];
  readonly logger: Logger;
  readonly metrics: OutboxMetrics | undefined;
  readonly now: () => Date;
  /**
   * Runs `fn` through the kit's `withTransaction` with a unit of work, then moves the unit's stamps
   * from the owner documents into the outbox collection. Also after `fn` throws: without a
   * transaction the writes made before the throw stay, and so must their events.
   */
  transaction<T>(fn: (unit: OutboxUnit, session: ClientSession | undefined) => Promise<T>): Promise<T>;
  /** Moves stamps older than `olderThan` (units that died between their owner write and the move). */
  sweep(olderThan: Date): Promise<number>;
  /** Called after a unit moved entries in this process (the local relay wakes up). */
  onMoved(listener: () => void): void;
}

function createMetrics(registry: Registry, models: OutboxModels): OutboxMetrics {
  const { Entry } = models;
  new Gauge({
    name: 'outbox_pending_entries',
    help: 'Outbox entries waiting to be published',
    registers: [registry],
    async collect() {
      this.set(await Entry.countDocuments({ status: 'pending' }).catch(() => NaN));
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest outbox entry waiting to be published (0 when none)',
    registers: [registry],
    async collect() {
      const oldest = await Entry.findOne({ status: 'pending' }, { createdAt: 1 })
        .sort({ seq: 1 })
        .lean()
        .catch(() => undefined);
      if (oldest === undefined) return this.set(NaN);
      this.set(oldest ? Math.max(0, (Date.now() - oldest.createdAt.getTime()) / 1000) : 0);
    },
  });
  return {
    published: new Counter({ name: 'outbox_published_total', help: 'Outbox entries published', registers: [registry] }),
    dead: new Counter({ name: 'outbox_dead_total', help: 'Outbox entries given up (dead)', registers: [registry] }),
  };
}

function makeStamp<T>(token: string, input: EnqueueInput<T>, at: Date): OutboxStampRow {
  const key = input.key ?? input.event.subject;
  if (!input.topic || !key || !input.event.id) throw new Error('outbox: enqueue needs a topic, a key and an event id');
  return { u: token, id: input.event.id, topic: input.topic, key, v: JSON.stringify(input.event), at };
}

/**
 * The transactional outbox of one service's database.
 *
 * Design: an event travels inside its owner document. `unit.enqueue` returns a stamp that the
 * service puts into the very update that changes the owner document, so the change and its event
 * are one single-document write, atomic on any MongoDB server, with or without transactions: if
 * the write happened the event is stored, if it did not there is no event. After the unit, the
 * stamps are moved into the `outbox` collection (entry id = event id, so moving twice inserts
 * once; a per-document claim orders a key's entries as its owner writes). A unit that dies
 * between its owner write and the move leaves the stamp in the owner document, where the relay's
 * sweeper finds it. On a replica set `fn` runs in a real transaction and the same code applies.
 * Ordering is per owner document: keep one key's events on one (aggregate root) document.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  for (const owner of opts.owners) {
    if (!hasOutboxPaths(owner as never)) throw new Error(`outbox: ${owner.modelName} lacks outboxOwnerPlugin`);
  }
  const models = outboxModels(opts.db.conn);
  const now = opts.now ?? (() => new Date());
  const ctx: MoverContext = { models, now, claimMs: opts.claimMs ?? 10000 };
  const listeners: Array<() => void> = [];
  const metrics = opts.registry ? createMetrics(opts.registry, models) : undefined;

  async function moveTouched(touched: Map<string, { owner: OutboxOwner; id: unknown }>): Promise<void> {
    let moved = 0;
    const byOwner = new Map<OutboxOwner, unknown[]>();
    for (const t of touched.values()) byOwner.set(t.owner, [...(byOwner.get(t.owner) ?? []), t.id]);
    try {
      for (const [owner, ids] of byOwner) moved += await moveStampsOfMany(ctx, owner.collection, ids);
    } catch (err) {
      // The owner write stands and its stamp waits in the document: the sweeper will move it.
      opts.logger.warn({ err }, 'outbox: moving stamps failed; the sweeper will retry');
    }
    if (moved > 0) listeners.forEach((l) => l());
  }

  return {
    models,
    owners: opts.owners,
    logger: opts.logger,
    metrics,
    now,
    async transaction(fn) {
      const token = randomUUID();
      const touched = new Map<string, { owner: OutboxOwner; id: unknown }>();
      const unit: OutboxUnit = {
        token,
        enqueue(input) {
          const stamp = makeStamp(token, input, now());
          touched.set(`${input.owner.modelName}\u0000${String(input.ownerId)}`, {
            owner: input.owner,
            id: input.ownerId,
          });
          return { update: { $push: { _outbox: stamp } }, fields: { _outbox: [stamp] } };
        },
      };
      try {
        return await withTransaction(opts.db, (session) => fn(unit, session));
      } finally {
        await moveTouched(touched);
      }
    },
    async sweep(olderThan) {
      let moved = 0;
      for (const owner of opts.owners) moved += await sweepOwner(ctx, owner.collection, olderThan);
      if (moved > 0) listeners.forEach((l) => l());
      return moved;
    },
    onMoved(listener) {
      listeners.push(listener);
    },
  };
}
