import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongodb';
import { cloudEventHeaders } from '../bus/index.js';
import type { BusMessage } from '../bus/index.js';
import type { Outbox } from './outbox.js';
import type { OutboxEntryRow } from './outbox-model.js';
import {
  afterFailure,
  byTopic,
  heldPrefix,
  selectDue,
  type BackoffPolicy,
  type RelayWindowEntry,
} from './outbox-plan.js';

export interface OutboxRelayOptions {
  outbox: Outbox;
  /** Sends one topic's messages in order (the bus's `publish`); injected so a test can make it fail. */
  publish: (topic: string, messages: BusMessage[]) => Promise<void>;
  /** Entries per lease (default 500). */
  batchSize?: number;
  /** How long a lease holds; a crashed relay's entries become free after it (default 30 s). */
  leaseMs?: number;
  /** Idle poll period; a unit in this process wakes the relay at once (default 250 ms). */
  pollMs?: number;
  /** Sweep period and the age after which a stamp left in an owner document is moved (2 s, 5 s). */
  sweepMs?: number;
  graceMs?: number;
  /** The published log keeps entries this long (default 24 h; also a TTL index where honoured). */
  retentionMs?: number;
  /** Default: 1 s doubling to 5 min, dead after 20 failed attempts. */
  backoff?: Partial<BackoffPolicy>;
}

export interface OutboxRelay {
  start(): void;
  /** Finishes the batch in flight and stops. */
  stop(): Promise<void>;
  /** One lease-publish-mark round; returns how many entries it published. */
  runOnce(): Promise<number>;
  wake(): void;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, capMs: 300000, maxAttempts: 20 };

function toMessage(e: OutboxEntryRow): BusMessage {
  return { key: e.key, value: e.envelope, headers: cloudEventHeaders(e._id, e.envelope) };
}

function allDuplicates(err: unknown): boolean {
  const errors = (err as { writeErrors?: Array<{ code?: number }> }).writeErrors;
  const list = Array.isArray(errors) ? errors : [err as { code?: number }];
  return list.every((e) => e.code === 11000);
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 2000);
}

/**
 * The outbox relay: leases due entries, publishes each topic's batch in `seq` order keyed by the
 * aggregate id, marks them published, backs off on failure and gives up (dead, error kept) after
 * the bound. A lease is `{ lease: token, leaseUntil }` set by one conditional update per batch,
 * atomic per document, so two relays never hold one entry at once; an entry is eligible only
 * while no earlier entry of its key is unpublished (pending, leased elsewhere, or dead).
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { outbox } = opts;
  const { Entry, Published } = outbox.models;
  const batchSize = opts.batchSize ?? 500;
  const leaseMs = opts.leaseMs ?? 30000;
  const pollMs = opts.pollMs ?? 250;
  const sweepMs = opts.sweepMs ?? 2000;
  const graceMs = opts.graceMs ?? 5000;
  const retentionMs = opts.retentionMs ?? 24 * 3600 * 1000;
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...opts.backoff };
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  async function lease(now: Date): Promise<{ token: string; requested: RelayWindowEntry[]; held: OutboxEntryRow[] }> {
    const window = await Entry.find({ status: 'pending' }, { key: 1, seq: 1, nextAttemptAt: 1, leaseUntil: 1 })
      .sort({ seq: 1 })
      .limit(batchSize * 4)
      .lean<RelayWindowEntry[]>();
    const dead = new Set((await Entry.distinct('key', { status: 'dead' })).map(String));
    const ids = selectDue(window, dead, now, batchSize);
    const token = randomUUID();
    if (ids.length === 0) return { token, requested: [], held: [] };
    await Entry.updateMany(
      { _id: { $in: ids }, status: 'pending', $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
      { $set: { lease: token, leaseUntil: new Date(now.getTime() + leaseMs) } },
    );
    const held = await Entry.find({ lease: token, status: 'pending' }).sort({ seq: 1 }).lean<OutboxEntryRow[]>();
    const wanted = new Set(ids);
    return { token, requested: window.filter((e) => wanted.has(e._id)), held };
  }

  // Marking published moves the entry to the published log: the log first, so a crash in between
  // only publishes it again (an at-least-once duplicate with the same id), never drops it.
  async function markPublished(group: OutboxEntryRow[], token: string): Promise<void> {
    const publishedAt = outbox.now();
    const rows = group.map((e) => ({ ...e, status: 'published', publishedAt, lease: null, leaseUntil: null }));
    await Published.collection.insertMany(rows as never[], { ordered: false }).catch((err: unknown) => {
      if (!allDuplicates(err)) throw err;
    });
    await Entry.deleteMany({ _id: { $in: group.map((e) => e._id) }, lease: token });
    outbox.metrics?.published.inc(group.length);
  }

  async function markFailed(group: OutboxEntryRow[], token: string, err: unknown): Promise<void> {
    const now = outbox.now();
    const error = errorText(err);
    const ops: AnyBulkWriteOperation<OutboxEntryRow>[] = group.map((e) => ({
      updateOne: {
        filter: { _id: e._id, lease: token },
        update: { $set: { ...afterFailure(e, error, policy, now), lease: null, leaseUntil: null } },
      },
    }));
    await Entry.bulkWrite(ops as never);
    const dead = group.filter((e) => e.attempts + 1 >= policy.maxAttempts);
    if (dead.length > 0) {
      outbox.metrics?.dead.inc(dead.length);
      outbox.logger.error({ ids: dead.map((e) => e._id), error }, 'outbox: entries dead after the retry bound');
    } else {
      outbox.logger.warn({ count: group.length, error }, 'outbox: publish failed; backing off');
    }
  }

  async function runOnce(): Promise<number> {
    const { token, requested, held } = await lease(outbox.now());
    const { publish, release } = heldPrefix(requested, new Set(held.map((e) => e._id)));
    if (release.length > 0) {
      await Entry.updateMany(
        { _id: { $in: release.map((e) => e._id) }, lease: token },
        { $set: { lease: null, leaseUntil: null } },
      );
    }
    const ready = new Set(publish.map((e) => e._id));
    let published = 0;
    for (const [topic, group] of byTopic(held.filter((e) => ready.has(e._id)))) {
      try {
        await opts.publish(topic, group.map(toMessage));
      } catch (err) {
        await markFailed(group, token, err);
        continue;
      }
      await markPublished(group, token);
      published += group.length;
    }
    return published;
  }

  function idle(): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done(): void {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function housekeeping(state: { sweptAt: number; prunedAt: number }): Promise<void> {
    const now = outbox.now();
    if (now.getTime() - state.sweptAt >= sweepMs) {
      state.sweptAt = now.getTime();
      await outbox.sweep(new Date(now.getTime() - graceMs));
    }
    if (now.getTime() - state.prunedAt >= 60000) {
      state.prunedAt = now.getTime();
      await Published.deleteMany({ publishedAt: { $lt: new Date(now.getTime() - retentionMs) } });
    }
  }

  async function run(): Promise<void> {
    const state = { sweptAt: 0, prunedAt: 0 };
    while (running) {
      let published = 0;
      try {
        await housekeeping(state);
        published = await runOnce();
      } catch (err) {
        outbox.logger.warn({ err }, 'outbox relay round failed; retrying');
      }
      if (published < batchSize && running) await idle();
    }
  }

  const relay: OutboxRelay = {
    start() {
      if (running) return;
      running = true;
      outbox.onMoved(() => relay.wake());
      loop = run();
    },
    async stop() {
      running = false;
      relay.wake();
      await loop;
    },
    runOnce,
    wake() {
      woken = true;
      wakeUp?.();
    },
  };
  return relay;
}

/**
 * What a service's `main` calls with its `OUTBOX_PUBLISHER` value: starts and returns the relay
 * for `kafka`, returns undefined for `none` (entries then wait in the outbox).
 */
export function startOutboxRelay(publisher: string, opts: OutboxRelayOptions): OutboxRelay | undefined {
  if (publisher !== 'kafka') return undefined;
  const relay = createOutboxRelay(opts);
  relay.start();
  return relay;
}
