import { createHash } from 'node:crypto';
import { signToken, verifyToken, type AccessClaims } from '../../../kit/src/core/index.js';

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

/** Ours are about 250 characters; anything past this is garbage and is not even parsed. */
export const REFRESH_TOKEN_MAX_LENGTH = 4096;

export function signAccessToken(claims: AccessClaims, s: TokenSettings, now: Date): string {
  return signToken(claims, s.secret, s.accessTtlSeconds, seconds(now));
}

export function signRefreshToken(claims: RefreshClaims, s: TokenSettings, now: Date): string {
  return signToken(claims, s.secret, s.refreshTtlSeconds, seconds(now));
}

export function verifyRefreshToken(token: string, secret: string, now: Date): RefreshClaims | null {
  const checked = verifyToken(token, secret, seconds(now));
  if (!checked.ok) return null;
  const { payload } = checked;
  if (payload.type !== 'refresh') return null;
  if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || !JTI.test(payload.jti)) return null;
  return { sub: payload.sub, type: 'refresh', jti: payload.jti };
}

const JTI = /^[A-Za-z0-9_-]{16,64}$/;

/** The refresh token's SHA-256 (hex): 64 bytes, inside bcrypt's 72-byte input, as the contract asks. */
export function refreshDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}
