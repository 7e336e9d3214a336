// Pure: ids derived from ids. A resumed ingest rebuilds byte-identical rows, so the ids of options,
// media and formula refs inside a version come from the version id, never from a fresh generator.
import { createHash } from 'node:crypto';

/** A UUID-shaped id (version 8, "custom") that is a function of `seed`. */
export function derivedId(seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export const childId = (versionId: string, kind: 'option' | 'media' | 'formula', index: number) =>
  derivedId(`${versionId}\u0000${kind}\u0000${index}`);
