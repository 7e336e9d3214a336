// Shares of a scarce pool (pure counters): a total, and caps per holder of each kind (a client, an
// organization), so one holder cannot take every slot. Acquire checks every cap before it counts.

export interface ShareCaps<K extends string> {
  /** Slots in all; 0 is no total cap. */
  total: number;
  /** Slots one holder of each kind may hold at once; 0 (or absent) is no cap for that kind. */
  perHolder: Partial<Record<K, number>>;
}

export type Share<K extends string> = { ok: true; release(): void } | { ok: false; limit: 'total' | K; max: number };

export interface Shares<K extends string> {
  /** A slot for the holders named (a kind left out is not counted); release it on every end path (idempotent). */
  acquire(holders: Partial<Record<K, string>>): Share<K>;
  /** Slots held now, in all and by one holder. */
  held(kind?: K, holder?: string): number;
}

export function createShares<K extends string>(caps: ShareCaps<K>): Shares<K> {
  let total = 0;
  const counts = new Map<string, number>();
  const keyOf = (kind: string, holder: string) => `${kind}\u0000${holder}`;

  /** The keys of the holders named, or the cap one of them is at. */
  function keysOf(holders: Partial<Record<K, string>>): string[] | { kind: K; max: number } {
    const keys: string[] = [];
    for (const [kind, holder] of Object.entries(holders) as Array<[K, string | undefined]>) {
      if (holder === undefined) continue;
      const max = caps.perHolder[kind] ?? 0;
      const key = keyOf(kind, holder);
      if (max > 0 && (counts.get(key) ?? 0) >= max) return { kind, max };
      keys.push(key);
    }
    return keys;
  }

  function acquire(holders: Partial<Record<K, string>>): Share<K> {
    if (caps.total > 0 && total >= caps.total) return { ok: false, limit: 'total', max: caps.total };
    const keys = keysOf(holders);
    if (!Array.isArray(keys)) return { ok: false, limit: keys.kind, max: keys.max };
    total += 1;
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        total -= 1;
        for (const key of keys) {
          const left = (counts.get(key) ?? 1) - 1;
          // A holder with nothing held is forgotten: the map holds only holders with slots.
          if (left <= 0) counts.delete(key);
          else counts.set(key, left);
        }
      },
    };
  }

  return {
    acquire,
    held: (kind, holder) =>
      kind === undefined || holder === undefined ? total : (counts.get(keyOf(kind, holder)) ?? 0),
  };
}
