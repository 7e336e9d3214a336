import { listRevokedAt, listRevokedFamilies, type RevokedFamily } from '../store/token-store.js';
import type { AuthDeps } from './deps.js';

export const FEED_CAP = 1000;

export interface RevocationItem {
  sid: string;
  userId: string;
  revokedAt: string;
}

export interface RevocationPage {
  items: RevocationItem[];
  until: string;
}

/**
 * Pure: which of the rows (sorted by revokedAt, at most cap + 1 of them) one page holds, and the
 * page's `until`. Everything revoked in `(since, until]` is in the page, so the next call from
 * `until` misses nothing: a full page ends at the last whole millisecond it holds. `null` means
 * the first `cap` rows all share one millisecond; the caller then returns that millisecond whole.
 */
export function pageOf(
  rows: RevokedFamily[],
  cap: number,
  horizon: Date,
): { rows: RevokedFamily[]; until: Date } | null {
  if (rows.length <= cap) return { rows, until: horizon };
  const last = rows[cap - 1]!.revokedAt.getTime();
  if (rows[cap]!.revokedAt.getTime() > last) return { rows: rows.slice(0, cap), until: new Date(last) };
  const kept = rows.slice(0, cap).filter((r) => r.revokedAt.getTime() < last);
  if (kept.length === 0) return null;
  return { rows: kept, until: kept[kept.length - 1]!.revokedAt };
}

/**
 * Sessions (token families) revoked after `since`, for the gateway's revocation set. `until` is
 * now minus the feed lag (a revocation whose write is still in flight is never skipped), never
 * before `since`.
 */
export async function revocationsSince(deps: AuthDeps, since: Date): Promise<RevocationPage> {
  const horizon = new Date(Math.max(since.getTime(), deps.clock().getTime() - deps.settings.revocationFeedLagMs));
  const rows = await listRevokedFamilies(deps.models, since, horizon, FEED_CAP + 1);
  const page = pageOf(rows, FEED_CAP, horizon) ?? {
    rows: await listRevokedAt(deps.models, rows[0]!.revokedAt),
    until: rows[0]!.revokedAt,
  };
  return {
    items: page.rows.map((r) => ({ sid: r._id, userId: r.userId, revokedAt: r.revokedAt.toISOString() })),
    until: page.until.toISOString(),
  };
}
