import { AppError } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import type { RefreshTokenRow } from '../store/models.js';
import {
  consumeRefreshToken,
  findFamily,
  findRefreshToken,
  revokeFamily,
  revokeRefreshToken,
} from '../store/token-store.js';
import { findMemberships, findUserById } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { compareSecret } from './hashing.js';
import { prepareRefresh, sessionView, storeRefresh } from './sessions.js';
import { REFRESH_TOKEN_MAX_LENGTH, refreshDigest, verifyRefreshToken } from './tokens.js';
import type { SessionView } from './views.js';

/** A refresh token that passed signature, `jti`, owner and stored-hash checks. */
async function authenticRow(deps: AuthDeps, token: string): Promise<RefreshTokenRow | null> {
  if (token.length > REFRESH_TOKEN_MAX_LENGTH) return null;
  const claims = verifyRefreshToken(token, deps.settings.tokens.secret, deps.clock());
  if (!claims) return null;
  const row = await findRefreshToken(deps.models, claims.jti);
  if (!row || row.userId !== claims.sub) return null;
  const matches = await compareSecret(deps.limiter, refreshDigest(token), row.tokenHash);
  return matches ? row : null;
}

const invalid = () => new AppError('UNAUTHENTICATED', MSG.invalidRefresh);

/**
 * How a token that was already consumed is treated. A rotation moments ago is the usual race of two
 * tabs refreshing at once: the loser is refused but the session lives on (the winner holds its
 * newest token). Anything else (a rotation older than the grace period) is a replay, taken as theft.
 */
export function consumedVerdict(
  row: Pick<RefreshTokenRow, 'revokedAt' | 'revokedReason'>,
  now: Date,
  graceSeconds: number,
): 'raced' | 'replayed' | 'dead' {
  if (row.revokedReason !== 'rotated' || !row.revokedAt) return 'dead';
  return now.getTime() - row.revokedAt.getTime() < graceSeconds * 1000 ? 'raced' : 'replayed';
}

/**
 * Exchanges a refresh token for a new session in the same family. Each token works once: the
 * consume is a conditional update, so of concurrent requests exactly one wins. A token presented
 * again within the grace period of its rotation is refused without harm; later, as a replay, it
 * revokes the whole family (the session).
 */
export async function refresh(deps: AuthDeps, token: string): Promise<SessionView> {
  const row = await authenticRow(deps, token);
  if (!row) throw invalid();
  const now = deps.clock();
  const family = await findFamily(deps.models, row.familyId);
  if (!family || family.revokedAt) throw invalid();
  if (row.revokedAt) return alreadyConsumed(deps, row);
  const user = await findUserById(deps.models, row.userId);
  if (!user || user.status !== 'ACTIVE') throw invalid();
  const next = await prepareRefresh(deps, user._id, now);
  // The successor is stored before the presented token is consumed: if the insert fails, the
  // presented token still works. The consume stays the one point that picks a single winner; a
  // loser's stored successor is revoked before it answers, so it never outlives the race.
  await storeRefresh(deps, { userId: user._id, familyId: row.familyId }, next);
  if (!(await consumeRefreshToken(deps.models, row.jti, { reason: 'rotated', now, replacedBy: next.jti }))) {
    await revokeRefreshToken(deps.models, next.jti, 'race_lost', deps.clock());
    const current = await findRefreshToken(deps.models, row.jti);
    return alreadyConsumed(deps, current ?? row);
  }
  const memberships = await findMemberships(deps.models, user._id);
  return sessionView(deps, { user, memberships }, { refreshToken: next.token, sid: row.familyId }, now);
}

async function alreadyConsumed(deps: AuthDeps, row: RefreshTokenRow): Promise<never> {
  const verdict = consumedVerdict(row, deps.clock(), deps.settings.refreshReuseGraceSeconds);
  if (verdict === 'raced') throw new AppError('UNAUTHENTICATED', MSG.refreshRaced);
  if (verdict === 'replayed') return reuseDetected(deps, row, deps.clock());
  throw invalid();
}

async function reuseDetected(deps: AuthDeps, row: RefreshTokenRow, now: Date): Promise<never> {
  await revokeFamily(deps.models, row.familyId, 'reuse_detected', now);
  deps.metrics.refreshReuse();
  deps.logger.warn({ userId: row.userId, familyId: row.familyId }, 'refresh token reuse detected: session revoked');
  throw new AppError('UNAUTHENTICATED', MSG.refreshReused);
}

/**
 * Revokes the token and its session. Missing, invalid, already revoked or non-matching tokens
 * are not errors: the contract answers `revoked: false`.
 */
export async function logout(deps: AuthDeps, token: unknown): Promise<{ revoked: boolean }> {
  if (typeof token !== 'string' || !token) return { revoked: false };
  const row = await authenticRow(deps, token);
  if (!row || row.revokedAt) return { revoked: false };
  const now = deps.clock();
  if (!(await consumeRefreshToken(deps.models, row.jti, { reason: 'logout', now }))) return { revoked: false };
  await revokeFamily(deps.models, row.familyId, 'logout', now);
  return { revoked: true };
}
