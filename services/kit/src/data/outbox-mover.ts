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

const freeToClaim = (now: Date): Document => ({
  '_outbox.0': { $exists: true },
  $or: [{ _outboxClaim: null }, { '_outboxClaim.until': { $lt: now } }],
});

function claimFilter(ownerId: unknown, now: Date): Document {
  return { _id: ownerId, ...freeToClaim(now) };
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

/** Index of the first entry an ordered insertMany refused as a duplicate; else the error again. */
function duplicateAt(err: unknown): number {
  const writeErrors = (err as { writeErrors?: Array<{ index: number; code?: number }> }).writeErrors ?? [];
  const first = writeErrors[0];
  if (first?.code === 11000 || (first && isDuplicateKey(err))) return first.index;
  throw err;
}

async function insertEntries(ctx: MoverContext, stamps: OutboxStampRow[]): Promise<number> {
  if (stamps.length === 0) return 0;
  const first = await allocateSeq(ctx, stamps.length);
  const now = ctx.now();
  let rest = stamps.map((stamp, i) => toEntry(stamp, first + i, now) as unknown as Document);
  let inserted = 0;
  // Ordered, so a key's later entry never exists before its earlier one; an entry already there
  // (a stamp moved twice) is skipped and the rest go on.
  while (rest.length > 0) {
    try {
      await ctx.models.Entry.collection.insertMany(rest, { ordered: true });
      return inserted + rest.length;
    } catch (err) {
      const at = duplicateAt(err);
      inserted += at;
      rest = rest.slice(at + 1);
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
 * Moves the stamps of many owner documents of one collection in a few round trips instead of
 * four per document: claim every free one at once, read what they hold, insert all entries in
 * one ordered batch, then pull exactly what was read and release each claim in one bulk write.
 * Documents another mover held, and those that got a stamp meanwhile, go through moveStamps.
 */
export async function moveStampsOfMany(ctx: MoverContext, owner: Collection, ownerIds: unknown[]): Promise<number> {
  if (ownerIds.length <= 1) return ownerIds.length === 1 ? moveStamps(ctx, owner, ownerIds[0]) : 0;
  const me = randomUUID();
  const now = ctx.now();
  const claim = { by: me, until: new Date(now.getTime() + ctx.claimMs) };
  const ids: Document = { $in: ownerIds };
  await owner.updateMany({ _id: ids, ...freeToClaim(now) } as Document, { $set: { _outboxClaim: claim } });
  const docs = (await owner
    .find({ _id: ids, '_outboxClaim.by': me } as Document, { projection: { _outbox: 1 } })
    .toArray()) as OwnerDoc[];
  let moved = await insertEntries(
    ctx,
    docs.flatMap((d) => coalesceStamps(d._outbox ?? [])),
  );
  if (docs.length > 0) {
    const release = docs.map((d) => ({
      updateOne: {
        filter: { _id: d._id, '_outboxClaim.by': me },
        update: {
          $pull: { _outbox: { id: { $in: (d._outbox ?? []).map((s) => s.id) } } },
          $unset: { _outboxClaim: '' },
        },
      },
    }));
    await owner.bulkWrite(release as never, { ordered: false });
  }
  const holding = await owner
    .find({ _id: ids, '_outbox.0': { $exists: true } } as Document, { projection: { _id: 1 } })
    .toArray();
  for (const d of holding) moved += await moveStamps(ctx, owner, d._id);
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
