// Identity at the edge (pure): the access token, its verification, and the organization rule with
// the caller's role in the organization.
import type { KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import jwt from 'jsonwebtoken';
import { bearerToken, ROLES, type Role } from '../../kit/src/index.js';

export const ACCESS_COOKIE = 'platform.accessToken';
/** Ours are about 400 characters; anything far past that is not parsed at all. */
const MAX_TOKEN_LENGTH = 8192;
/** The ids the services accept in actor headers (services/kit/src/actor.ts). */
const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

/** An organization the token names and the caller's role in it. */
export interface Membership {
  organizationId: string;
  role: Role;
}

export interface Caller {
  userId: string;
  /** The token's global `role`: it decides only where the token carries no memberships (see `resolveOrganization`). */
  role: Role;
  defaultOrganizationId?: string;
  /**
   * The `memberships` claim, or undefined for a token without one (issued before auth added it):
   * such a token acts only in its default organization, with its global role there.
   */
  memberships?: readonly Membership[];
  /** The session id (`sid`): logout and account disable revoke it (revocation.ts). */
  sid?: string;
  /** Issued at, in seconds: a token without `sid` is revoked by a user-wide revocation after it. */
  iat: number;
}

export type Refusal = 'invalid' | 'expired' | 'not-access' | 'revoked';
export type Verified = { ok: true; caller: Caller } | { ok: false; reason: Refusal };

/** `Authorization: Bearer` first, then the `platform.accessToken` cookie, as the auth service reads them. */
export function extractToken(headers: IncomingHttpHeaders): string | undefined {
  const bearer = bearerToken(headers.authorization);
  if (bearer !== undefined) return bearer;
  return cookieValue(headers.cookie, ACCESS_COOKIE);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Access tokens living longer than this (`exp - iat`) are refused; auth issues 15 minutes. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * Signature (HS256 only), expiry, `type=access` and the claims the auth service requires (sub,
 * role, fullName). `exp` and `iat` are required and `exp` may lie at most `maxLifetime` seconds
 * after `iat` (and after now): a token that never expires, or for a year, is refused as invalid.
 * Pass the secret as a KeyObject made once: given a string, jsonwebtoken first tries it as a PEM
 * public key and catches the failure, about 40 times the cost of the check itself.
 */
export function verifyAccessToken(
  token: string,
  secret: string | KeyObject,
  nowSeconds: number,
  maxLifetime = DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
): Verified {
  return checkAccessToken(token, { secret, maxLifetime }, nowSeconds).verified;
}

interface Checked {
  verified: Verified;
  /** The token's validity window in seconds, for the cache. */
  nbf: number;
  exp: number;
}

interface VerifyKey {
  secret: string | KeyObject;
  maxLifetime: number;
}

function refused(reason: Refusal): Checked {
  return { verified: { ok: false, reason }, nbf: 0, exp: 0 };
}

function checkAccessToken(token: string, key: VerifyKey, nowSeconds: number): Checked {
  if (token.length > MAX_TOKEN_LENGTH) return refused('invalid');
  let payload: unknown;
  try {
    payload = jwt.verify(token, key.secret, { algorithms: ['HS256'], clockTimestamp: nowSeconds });
  } catch (err) {
    return refused((err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid');
  }
  if (typeof payload !== 'object' || payload === null) return refused('invalid');
  const claims = payload as Record<string, unknown>;
  if (claims.type !== 'access') return refused('not-access');
  const { exp, iat } = claims;
  if (!withinLifetime(exp, iat, nowSeconds, key.maxLifetime)) return refused('invalid');
  return {
    verified: callerFrom(claims, iat as number),
    nbf: typeof claims.nbf === 'number' ? claims.nbf : -Infinity,
    exp: exp as number,
  };
}

/** `exp` and `iat` both given, and `exp` at most `max` seconds after each of `iat` and now. */
function withinLifetime(exp: unknown, iat: unknown, nowSeconds: number, max: number): iat is number {
  if (typeof exp !== 'number' || typeof iat !== 'number') return false;
  return exp - iat <= max && exp - nowSeconds <= max;
}

export type TokenVerifier = (token: string, nowSeconds: number) => Verified;

/**
 * `verifyAccessToken` with the accepted tokens remembered by their exact string until they expire:
 * a token is immutable, so a string that verified once verifies again until its `exp` (or before
 * its `nbf`), and a client sends the same one on every request. Refused tokens are not kept (a
 * flood of garbage must not push real ones out); past `max` entries the oldest go first.
 */
export function cachedVerifier(
  secret: string | KeyObject,
  opts: { max?: number; maxLifetime?: number } = {},
): TokenVerifier {
  const max = opts.max ?? 10_000;
  const key = { secret, maxLifetime: opts.maxLifetime ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS };
  const accepted = new Map<string, Checked>();
  return (token, nowSeconds) => {
    const hit = accepted.get(token);
    if (hit && nowSeconds >= hit.nbf) {
      if (nowSeconds < hit.exp) return hit.verified;
      accepted.delete(token);
      return { ok: false, reason: 'expired' };
    }
    const checked = checkAccessToken(token, key, nowSeconds);
    if (!checked.verified.ok) return checked.verified;
    if (accepted.size >= max) accepted.delete(accepted.keys().next().value as string);
    accepted.set(token, checked);
    return checked.verified;
  };
}

function callerFrom(claims: Record<string, unknown>, iat: number): Verified {
  const { sub, role, fullName, defaultOrganizationId, sid } = claims;
  if (!isId(sub) || typeof fullName !== 'string' || fullName === '') return { ok: false, reason: 'invalid' };
  if (!isRole(role) || (sid !== undefined && !isId(sid))) return { ok: false, reason: 'invalid' };
  const caller: Caller = { userId: sub, role, iat };
  if (isId(sid)) caller.sid = sid;
  if (isId(defaultOrganizationId)) caller.defaultOrganizationId = defaultOrganizationId;
  if (claims.memberships !== undefined) caller.memberships = Object.freeze(membershipsOf(claims.memberships));
  // Frozen: a cached caller serves every later request of the same token.
  return { ok: true, caller: Object.freeze(caller) };
}

const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);
const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

/**
 * `memberships: [{ organizationId, role }]`. An entry without a valid id and role names no
 * organization (a bare id, as an older draft of the claim had, grants nothing). A claim that is
 * there but not a list is no memberships at all (never the legacy fallback).
 */
function membershipsOf(value: unknown): Membership[] {
  if (!Array.isArray(value)) return [];
  const out: Membership[] = [];
  for (const m of value.slice(0, 100)) {
    const { organizationId, role } = (m ?? {}) as { organizationId?: unknown; role?: unknown };
    if (isId(organizationId) && isRole(role)) {
      out.push(Object.freeze({ organizationId, role }));
    }
  }
  return out;
}

/** The organization a request acts in and the caller's role there, or a refusal. */
export type OrgDecision = { ok: true; organizationId?: string; role: Role } | { ok: false };

/**
 * The organization rule and the role in it.
 * - A token with a `memberships` claim acts only where it has a membership, with that
 *   membership's role. Without X-Organization-Id it acts in its default organization when it is a
 *   member there, else in none (global role; only tables that need no organization admit it).
 * - A token without the claim (issued before auth added it) acts only in its default
 *   organization, with its global role there, as before.
 * A request naming any other organization is refused, never silently moved to the default one.
 */
export function resolveOrganization(caller: Caller, requested: string | undefined): OrgDecision {
  const { memberships, defaultOrganizationId: home } = caller;
  if (memberships === undefined) {
    if (requested === undefined || requested === home) return { ok: true, organizationId: home, role: caller.role };
    return { ok: false };
  }
  const wanted = requested ?? home;
  const found = wanted === undefined ? undefined : memberships.find((m) => m.organizationId === wanted);
  if (found) return { ok: true, organizationId: found.organizationId, role: found.role };
  if (requested === undefined) return { ok: true, role: caller.role };
  return { ok: false };
}

/** The first value of a header, trimmed; empty is absent. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}
