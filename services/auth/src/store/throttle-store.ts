import { isDuplicateKey } from '../../../kit/src/index.js';
import type { FailureWindow, WindowRef } from '../domain/throttle.js';
import type { AuthModels, LoginFailureRow } from './models.js';

export async function readWindows(m: AuthModels, refs: WindowRef[]): Promise<Map<string, FailureWindow>> {
  const rows = await m.LoginFailure.find({ _id: { $in: refs.map((r) => r.id) } })
    .lean<LoginFailureRow[]>()
    .exec();
  return new Map(rows.map((r) => [r._id, { count: r.count, windowStart: r.windowStart }]));
}

/**
 * Counts one failure with a single atomic upsert-and-increment, so concurrent failures are all
 * counted. Two first failures may race to insert the window document; the loser increments it.
 */
export async function recordFailure(m: AuthModels, w: WindowRef): Promise<void> {
  const increment = (upsert: boolean) =>
    m.LoginFailure.updateOne(
      { _id: w.id },
      { $inc: { count: 1 }, $setOnInsert: { windowStart: w.start, expiresAt: w.end } },
      { upsert },
    ).exec();
  try {
    await increment(true);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await increment(false);
  }
}

export async function clearFailures(m: AuthModels, w: WindowRef): Promise<void> {
  await m.LoginFailure.deleteOne({ _id: w.id }).exec();
}
