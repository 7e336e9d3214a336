// Pure: the seeded order of a blueprint selection.
//
// Why a keyed hash and not a seeded Fisher-Yates over the candidate list: a shuffle of the list
// depends on every candidate and on their order, so one unrelated question added to the bank (or
// one more draft published) reshuffles every position. Ranking each question by hash(seed, id)
// gives each question a fixed place for a seed whatever else is in the bank: adding a question
// can only insert it into the order, the others keep their relative order, and a pick changes
// only where the new question ranks above one that was picked.

/** cyrb53: a small, well-mixed 53-bit string hash (two 32-bit lanes; not cryptographic). */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The seed as the ranking uses it: the integer 7 and the string "7" are the same seed. */
export const seedText = (seed: string | number): string => String(seed);

/** A question's rank under a seed (NUL separates them, so seed "a1" + id "b" is not "a" + "1b"). */
export const seededRank = (seed: string, id: string): number => hash53(`${seed}\u0000${id}`);

/** `ids` in the seed's order: ascending rank, ties (never seen in practice) by id. */
export function seededOrder(seed: string, ids: readonly string[]): string[] {
  return ids
    .map((id) => ({ id, rank: seededRank(seed, id) }))
    .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => r.id);
}

/** The first `count` of `ids` in the seed's order. */
export const pickSeeded = (seed: string, ids: readonly string[], count: number): string[] =>
  seededOrder(seed, ids).slice(0, count);
