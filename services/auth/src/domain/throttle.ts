/** A fixed window of failed logins under one key (an account or a client address). */
export interface FailureWindow {
  count: number;
  windowStart: Date;
}

export interface ThrottlePolicy {
  maxFailures: number;
  windowSeconds: number;
}

/** One fixed window of one key: its document id and its bounds. */
export interface WindowRef {
  id: string;
  start: Date;
  end: Date;
}

/**
 * Windows are aligned to the epoch, so every replica and every concurrent request names the same
 * window document for a key and time; counting is then one atomic upsert-and-increment.
 */
export function currentWindow(key: string, policy: ThrottlePolicy, now: Date): WindowRef {
  const length = policy.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / length) * length;
  return { id: `${key}@${start}`, start: new Date(start), end: new Date(start + length) };
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Pure: blocked once the window holds `maxFailures` failures, until the window ends. */
export function throttleVerdict(w: FailureWindow | null, policy: ThrottlePolicy, now: Date): ThrottleVerdict {
  if (!w) return { allowed: true };
  const endsAt = w.windowStart.getTime() + policy.windowSeconds * 1000;
  if (endsAt <= now.getTime() || w.count < policy.maxFailures) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) };
}

/** The most restrictive of several verdicts (the longest wait wins). */
export function strictest(verdicts: ThrottleVerdict[]): ThrottleVerdict {
  let worst: ThrottleVerdict = { allowed: true };
  for (const v of verdicts) {
    if (!v.allowed && (worst.allowed || v.retryAfterSeconds > worst.retryAfterSeconds)) worst = v;
  }
  return worst;
}

export function accountKey(email: string): string {
  return `account:${email}`;
}

export function addressKey(ip: string): string {
  return `address:${ip}`;
}
