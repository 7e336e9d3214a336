import type { AuthModels, LoginFailureRow } from './models.js';
import type { FailureWindow } from '../domain/throttle.js';

export async function readWindows(m: AuthModels, keys: string[]): Promise<Map<string, FailureWindow>> {
  const rows = await m.LoginFailure.find({ _id: { $in: keys } })
    .lean<LoginFailureRow[]>()
    .exec();
  return new Map(rows.map((r) => [r._id, { count: r.count, windowStart: r.windowStart }]));
}

/**
 * Counts one failure: `$inc` inside a live window (atomic), or starts a new window. Two racing
 * window resets may drop one count; throttling tolerates that, a lost login would not.
 */
export async function recordFailure(m: AuthModels, key: string, windowSeconds: number, now: Date): Promise<void> {
  const liveSince = new Date(now.getTime() - windowSeconds * 1000);
  const inc = await m.LoginFailure.updateOne(
    { _id: key, windowStart: { $gt: liveSince } },
    { $inc: { count: 1 } },
  ).exec();
  if (inc.matchedCount === 1) return;
  const expiresAt = new Date(now.getTime() + windowSeconds * 1000);
  await m.LoginFailure.updateOne(
    { _id: key },
    { $set: { count: 1, windowStart: now, expiresAt } },
    { upsert: true },
  ).exec();
}

export async function clearFailures(m: AuthModels, key: string): Promise<void> {
  await m.LoginFailure.deleteOne({ _id: key }).exec();
}
