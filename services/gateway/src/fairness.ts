// Per-client shares of the upstream pools (pure counters; the dispatcher acquires and releases).
// One client must not hold every upstream socket: a cap on its requests in flight and a smaller
// one on its open event streams, which hold a socket for as long as they stay open.

export interface FairnessOptions {
  /** Upstream requests one client may have in flight at once (streams included); 0 is no cap. */
  maxConcurrent: number;
  /** Event streams one client may hold open at once; 0 is no cap. */
  maxStreams: number;
}

export type Slot = { ok: true; release(): void } | { ok: false; limit: 'concurrent' | 'streams' };

export interface Fairness {
  /** A request slot for `client`; release it on every end path (it is idempotent). */
  acquire(client: string): Slot;
  /** A stream slot, beside the request slot the stream already holds. */
  acquireStream(client: string): Slot;
  /** Totals, for metrics and for tests that check every path gives its slot back. */
  stats(): { clients: number; inFlight: number; streams: number };
  /** False when both caps are 0: the dispatcher then need not verify a token for the key. */
  readonly enabled: boolean;
}

export function createFairness(opts: FairnessOptions): Fairness {
  const inFlight = new Map<string, number>();
  const streams = new Map<string, number>();

  function take(counts: Map<string, number>, client: string, max: number, limit: 'concurrent' | 'streams'): Slot {
    const n = counts.get(client) ?? 0;
    if (max > 0 && n >= max) return { ok: false, limit };
    counts.set(client, n + 1);
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        const left = (counts.get(client) ?? 1) - 1;
        // A client with nothing open is forgotten: the maps hold only clients with open requests.
        if (left <= 0) counts.delete(client);
        else counts.set(client, left);
      },
    };
  }

  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

  return {
    acquire: (client) => take(inFlight, client, opts.maxConcurrent, 'concurrent'),
    acquireStream: (client) => take(streams, client, opts.maxStreams, 'streams'),
    stats: () => ({ clients: inFlight.size, inFlight: sum(inFlight), streams: sum(streams) }),
    enabled: opts.maxConcurrent > 0 || opts.maxStreams > 0,
  };
}
