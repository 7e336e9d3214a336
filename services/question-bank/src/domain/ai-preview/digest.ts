// Pure: the canonical form of a reviewed AI payload and the ids derived from a record.
import { createHash } from 'node:crypto';
import { canonicalDigest, canonicalJson } from '../../../../kit/src/core/index.js';

export { canonicalJson };

export function digestOf(value: unknown): string {
  return canonicalDigest(value);
}

/**
 * Ids derived from a seed (UUID layout, version 8): a retry that rebuilds a half-written draft
 * from the same record and payload gets the same option, media and formula ids, so both writes
 * are the same document.
 */
export function seededIds(seed: string): () => string {
  let n = 0;
  return () => {
    const h = createHash('sha256').update(`${seed}:${n}`).digest('hex');
    n += 1;
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
}
