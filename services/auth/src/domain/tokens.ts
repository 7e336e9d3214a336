import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** An organization the user belongs to, and the role held there (what every scoped check uses). */
export interface MembershipClaim {
  organizationId: string;
  role: string;
}

/**
 * The contract's access claims plus `sid` (the session, i.e. the token family, which the
 * revocation feed names) and `memberships` (ACTIVE only, at most MAX_MEMBERSHIP_CLAIMS);
 * jsonwebtoken adds iat and exp.
 */
export interface AccessClaims {
  sub: string;
  type: 'access';
  role: string;
  accountCode: string;
  fullName: string;
  email: string;
  defaultOrganizationId: string;
  sid: string;
  memberships: MembershipClaim[];
}

export const MAX_MEMBERSHIP_CLAIMS = 100;

/** Exactly the contract's refresh claims (plus iat and exp). */
export interface RefreshClaims {
  sub: string;
  type: 'refresh';
  jti: string;
}

export interface TokenSettings {
  secret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

const ALGORITHM = 'HS256';

/** Ours are about 250 characters; anything past this is garbage and is not even parsed. */
export const REFRESH_TOKEN_MAX_LENGTH = 4096;

// Given a string, jsonwebtoken first tries it as a PEM key and catches the failure on every call
// (about 350 µs); a secret KeyObject made once per secret skips that.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function signAccessToken(claims: AccessClaims, s: TokenSettings, now: Date): string {
  return jwt.sign({ ...claims, iat: seconds(now) }, keyOf(s.secret), {
    algorithm: ALGORITHM,
    expiresIn: s.accessTtlSeconds,
  });
}

export function signRefreshToken(claims: RefreshClaims, s: TokenSettings, now: Date): string {
  return jwt.sign({ ...claims, iat: seconds(now) }, keyOf(s.secret), {
    algorithm: ALGORITHM,
    expiresIn: s.refreshTtlSeconds,
  });
}

/**
 * Signature, expiry, algorithm and shape; anything else is null (never an exception to a caller).
 * `exp` is required (a token without it would never expire) and so is `sid` (a token without a
 * session could never be revoked).
 */
export function verifyAccessToken(token: string, secret: string, now: Date): AccessClaims | null {
  const payload = verify(token, secret, now);
  if (!payload || payload.type !== 'access' || typeof payload.exp !== 'number') return null;
  const required = ['sub', 'role', 'fullName', 'sid'] as const;
  if (!required.every((k) => typeof payload[k] === 'string' && payload[k] !== '')) return null;
  return payload as unknown as AccessClaims;
}

export function verifyRefreshToken(token: string, secret: string, now: Date): RefreshClaims | null {
  const payload = verify(token, secret, now);
  if (!payload || payload.type !== 'refresh') return null;
  if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || !JTI.test(payload.jti)) return null;
  return { sub: payload.sub, type: 'refresh', jti: payload.jti };
}

const JTI = /^[A-Za-z0-9_-]{16,64}$/;

function verify(token: string, secret: string, now: Date): Record<string, unknown> | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: [ALGORITHM], clockTimestamp: seconds(now) });
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The refresh token's SHA-256 (hex): 64 bytes, inside bcrypt's 72-byte input, as the contract asks. */
export function refreshDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}
