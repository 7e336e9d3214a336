import { AppError } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import { claimTurn, clearThrottle, putMarker, readThrottles, recordFailure } from '../store/throttle-store.js';
import type { AuthDeps } from './deps.js';
import {
  backoffSeconds,
  backoffVerdict,
  inBackoff,
  liveRow,
  strictest,
  type BackoffPolicy,
  type LoginKeys,
  type ThrottleRow,
} from './throttle.js';

/**
 * Login throttling that an outsider cannot turn into a lockout of the owner:
 * - the (account, address) pair is the attacker's own key: its backoff grows to the whole window;
 * - the address alone catches spraying across accounts, with a generous allowance;
 * - the account across addresses catches a distributed guesser, with a short cap (it slows, it
 *   never locks), counts at most the pair's free failures from any one address, and does not
 *   apply from an address the account logged in from before.
 */
export type SeenRows = Map<string, ThrottleRow>;

interface Check {
  key: string;
  policy: BackoffPolicy;
}

function checks(deps: AuthDeps, keys: LoginKeys, seen: SeenRows, now: Date): Check[] {
  const p = deps.settings.login;
  const list: Check[] = [
    { key: keys.pair, policy: p.pair },
    { key: keys.address, policy: p.address },
  ];
  if (!liveRow(seen.get(keys.known), now)) list.push({ key: keys.account, policy: p.account });
  return list;
}

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', MSG.tooManyAttempts, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    details: { retryAfterSeconds },
  });
}

/**
 * Refuses (429) while any key's earned wait runs; a key in backoff then admits one attempt per
 * wait, claimed atomically, so parallel requests cannot all slip through when it ends.
 */
export async function admitLogin(deps: AuthDeps, keys: LoginKeys, now: Date): Promise<SeenRows> {
  const seen = await readThrottles(deps.models, [keys.pair, keys.address, keys.account, keys.known]);
  const active = checks(deps, keys, seen, now);
  const verdict = strictest(active.map((c) => backoffVerdict(seen.get(c.key), c.policy, now)));
  if (!verdict.allowed) throw rateLimited(verdict.retryAfterSeconds);
  for (const c of active) {
    const row = seen.get(c.key);
    if (!row || !inBackoff(row, c.policy, now)) continue;
    if (!(await claimTurn(deps.models, c.key, row, now))) {
      throw rateLimited(Math.max(1, backoffSeconds(row.count, c.policy)));
    }
  }
  return seen;
}

/** One wrong password: the pair and the address always count; the account only while the pair is free. */
export async function recordLoginFailure(deps: AuthDeps, keys: LoginKeys, seen: SeenRows, now: Date): Promise<void> {
  const p = deps.settings.login;
  const pairCount = liveRow(seen.get(keys.pair), now)?.count ?? 0;
  const count = (key: string, policy: BackoffPolicy) =>
    recordFailure(deps.models, key, now, policy.maxDelaySeconds + policy.windowSeconds);
  const writes = [count(keys.pair, p.pair), count(keys.address, p.address)];
  if (pairCount < p.pair.freeFailures) writes.push(count(keys.account, p.account));
  await Promise.all(writes);
}

/** The right password: the pair starts over and the address becomes one the account is known from. */
export async function recordLoginSuccess(deps: AuthDeps, keys: LoginKeys, now: Date): Promise<void> {
  const knownFor = deps.settings.login.knownAddressSeconds;
  await Promise.all([
    clearThrottle(deps.models, keys.pair),
    knownFor > 0 ? putMarker(deps.models, keys.known, now, knownFor) : Promise.resolve(),
  ]);
}
