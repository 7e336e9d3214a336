// Pure decisions of the outbox (no I/O, time as an argument), unit-tested on their own.
import type { OutboxEntryRow, OutboxStampRow } from './outbox-model.js';
import { backoffMs } from '../core/index.js';

/**
 * Coalesces the stamps of one owner document: of the stamps one unit wrote for one key, only the
 * last survives (the final state), placed where that last one stood, so the result keeps the
 * order in which the owner writes happened.
 */
export function coalesceStamps(stamps: readonly OutboxStampRow[]): OutboxStampRow[] {
  const lastIndex = new Map<string, number>();
  stamps.forEach((s, i) => lastIndex.set(`${s.u}\u0000${s.key}`, i));
  return stamps.filter((s, i) => lastIndex.get(`${s.u}\u0000${s.key}`) === i);
}

export interface RelayWindowEntry {
  _id: string;
  key: string;
  seq: number;
  nextAttemptAt: Date;
  leaseUntil: Date | null;
}

function isFree(e: RelayWindowEntry, now: Date): boolean {
  return e.nextAttemptAt.getTime() <= now.getTime() && (e.leaseUntil === null || e.leaseUntil < now);
}

/**
 * Chooses what a relay may lease from a window of pending entries sorted by `seq` (a prefix of
 * all pending entries, so a key's first entry in the window is its oldest unpublished one). Per
 * key it takes the run of free entries from that oldest one on and stops at the first entry that
 * is leased elsewhere or backing off; keys with a dead entry are skipped entirely, since a dead
 * entry is an earlier unpublished entry of its key. At most `limit` ids, in `seq` order.
 */
export function selectDue(
  window: readonly RelayWindowEntry[],
  blockedKeys: ReadonlySet<string>,
  now: Date,
  limit: number,
): string[] {
  const stopped = new Set<string>(blockedKeys);
  const chosen: string[] = [];
  for (const e of window) {
    if (chosen.length >= limit) break;
    if (stopped.has(e.key)) continue;
    if (isFree(e, now)) chosen.push(e._id);
    else stopped.add(e.key);
  }
  return chosen;
}

/**
 * Of the entries a relay asked to lease (in `seq` order), those it may publish: per key, the
 * leading run it actually holds. If another relay won an entry in the middle of a key's run,
 * what follows it must not go out first, so it is released.
 */
export function heldPrefix<T extends { _id: string; key: string }>(
  requested: readonly T[],
  held: ReadonlySet<string>,
): { publish: T[]; release: T[] } {
  const broken = new Set<string>();
  const publish: T[] = [];
  const release: T[] = [];
  for (const e of requested) {
    if (!held.has(e._id)) {
      broken.add(e.key);
    } else if (broken.has(e.key)) {
      release.push(e);
    } else {
      publish.push(e);
    }
  }
  return { publish, release };
}

export interface BackoffPolicy {
  /** Delay after the first failure. */
  baseMs: number;
  /** No delay grows past this. */
  capMs: number;
  /** After this many failed attempts an entry is dead (its error kept). */
  maxAttempts: number;
}

/** Exponential backoff with a cap (the consumers' formula): the delay before attempt `failures + 1`. */
export function backoffDelayMs(failures: number, policy: BackoffPolicy): number {
  return backoffMs({ initialMs: policy.baseMs, maxMs: policy.capMs }, failures);
}

export type FailureOutcome =
  | { status: 'dead'; attempts: number; lastError: string }
  | { status: 'pending'; attempts: number; lastError: string; nextAttemptAt: Date };

/** What a failed publish makes of an entry: a later attempt, or dead once the bound is reached. */
export function afterFailure(
  entry: Pick<OutboxEntryRow, 'attempts'>,
  error: string,
  policy: BackoffPolicy,
  now: Date,
): FailureOutcome {
  const attempts = entry.attempts + 1;
  if (attempts >= policy.maxAttempts) return { status: 'dead', attempts, lastError: error };
  return {
    status: 'pending',
    attempts,
    lastError: error,
    nextAttemptAt: new Date(now.getTime() + backoffDelayMs(attempts, policy)),
  };
}

/** Groups entries by topic, keeping `seq` order inside each group. */
export function byTopic<T extends { topic: string }>(entries: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const e of entries) {
    const g = groups.get(e.topic);
    if (g) g.push(e);
    else groups.set(e.topic, [e]);
  }
  return groups;
}
