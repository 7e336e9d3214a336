// Per-client token buckets (pure: the caller passes the clock).

export interface RateLimitOptions {
  /** Tokens added per second; 0 turns the limiter off. */
  ratePerSecond: number;
  burst: number;
  /** Past this many tracked clients, idle ones are forgotten first, then the oldest. */
  maxClients?: number;
}

export type Decision = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  atMs: number;
}

export interface RateLimiter {
  take(key: string, nowMs: number): Decision;
  readonly size: number;
  readonly enabled: boolean;
}

/**
 * A token bucket per key: `burst` requests at once, then `ratePerSecond`. In memory, per replica:
 * with N replicas behind a balancer a client gets up to N times the rate, which the chart's
 * defaults account for; a shared store would cost a round trip on every request.
 */
export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const maxClients = opts.maxClients ?? 100_000;
  const refill = (b: Bucket, nowMs: number) =>
    Math.min(opts.burst, b.tokens + (Math.max(0, nowMs - b.atMs) / 1000) * opts.ratePerSecond);

  function evict(nowMs: number): void {
    for (const [key, b] of buckets) if (refill(b, nowMs) >= opts.burst) buckets.delete(key);
    // Still full of active clients (many addresses at once): the oldest entries go; they restart full.
    for (const key of buckets.keys()) {
      if (buckets.size < maxClients) break;
      buckets.delete(key);
    }
  }

  return {
    take(key, nowMs) {
      if (opts.ratePerSecond <= 0) return { ok: true };
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxClients) evict(nowMs);
        b = { tokens: opts.burst, atMs: nowMs };
        buckets.set(key, b);
      }
      b.tokens = refill(b, nowMs);
      b.atMs = Math.max(b.atMs, nowMs);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / opts.ratePerSecond)) };
    },
    get size() {
      return buckets.size;
    },
    enabled: opts.ratePerSecond > 0,
  };
}
