// Identity at the edge (pure): the access token, its verification, and the organization rule with
// the caller's role in the organization.
import type { IncomingHttpHeaders } from 'node:http';
import {
  ROLES,
  verifyAccessToken,
  type AccessRefusal,
  type Role,
  type TokenSecret,
  type VerifiedAccess,
} from '../../kit/src/core/index.js';

/** Ours are about 400 characters; anything far past that is not parsed at all. */
const MAX_TOKEN_LENGTH = 8192;
/** The ids the services accept in actor headers (services/kit/src/core/actor.ts). */
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
  /** Expires at, in seconds: an event stream opened with the token ends then (streams.ts). */
  exp: number;
}

export type Refusal = AccessRefusal | 'revoked';
export type Verified = { ok: true; caller: Caller } | { ok: false; reason: Refusal };

/** Access tokens living longer than this (`exp - iat`) are refused; auth issues 15 minutes. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * The caller behind an access token: the kit's `verifyAccessToken` (HS256 only, expiry, type=access,
 * sub, role and fullName) with `iat` required and `exp` at most `maxLifetime` seconds after `iat`
 * (and after now), and a token without `sid` accepted (issued before auth added it; revocation.ts
 * revokes those user-wide). Then ids and roles the services accept: anything else is invalid.
 */
export function verifyCaller(
  token: string,
  secret: TokenSecret,
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
  secret: TokenSecret;
  maxLifetime: number;
}

function refused(reason: Refusal): Checked {
  return { verified: { ok: false, reason }, nbf: 0, exp: 0 };
}

function checkAccessToken(token: string, key: VerifyKey, nowSeconds: number): Checked {
  if (token.length > MAX_TOKEN_LENGTH) return refused('invalid');
  const checked = verifyAccessToken(token, key.secret, nowSeconds, {
    maxLifetimeSeconds: key.maxLifetime,
    allowMissingSid: true,
  });
  if (!checked.ok) return refused(checked.reason);
  const { claims } = checked;
  const { nbf } = claims.payload;
  return { verified: callerFrom(claims), nbf: typeof nbf === 'number' ? nbf : -Infinity, exp: claims.exp };
}

export type TokenVerifier = (token: string, nowSeconds: number) => Verified;

/**
 * `verifyCaller` with the accepted tokens remembered by their exact string until they expire:
 * a token is immutable, so a string that verified once verifies again until its `exp` (or before
 * its `nbf`), and a client sends the same one on every request. Refused tokens are not kept (a
 * flood of garbage must not push real ones out); past `max` entries the oldest go first.
 */
export function cachedVerifier(secret: TokenSecret, opts: { max?: number; maxLifetime?: number } = {}): TokenVerifier {
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

/** The kit checked the claims are there; the edge also wants ids and a role the services accept. */
function callerFrom(claims: VerifiedAccess): Verified {
  // iat is always there: maxLifetimeSeconds requires it.
  const { sub, role, sid, iat = 0, exp, payload } = claims;
  if (!isId(sub) || !isRole(role) || (sid !== undefined && !isId(sid))) return { ok: false, reason: 'invalid' };
  const caller: Caller = { userId: sub, role, iat, exp };
  if (sid !== undefined) caller.sid = sid;
  const { defaultOrganizationId, memberships } = payload;
  if (isId(defaultOrganizationId)) caller.defaultOrganizationId = defaultOrganizationId;
  if (memberships !== undefined) caller.memberships = Object.freeze(membershipsOf(memberships));
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
