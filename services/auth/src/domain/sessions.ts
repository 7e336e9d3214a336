import { randomBytes } from 'node:crypto';
import type { MembershipClaim } from '../../../kit/src/core/index.js';
import { insertFamily, insertRefreshToken } from '../store/token-store.js';
import type { MembershipRow, UserRow } from '../store/models.js';
import type { StoreTx } from '../store/transactions.js';
import type { AuthDeps } from './deps.js';
import { hashSecret } from './hashing.js';
import { MAX_MEMBERSHIP_CLAIMS, refreshDigest, signAccessToken, signRefreshToken } from './tokens.js';
import { toUserView, type SessionView } from './views.js';

/** A refresh token minted and hashed, not yet stored: hashing happens outside any transaction. */
export interface PreparedRefresh {
  jti: string;
  token: string;
  tokenHash: string;
  expiresAt: Date;
}

export function newJti(): string {
  return randomBytes(18).toString('base64url');
}

export async function prepareRefresh(deps: AuthDeps, userId: string, now: Date): Promise<PreparedRefresh> {
  const jti = newJti();
  const token = signRefreshToken({ sub: userId, type: 'refresh', jti }, deps.settings.tokens, now);
  const tokenHash = await hashSecret(deps.limiter, refreshDigest(token), deps.settings.tokenBcryptCost);
  const expiresAt = new Date(now.getTime() + deps.settings.tokens.refreshTtlSeconds * 1000);
  return { jti, token, tokenHash, expiresAt };
}

export async function storeRefresh(
  deps: AuthDeps,
  owner: { userId: string; familyId: string },
  r: PreparedRefresh,
  tx?: StoreTx,
): Promise<void> {
  const { userId, familyId } = owner;
  await insertRefreshToken(
    deps.models,
    { _id: deps.newId(), jti: r.jti, userId, familyId, tokenHash: r.tokenHash, expiresAt: r.expiresAt },
    tx,
  );
}

/** Starts a new login session (a token family) with its first refresh token. */
export async function startFamily(deps: AuthDeps, userId: string, r: PreparedRefresh, tx?: StoreTx): Promise<string> {
  const familyId = deps.newId();
  await insertFamily(deps.models, familyId, userId, tx);
  await storeRefresh(deps, { userId, familyId }, r, tx);
  return familyId;
}

export interface Identity {
  user: UserRow;
  memberships: MembershipRow[];
}

/** The ACTIVE memberships as token claims, oldest first, at most MAX_MEMBERSHIP_CLAIMS. */
export function membershipClaims(memberships: MembershipRow[]): MembershipClaim[] {
  return memberships
    .filter((m) => m.status === 'ACTIVE')
    .slice(0, MAX_MEMBERSHIP_CLAIMS)
    .map((m) => ({ organizationId: m.organizationId, role: m.role }));
}

/** The session's tokens: the refresh token just minted and the session (family) it belongs to. */
export interface SessionTokens {
  refreshToken: string;
  sid: string;
}

export function sessionView(deps: AuthDeps, { user, memberships }: Identity, t: SessionTokens, now: Date): SessionView {
  const accessToken = signAccessToken(
    {
      sub: user._id,
      type: 'access',
      role: user.role,
      accountCode: user.accountCode,
      fullName: user.fullName,
      email: user.email,
      defaultOrganizationId: user.defaultOrganizationId,
      sid: t.sid,
      memberships: membershipClaims(memberships),
    },
    deps.settings.tokens,
    now,
  );
  return {
    user: toUserView(user, memberships),
    accessToken,
    refreshToken: t.refreshToken,
    tokenType: 'Bearer',
    expiresIn: deps.settings.tokens.accessTtlSeconds,
  };
}
