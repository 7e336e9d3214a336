// Revoked sessions at the edge: a set fed by polling the auth service's revocation feed, checked
// on every token (also one the verifier cache already accepted).
import type { Logger } from '../../kit/src/core/index.js';
import type { Caller } from './identity.js';

export interface RevocationItem {
  /** The revoked session; absent (or null) revokes every token of `userId` issued up to `revokedAt`. */
  sid?: string | null;
  userId: string;
  revokedAt: string;
}

export interface RevocationSet {
  add(items: readonly RevocationItem[], nowMs: number): void;
  isRevoked(caller: Caller, nowMs: number): boolean;
  readonly size: number;
}

/**
 * Sessions (by `sid`) and users (for tokens without a `sid`, older than auth's session claim)
 * revoked in the last `ttlMs`, the longest an access token may live: past it, every token the
 * entry could stop has expired on its own, so the entry goes.
 */
export function createRevocationSet(ttlMs: number): RevocationSet {
  const sessions = new Map<string, number>();
  /** userId -> the latest user-wide revocation (ms) and when the entry expires. */
  const users = new Map<string, { atMs: number; untilMs: number }>();
  let sweptAt = 0;

  function sweep(nowMs: number): void {
    if (nowMs - sweptAt < 1000) return;
    sweptAt = nowMs;
    for (const [sid, untilMs] of sessions) if (untilMs <= nowMs) sessions.delete(sid);
    for (const [id, u] of users) if (u.untilMs <= nowMs) users.delete(id);
  }

  function addOne(item: RevocationItem): void {
    const atMs = Date.parse(item.revokedAt);
    if (Number.isNaN(atMs)) return;
    const untilMs = atMs + ttlMs;
    if (item.sid) {
      sessions.set(item.sid, Math.max(untilMs, sessions.get(item.sid) ?? 0));
      return;
    }
    const prev = users.get(item.userId);
    if (!prev || prev.atMs < atMs) users.set(item.userId, { atMs, untilMs });
  }

  return {
    add(items, nowMs) {
      for (const item of items) addOne(item);
      sweep(nowMs);
    },
    isRevoked(caller, nowMs) {
      if (caller.sid !== undefined) {
        const untilMs = sessions.get(caller.sid);
        if (untilMs !== undefined && untilMs > nowMs) return true;
      }
      const user = users.get(caller.userId);
      return user !== undefined && user.untilMs > nowMs && caller.iat * 1000 <= user.atMs;
    },
    get size() {
      return sessions.size + users.size;
    },
  };
}

export interface FeedPollerOptions {
  /** The auth service's base URL (GATEWAY_AUTH_URL). */
  authUrl: URL;
  internalToken?: string;
  intervalMs: number;
  /** How far back the first poll reads (the longest access-token lifetime). */
  lookbackMs: number;
  timeoutMs: number;
  set: RevocationSet;
  logger: Logger;
  now?: () => number;
  /** Called after each poll with its outcome (metrics). */
  onPoll?: (ok: boolean, nowMs: number) => void;
}

export interface FeedPoller {
  /** The time (ms) of the last successful poll, or undefined before the first. */
  readonly lastSuccessMs: number | undefined;
  readonly startedMs: number;
  /** One poll now (the timer calls it; exported for the first poll at start). */
  pollOnce(): Promise<boolean>;
  stop(): void;
}

interface FeedPage {
  items: RevocationItem[];
  until: string;
}

/** `{ success: true, data: { items: [{ sid, userId, revokedAt }], until } }`, checked; anything else is a failed poll. */
export function parseFeed(body: unknown): FeedPage | undefined {
  const data = (body as { success?: unknown; data?: unknown } | null)?.data as
    { items?: unknown; until?: unknown } | undefined;
  if (!data || !Array.isArray(data.items) || typeof data.until !== 'string') return undefined;
  if (Number.isNaN(Date.parse(data.until))) return undefined;
  const items = data.items.filter(
    (i): i is RevocationItem =>
      typeof i === 'object' &&
      i !== null &&
      typeof (i as RevocationItem).userId === 'string' &&
      typeof (i as RevocationItem).revokedAt === 'string',
  );
  return { items, until: data.until };
}

/**
 * Polls `GET {authUrl}/v1/auth/revocations?since=<ISO>` every `intervalMs` (one poll at a time);
 * the next call asks from the feed's `until`. The first asks from now - lookback, so a restarted
 * gateway knows every revocation that still matters. A failed poll is logged and retried at the
 * next tick from the same `since`: nothing is lost, only late.
 */
export function startFeedPoller(opts: FeedPollerOptions): FeedPoller {
  const now = opts.now ?? Date.now;
  const startedMs = now();
  let since = new Date(startedMs - opts.lookbackMs).toISOString();
  let lastSuccessMs: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function fetchPage(): Promise<FeedPage> {
    const url = new URL(`${opts.authUrl.pathname.replace(/\/$/, '')}/v1/auth/revocations`, opts.authUrl);
    url.searchParams.set('since', since);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.internalToken) headers['x-internal-token'] = opts.internalToken;
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(opts.timeoutMs) });
    if (res.status !== 200) throw new Error(`revocation feed answered ${res.status}`);
    const page = parseFeed(await res.json());
    if (!page) throw new Error('revocation feed answered an unexpected body');
    return page;
  }

  async function pollOnce(): Promise<boolean> {
    try {
      const page = await fetchPage();
      opts.set.add(page.items, now());
      since = page.until;
      lastSuccessMs = now();
      opts.onPoll?.(true, lastSuccessMs);
      return true;
    } catch (err) {
      opts.logger.warn(
        { err: (err as Error).message, since },
        'revocation feed unreachable; serving on the last known set',
      );
      opts.onPoll?.(false, now());
      return false;
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void pollOnce().finally(schedule), opts.intervalMs);
    timer.unref();
  }

  void pollOnce().finally(schedule);
  return {
    get lastSuccessMs() {
      return lastSuccessMs;
    },
    startedMs,
    pollOnce,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
