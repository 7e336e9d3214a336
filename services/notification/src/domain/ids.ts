import { randomBytes } from 'node:crypto';

/**
 * Time-ordered ids: milliseconds, a per-process counter inside one millisecond, then randomness.
 * The inbox sorts by (createdAt, _id), so rows created in the same millisecond (a batch) keep
 * their creation order; the counter is wide enough for any batch.
 */
export function timeOrderedIds(now: () => number = Date.now): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    const ms = Math.max(now(), lastMs);
    counter = ms === lastMs ? counter + 1 : 0;
    lastMs = ms;
    const time = ms.toString(16).padStart(12, '0');
    const seq = counter.toString(16).padStart(6, '0');
    return `${time}-${seq}-${randomBytes(6).toString('hex')}`;
  };
}
