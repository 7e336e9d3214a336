// Moves stamps from owner documents into the outbox collection. Safe to run from any number of
// processes at once: a claim on the owner document serialises movers per document (so a key's
// entries get their `seq` in owner-write order), and the entry id is the event id, so a stamp
// moved twice (a mover that crashed after the insert, before the pull) is inserted once.
import { randomUUID } from 'node:crypto';
import type { Collection, Document } from 'mongodb';
import { isDuplicateKey } from './mongo.js';
import type { OutboxEntryRow, OutboxModels, OutboxStampRow } from './outbox-model.js';
import { coalesceStamps } from './outbox-plan.js';

export interface MoverContext {
  models: OutboxModels;
  now: () => Date;
  /** How long a claim on an owner document holds if its mover dies. */
  claimMs: number;
}

interface OwnerDoc {
  _id: unknown;
  _outbox?: OutboxStampRow[];
}

const MAX_ROUNDS = 5;

function claimFilter(ownerId: unknown, now: Date): Document {
  return {
    _id: ownerId,
    '_outbox.0': { $exists: true },
    $or: [{ _outboxClaim: null }, { '_outboxClaim.until': { $lt: now } }],
  };
}

async function allocateSeq(ctx: MoverContext, count: number): Promise<number> {
  const counter = await ctx.models.Counter.collection.findOneAndUpdate(
    { _id: 'seq' } as Document,
    { $inc: { value: count } },
    { upsert: true, returnDocument: 'after' },
  );
  const last = (counter as { value?: number } | null)?.value;
  if (typeof last !== 'number') throw new Error('outbox: sequence counter returned no value');
  return last - count + 1;
}

function toEntry(stamp: OutboxStampRow, seq: number, now: Date): OutboxEntryRow {
  return {
    _id: stamp.id,
    topic: stamp.topic,
    key: stamp.key,
    seq,
    envelope: stamp.v,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lease: null,
    leaseUntil: null,
    lastError: null,
    createdAt: stamp.at,
    publishedAt: null,
  };
}

async function insertEntries(ctx: MoverContext, stamps: OutboxStampRow[]): Promise<number> {
  const first = await allocateSeq(ctx, stamps.length);
  const now = ctx.now();
  let inserted = 0;
  // One by one and in order: a key's later entry must never exist before its earlier one.
  for (const [i, stamp] of stamps.entries()) {
    try {
      await ctx.models.Entry.collection.insertOne(toEntry(stamp, first + i, now) as unknown as Document);
      inserted += 1;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  return inserted;
}

/**
 * Moves every stamp of one owner document into the outbox; returns how many entries it created.
 * If another mover holds the document, returns 0: every mover releases the document with the same
 * atomic update that reads it, and goes round again if a stamp arrived meanwhile, so a stamp
 * written while the document was held is not left behind.
 */
export async function moveStamps(ctx: MoverContext, owner: Collection, ownerId: unknown): Promise<number> {
  const me = randomUUID();
  let moved = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const doc = (await owner.findOneAndUpdate(
      claimFilter(ownerId, ctx.now()),
      { $set: { _outboxClaim: { by: me, until: new Date(ctx.now().getTime() + ctx.claimMs) } } },
      { returnDocument: 'after', projection: { _outbox: 1 } },
    )) as OwnerDoc | null;
    const stamps = doc?._outbox ?? [];
    if (stamps.length === 0) return moved;
    moved += await insertEntries(ctx, coalesceStamps(stamps));
    // Pull exactly what was read (stamps written meanwhile stay) and release in one update.
    const after = (await owner.findOneAndUpdate(
      { _id: ownerId, '_outboxClaim.by': me } as Document,
      { $pull: { _outbox: { id: { $in: stamps.map((s) => s.id) } } }, $unset: { _outboxClaim: '' } } as Document,
      { returnDocument: 'after', projection: { _outbox: 1 } },
    )) as OwnerDoc | null;
    if ((after?._outbox ?? []).length === 0) return moved;
  }
  return moved;
}

/**
 * Finds owner documents holding stamps older than `olderThan` (a unit that crashed after its
 * owner write, before it moved its stamps) and moves them. Returns how many entries it created.
 */
export async function sweepOwner(ctx: MoverContext, owner: Collection, olderThan: Date, limit = 100): Promise<number> {
  const docs = await owner.find({ '_outbox.at': { $lt: olderThan } }, { projection: { _id: 1 }, limit }).toArray();
  let moved = 0;
  for (const d of docs) moved += await moveStamps(ctx, owner, d._id);
  return moved;
}
