// Per-attempt order. A seeded Fisher-Yates: the order depends on the seed and the input order only,
// so a reload (same attempt id, same stored snapshot order) gives the same order, and no state is
// kept. Seed with the attempt id for questions and `attemptId + questionId` for one question's
// options, so two questions with the same option count are not shuffled alike.

/** cyrb53 (public domain): a well-mixed 53-bit string hash, two 32-bit lanes. Not cryptographic. */
function lanes(text: string, salt: number): [number, number] {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/** sfc32: 128 bits of state from two hashes of the seed; returns uint32 values. */
function generator(seed: string): () => number {
  let [a, b] = lanes(seed, 0);
  let [c, d] = lanes(seed, 0x9e3779b9);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
}

/** A new array: `items` permuted by the seed alone (the input is not modified). */
export function shuffleFor<T>(seed: string, items: readonly T[]): T[] {
  const out = [...items];
  const next = generator(seed);
  for (let i = out.length - 1; i > 0; i -= 1) {
    // Multiply-shift: an index in [0, i] from 32 random bits, bias below 2^-24 for i < 256.
    const j = Math.floor((next() / 4294967296) * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
