import { isDuplicateKey } from '../../../kit/src/data/index.js';
import type { AuthModels, ThrottleDocRow } from './models.js';

/** Failures counted under one key, forgotten after a quiet window (the row's expiry). */
export interface ThrottleRow {
  count: number;
  /** The last failure, or the last attempt admitted while in backoff (its claim). */
  lastAt: Date;
  expiresAt: Date;
}

/** One fixed window of one key: its document id and its bounds. */
export interface WindowRef {
  id: string;
  start: Date;
  end: Date;
}

export async function readThrottles(m: AuthModels, keys: string[]): Promise<Map<string, ThrottleRow>> {
  const rows = await m.Throttle.find({ _id: { $in: keys } })
    .lean<ThrottleDocRow[]>()
    .exec();
  return new Map(rows.map((r) => [r._id, { count: r.count, lastAt: r.lastAt, expiresAt: r.expiresAt }]));
}

/**
 * Counts one failure with atomic writes, so concurrent failures are all counted; each failure
 * keeps the key alive for `keepSeconds` more (the caller's longest wait plus the quiet window, so
 * sitting out a wait never resets the count). A live row is incremented; an expired or missing
 * one starts again at 1 (conditional on its expiry, so of racing restarts one wins and the others
 * find a live row, through the duplicate key, and increment it).
 */
export async function recordFailure(m: AuthModels, key: string, now: Date, keepSeconds: number): Promise<void> {
  const expiresAt = new Date(now.getTime() + keepSeconds * 1000);
  const increment = () =>
    m.Throttle.updateOne(
      { _id: key, expiresAt: { $gt: now } },
      { $inc: { count: 1 }, $max: { lastAt: now }, $set: { expiresAt } },
    ).exec();
  if ((await increment()).matchedCount === 1) return;
  try {
    await m.Throttle.updateOne(
      { _id: key, expiresAt: { $lte: now } },
      { $set: { count: 1, lastAt: now, expiresAt } },
      { upsert: true },
    ).exec();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await increment();
  }
}

/**
 * Takes the one attempt a key in backoff admits: moves `lastAt` to now on the row exactly as read,
 * so of concurrent requests that all saw the wait over, one wins and the rest are refused.
 */
export async function claimTurn(m: AuthModels, key: string, seen: ThrottleRow, now: Date): Promise<boolean> {
  const res = await m.Throttle.updateOne(
    { _id: key, count: seen.count, lastAt: seen.lastAt },
    { $set: { lastAt: now } },
  ).exec();
  return res.modifiedCount === 1;
}

export async function clearThrottle(m: AuthModels, key: string): Promise<void> {
  await m.Throttle.deleteOne({ _id: key }).exec();
}

/** A marker row (count 0) that lives `seconds` from now, e.g. an address a user logged in from. */
export async function putMarker(m: AuthModels, key: string, now: Date, seconds: number): Promise<void> {
  const put = (upsert: boolean) =>
    m.Throttle.updateOne(
      { _id: key },
      { $set: { count: 0, lastAt: now, expiresAt: new Date(now.getTime() + seconds * 1000) } },
      { upsert },
    ).exec();
  // Two logins at once may race to insert it; the loser updates the winner's row.
  await put(true).catch((err: unknown) => (isDuplicateKey(err) ? put(false) : Promise.reject(err)));
}

/** Counts one attempt in a fixed window and returns the window's count, this attempt included. */
export async function countAttempt(m: AuthModels, w: WindowRef, now: Date): Promise<number> {
  const bump = (upsert: boolean) =>
    m.Throttle.findOneAndUpdate(
      { _id: w.id },
      { $inc: { count: 1 }, $set: { lastAt: now }, $setOnInsert: { expiresAt: w.end } },
      { upsert, new: true },
    )
      .lean<ThrottleDocRow>()
      .exec();
  try {
    return (await bump(true))?.count ?? 1;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return (await bump(false))?.count ?? 1;
  }
}
