import type { ThrottleRow, WindowRef } from '../store/throttle-store.js';

export type { ThrottleRow, WindowRef } from '../store/throttle-store.js';

/**
 * `freeFailures` failures cost nothing; after them the next attempt waits 1 s, doubling with each
 * further failure, never more than `maxDelaySeconds`. A key quiet for `windowSeconds` after its
 * longest wait starts over.
 */
export interface BackoffPolicy {
  freeFailures: number;
  maxDelaySeconds: number;
  windowSeconds: number;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A row still counting at `now` (the TTL index removes expired rows only eventually). */
export function liveRow(row: ThrottleRow | undefined, now: Date): ThrottleRow | undefined {
  return row && row.expiresAt.getTime() > now.getTime() ? row : undefined;
}

/** Pure: the wait a key has earned after `count` failures, in seconds (0 while still free). */
export function backoffSeconds(count: number, policy: BackoffPolicy): number {
  if (count < policy.freeFailures) return 0;
  // 2^31 s is far past any cap; bounding the exponent keeps the number finite.
  const exponent = Math.min(count - policy.freeFailures, 31);
  return Math.min(policy.maxDelaySeconds, 2 ** exponent);
}

/** True when the key is past its free failures: each attempt must then claim its turn. */
export function inBackoff(row: ThrottleRow | undefined, policy: BackoffPolicy, now: Date): boolean {
  const live = liveRow(row, now);
  return live !== undefined && live.count >= policy.freeFailures;
}

/** Pure: allowed once the earned wait since the last failure (or claim) has passed. */
export function backoffVerdict(row: ThrottleRow | undefined, policy: BackoffPolicy, now: Date): ThrottleVerdict {
  const live = liveRow(row, now);
  if (!live) return { allowed: true };
  const readyAt = live.lastAt.getTime() + backoffSeconds(live.count, policy) * 1000;
  if (readyAt <= now.getTime()) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((readyAt - now.getTime()) / 1000)) };
}

/** The most restrictive of several verdicts (the longest wait wins). */
export function strictest(verdicts: ThrottleVerdict[]): ThrottleVerdict {
  let worst: ThrottleVerdict = { allowed: true };
  for (const v of verdicts) {
    if (!v.allowed && (worst.allowed || v.retryAfterSeconds > worst.retryAfterSeconds)) worst = v;
  }
  return worst;
}

/**
 * Windows are aligned to the epoch, so every replica and every concurrent request names the same
 * window document for a key and time; counting is then one atomic upsert-and-increment.
 */
export function currentWindow(key: string, windowSeconds: number, now: Date): WindowRef {
  const length = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / length) * length;
  return { id: `${key}@${start}`, start: new Date(start), end: new Date(start + length) };
}

/** Pure: the answer for an attempt that made the window's count `count` (the attempt included). */
export function windowVerdict(count: number, max: number, w: WindowRef, now: Date): ThrottleVerdict {
  if (count <= max) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.end.getTime() - now.getTime()) / 1000)) };
}

/** The keys one login attempt is counted under. */
export interface LoginKeys {
  /** This account from this client address: the attacker's own key, backoff up to the window. */
  pair: string;
  /** This client address, whatever account: password spraying. */
  address: string;
  /** This account from anywhere: a distributed guesser; a short backoff that never locks out. */
  account: string;
  /** Present when this account logged in from this address before: exempt from `account`. */
  known: string;
}

export function loginKeys(email: string, ip: string): LoginKeys {
  return {
    pair: `pair:${ip}|${email}`,
    address: `address:${ip}`,
    account: `account:${email}`,
    known: `known:${ip}|${email}`,
  };
}

export function registrationKey(ip: string): string {
  return `register:${ip}`;
}
