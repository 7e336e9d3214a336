import { randomBytes } from 'node:crypto';

/**
 * Time-ordered ids (UUID version 7 layout, with a per-process counter inside one millisecond):
 * newest-first lists sort by (createdAt, _id), and rows created in the same millisecond (a batch)
 * still keep their creation order. Past 4,096 ids in one millisecond the time part moves on by a
 * millisecond, as UUID version 7 allows, so the order holds for any batch.
 */
export function timeOrderedIds(now: () => number = Date.now): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    let ms = Math.max(now(), lastMs);
    counter = ms === lastMs ? counter + 1 : 0;
    if (counter > 0xfff) {
      ms = lastMs + 1;
      counter = 0;
    }
    lastMs = ms;
    const hex = ms.toString(16).padStart(12, '0');
    const seq = (0x7000 | counter).toString(16);
    const rand = randomBytes(8);
    rand[0] = (rand[0]! & 0x3f) | 0x80;
    const tail = rand.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8)}-${seq}-${tail.slice(0, 4)}-${tail.slice(4)}`;
  };
}
