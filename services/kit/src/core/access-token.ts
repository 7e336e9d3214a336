// The platform's tokens, stated once: the auth service issues and verifies them, the gateway
// verifies access tokens at the edge. Pure: time comes in as an argument.
import { createSecretKey, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import Joi from 'joi';
import jwt from 'jsonwebtoken';
import { ConfigError } from './config-error.js';
import { bearerToken } from './secrets.js';

/** The development default of AUTH_JWT_SECRET: public knowledge, so production refuses it. */
export const DEV_JWT_SECRET = 'edu-platform-development-only-jwt-secret';

/** The cookie a browser sends the access token in, when no `Authorization: Bearer` is sent. */
export const ACCESS_COOKIE = 'platform.accessToken';

/** The only algorithm tokens are signed and accepted with (never `none`, never a public-key one). */
export const TOKEN_ALGORITHM = 'HS256';

/** Config keys for services that sign or verify tokens: spread into a service's schema. */
export const tokenConfig = {
  AUTH_JWT_SECRET: Joi.string().min(16).default(DEV_JWT_SECRET),
};

/** Refuses the development secret, or a short one, in production: one line naming the variable. */
export function assertTokenSecretSafe(config: { NODE_ENV: string; AUTH_JWT_SECRET: string }): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.AUTH_JWT_SECRET === DEV_JWT_SECRET || config.AUTH_JWT_SECRET.length < 32) {
    throw new ConfigError(
      'config: "AUTH_JWT_SECRET" must be set to a non-default secret of at least 32 characters in production',
    );
  }
}

/** An organization the user belongs to, and the role held there (what every scoped check uses). */
export interface MembershipClaim {
  organizationId: string;
  role: string;
}

/**
 * The access token's claims as auth issues them: the contract's claims plus `sid` (the session,
 * i.e. the token family, which the revocation feed names) and `memberships` (ACTIVE only, at most
 * 100); signing adds iat and exp.
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

/** What verification guarantees of an access token; `payload` is all it carries, the rest unchecked. */
export interface VerifiedAccess {
  sub: string;
  role: string;
  fullName: string;
  exp: number;
  sid?: string;
  iat?: number;
  payload: Readonly<Record<string, unknown>>;
}

export type TokenRefusal = 'invalid' | 'expired';
export type AccessRefusal = TokenRefusal | 'not-access';
export type AccessCheck<C = VerifiedAccess> = { ok: true; claims: C } | { ok: false; reason: AccessRefusal };
export type TokenCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; reason: TokenRefusal };
/** A string secret, or a key made from it once. */
export type TokenSecret = string | KeyObject;

export interface AccessVerifyOptions {
  /** When set, `iat` is required and `exp` may lie at most this many seconds after `iat` and after now. */
  maxLifetimeSeconds?: number;
  /** Accept a token without `sid` (issued before auth added it); a `sid` that is there is still checked. */
  allowMissingSid?: boolean;
}

// Given a string, jsonwebtoken first tries it as a PEM key and catches the failure on every call
// (about 350 µs); a secret KeyObject made once per secret skips that.
const keys = new Map<string, KeyObject>();
function keyOf(secret: TokenSecret): KeyObject {
  if (typeof secret !== 'string') return secret;
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/** Signs `claims` with iat = now and exp = now + ttl (seconds). */
export function signToken(claims: object, secret: TokenSecret, ttlSeconds: number, nowSeconds: number): string {
  return jwt.sign({ ...claims, iat: nowSeconds }, keyOf(secret), {
    algorithm: TOKEN_ALGORITHM,
    expiresIn: ttlSeconds,
  });
}

/** Signature, algorithm, expiry and not-before at `nowSeconds`, with no clock tolerance; never throws. */
export function verifyToken(token: string, secret: TokenSecret, nowSeconds: number): TokenCheck {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: [TOKEN_ALGORITHM], clockTimestamp: nowSeconds });
    if (typeof payload === 'object' && payload !== null)
      return { ok: true, payload: payload as Record<string, unknown> };
    return { ok: false, reason: 'invalid' };
  } catch (err) {
    return { ok: false, reason: (err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}

/**
 * An access token: `verifyToken`, then `type=access` (else `not-access`), `exp` present (a token
 * without it would never expire), non-empty `sub`, `role` and `fullName`, and a non-empty `sid`
 * (without one a session could never be revoked; see `allowMissingSid`). Everything else is
 * `invalid`.
 */
export function verifyAccessToken(
  token: string,
  secret: TokenSecret,
  nowSeconds: number,
  opts?: AccessVerifyOptions & { allowMissingSid?: false },
): AccessCheck<VerifiedAccess & { sid: string }>;
export function verifyAccessToken(
  token: string,
  secret: TokenSecret,
  nowSeconds: number,
  opts: AccessVerifyOptions,
): AccessCheck;
export function verifyAccessToken(
  token: string,
  secret: TokenSecret,
  nowSeconds: number,
  opts: AccessVerifyOptions = {},
): AccessCheck {
  const checked = verifyToken(token, secret, nowSeconds);
  if (!checked.ok) return checked;
  const { payload } = checked;
  if (payload.type !== 'access') return { ok: false, reason: 'not-access' };
  const { sub, role, fullName, exp, sid, iat } = payload;
  const valid =
    typeof exp === 'number' &&
    [sub, role, fullName].every(isFilled) &&
    (sid === undefined ? opts.allowMissingSid === true : isFilled(sid)) &&
    withinLifetime(exp, iat, nowSeconds, opts.maxLifetimeSeconds);
  return valid ? { ok: true, claims: verifiedFrom(payload) } : { ok: false, reason: 'invalid' };
}

const isFilled = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Called once the claims are checked: copies them out typed, leaving absent ones absent. */
function verifiedFrom(payload: Record<string, unknown>): VerifiedAccess {
  const { sub, role, fullName, exp, sid, iat } = payload;
  const claims = { sub, role, fullName, exp, payload } as VerifiedAccess;
  if (typeof sid === 'string') claims.sid = sid;
  if (typeof iat === 'number') claims.iat = iat;
  return claims;
}

function withinLifetime(exp: number, iat: unknown, nowSeconds: number, max: number | undefined): boolean {
  if (max === undefined) return true;
  return typeof iat === 'number' && exp - iat <= max && exp - nowSeconds <= max;
}

/**
 * The access token a request carries: `Authorization: Bearer` first, then the `platform.accessToken`
 * cookie. An Authorization header that is not a well-formed Bearer does not hide the cookie.
 */
export function accessTokenOf(headers: IncomingHttpHeaders): string | undefined {
  return bearerToken(headers.authorization) ?? accessCookie(headers.cookie);
}

/**
 * The `platform.accessToken` cookie's value: the first one of that name, without the double quotes
 * RFC 6265 allows around a cookie-value, percent-decoded; empty or badly encoded is none.
 */
export function accessCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== ACCESS_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
