import { AppError } from '../../../kit/src/index.js';
import { MSG } from '../messages.js';
import type { RefreshTokenRow } from '../store/models.js';
import { consumeRefreshToken, findFamily, findRefreshToken, revokeFamily } from '../store/token-store.js';
import { findMemberships, findUserById } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { compareSecret } from './hashing.js';
import { prepareRefresh, sessionView, storeRefresh } from './sessions.js';
import { refreshDigest, verifyRefreshToken } from './tokens.js';
import type { SessionView } from './views.js';

/** A refresh token that passed signature, `jti`, owner and stored-hash checks. */
async function authenticRow(deps: AuthDeps, token: string): Promise<RefreshTokenRow | null> {
  const claims = verifyRefreshToken(token, deps.settings.tokens.secret, deps.clock());
  if (!claims) return null;
  const row = await findRefreshToken(deps.models, claims.jti);
  if (!row || row.userId !== claims.sub) return null;
  const matches = await compareSecret(deps.limiter, refreshDigest(token), row.tokenHash);
  return matches ? row : null;
}

const invalid = () => new AppError('UNAUTHENTICATED', MSG.invalidRefresh);

/**
 * Exchanges a refresh token for a new session in the same family. Each token works once: the
 * consume is a conditional update, so of concurrent requests exactly one wins. Presenting a token
 * that was already rotated is treated as theft: the whole family (the session) is revoked.
 */
export async function refresh(deps: AuthDeps, token: string): Promise<SessionView> {
  const row = await authenticRow(deps, token);
  if (!row) throw invalid();
  const now = deps.clock();
  const family = await findFamily(deps.models, row.familyId);
  if (!family || family.revokedAt) throw invalid();
  if (row.revokedAt) {
    if (row.revokedReason === 'rotated') await reuseDetected(deps, row, now);
    throw invalid();
  }
  const user = await findUserById(deps.models, row.userId);
  if (!user || user.status !== 'ACTIVE') throw invalid();
  const next = await prepareRefresh(deps, user._id, now);
  // The successor is stored before the presented token is consumed: if the insert fails, the
  // presented token still works. The consume stays the one point that picks a single winner; a
  // loser's stored successor dies with the family that reuseDetected revokes.
  await storeRefresh(deps, { userId: user._id, familyId: row.familyId }, next);
  if (!(await consumeRefreshToken(deps.models, row.jti, { reason: 'rotated', now, replacedBy: next.jti }))) {
    await reuseDetected(deps, row, now);
  }
  return sessionView(deps, { user, memberships: await findMemberships(deps.models, user._id) }, next.token, now);
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
export async function logout(deps: AuthDeps, token: string | undefined): Promise<{ revoked: boolean }> {
  if (!token) return { revoked: false };
  const row = await authenticRow(deps, token);
  if (!row || row.revokedAt) return { revoked: false };
  const now = deps.clock();
  if (!(await consumeRefreshToken(deps.models, row.jti, { reason: 'logout', now }))) return { revoked: false };
  await revokeFamily(deps.models, row.familyId, 'logout', now);
  return { revoked: true };
}
