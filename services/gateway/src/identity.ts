// Identity at the edge (pure): the access token, its verification, the organization rule and the
// headers the services trust.
import type { KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import jwt from 'jsonwebtoken';
import { ROLES, type Role } from '../../kit/src/index.js';

export const ACCESS_COOKIE = 'platform.accessToken';
/** Ours are about 400 characters; anything far past that is not parsed at all. */
const MAX_TOKEN_LENGTH = 8192;
/** The ids the services accept in actor headers (services/kit/src/actor.ts). */
const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

export interface Caller {
  userId: string;
  role: Role;
  defaultOrganizationId?: string;
  /** Organizations the token names beyond the default (a `memberships` claim, when auth issues one). */
  organizations: readonly string[];
}

export type Verified = { ok: true; caller: Caller } | { ok: false; reason: 'invalid' | 'expired' | 'not-access' };

/** `Authorization: Bearer` first, then the `platform.accessToken` cookie, as the auth service reads them. */
export function extractToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    if (m) return m[1];
  }
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

/**
 * Signature (HS256 only), expiry, `type=access` and the claims the auth service requires (sub,
 * role, fullName). Pass the secret as a KeyObject made once: given a string, jsonwebtoken first
 * tries it as a PEM public key and catches the failure, about 40 times the cost of the check itself.
 */
export function verifyAccessToken(token: string, secret: string | KeyObject, nowSeconds: number): Verified {
  return checkAccessToken(token, secret, nowSeconds).verified;
}

interface Checked {
  verified: Verified;
  /** The token's validity window in seconds (open ends when it names none), for the cache. */
  nbf: number;
  exp: number;
}

function checkAccessToken(token: string, secret: string | KeyObject, nowSeconds: number): Checked {
  const refused = (reason: 'invalid' | 'expired' | 'not-access'): Checked => ({
    verified: { ok: false, reason },
    nbf: 0,
    exp: 0,
  });
  if (token.length > MAX_TOKEN_LENGTH) return refused('invalid');
  let payload: unknown;
  try {
    payload = jwt.verify(token, secret, { algorithms: ['HS256'], clockTimestamp: nowSeconds });
  } catch (err) {
    return refused((err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid');
  }
  if (typeof payload !== 'object' || payload === null) return refused('invalid');
  const claims = payload as Record<string, unknown>;
  if (claims.type !== 'access') return refused('not-access');
  return {
    verified: callerFrom(claims),
    nbf: typeof claims.nbf === 'number' ? claims.nbf : -Infinity,
    exp: typeof claims.exp === 'number' ? claims.exp : Infinity,
  };
}

export type TokenVerifier = (token: string, nowSeconds: number) => Verified;

/**
 * `verifyAccessToken` with the accepted tokens remembered by their exact string until they expire:
 * a token is immutable, so a string that verified once verifies again until its `exp` (or before
 * its `nbf`), and a client sends the same one on every request. Refused tokens are not kept (a
 * flood of garbage must not push real ones out); past `max` entries the oldest go first.
 */
export function cachedVerifier(secret: string | KeyObject, max = 10_000): TokenVerifier {
  const accepted = new Map<string, Checked>();
  return (token, nowSeconds) => {
    const hit = accepted.get(token);
    if (hit && nowSeconds >= hit.nbf) {
      if (nowSeconds < hit.exp) return hit.verified;
      accepted.delete(token);
      return { ok: false, reason: 'expired' };
    }
    const checked = checkAccessToken(token, secret, nowSeconds);
    if (!checked.verified.ok) return checked.verified;
    if (accepted.size >= max) accepted.delete(accepted.keys().next().value as string);
    accepted.set(token, checked);
    return checked.verified;
  };
}

function callerFrom(claims: Record<string, unknown>): Verified {
  const { sub, role, fullName, defaultOrganizationId } = claims;
  if (typeof sub !== 'string' || !ID.test(sub)) return { ok: false, reason: 'invalid' };
  if (typeof fullName !== 'string' || fullName === '') return { ok: false, reason: 'invalid' };
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return { ok: false, reason: 'invalid' };
  const caller: Caller = { userId: sub, role: role as Role, organizations: membershipOrgs(claims.memberships) };
  if (typeof defaultOrganizationId === 'string' && ID.test(defaultOrganizationId)) {
    caller.defaultOrganizationId = defaultOrganizationId;
  }
  // Frozen: a cached caller serves every later request of the same token.
  Object.freeze(caller.organizations);
  return { ok: true, caller: Object.freeze(caller) };
}

/** `memberships: [{ organizationId }]` or `["org"]`; anything else names no organization. */
function membershipOrgs(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const m of value.slice(0, 100)) {
    const id = typeof m === 'string' ? m : (m as { organizationId?: unknown } | null)?.organizationId;
    if (typeof id === 'string' && ID.test(id)) out.push(id);
  }
  return out;
}

export type OrgDecision = { ok: true; organizationId?: string } | { ok: false };

/**
 * The organization rule: a requested `X-Organization-Id` is used only when the token allows it
 * (its default organization or one of its memberships); a request without one acts in the
 * token's default organization; a request naming any other organization is refused, never
 * silently moved to the default one.
 */
export function resolveOrganization(caller: Caller, requested: string | undefined): OrgDecision {
  if (requested === undefined) return { ok: true, organizationId: caller.defaultOrganizationId };
  if (requested === caller.defaultOrganizationId || caller.organizations.includes(requested)) {
    return { ok: true, organizationId: requested };
  }
  return { ok: false };
}

/** The first value of a header, trimmed; empty is absent. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
]);

/** Headers a client may never set toward a service: the actor, the organization, the internal token. */
export function isTrustedHeader(name: string): boolean {
  return (
    name.startsWith('x-user-') ||
    name.startsWith('x-actor-') ||
    name === 'x-organization-id' ||
    name === 'x-internal-token' ||
    name === 'x-request-id' ||
    name === 'x-forwarded-for'
  );
}

const CREDENTIALS = new Set(['authorization', 'cookie']);

export interface ForwardOptions {
  caller?: Caller;
  organizationId?: string;
  /** Keep Authorization and Cookie (the auth service and legacy read them; other services get headers instead). */
  keepCredentials: boolean;
  internalToken?: string;
  requestId: string;
  clientAddress?: string;
}

/** The request headers toward an upstream: the client's, minus hop-by-hop and trusted ones, plus ours. */
export function forwardHeaders(client: IncomingHttpHeaders, opts: ForwardOptions): OutgoingHttpHeaders {
  const out = responseHeaders(client);
  for (const name of Object.keys(out)) {
    if (isTrustedHeader(name) || (!opts.keepCredentials && CREDENTIALS.has(name))) delete out[name];
  }
  out['x-request-id'] = opts.requestId;
  const xff = headerValue(client, 'x-forwarded-for');
  if (opts.clientAddress) out['x-forwarded-for'] = xff ? `${xff}, ${opts.clientAddress}` : opts.clientAddress;
  if (opts.internalToken) out['x-internal-token'] = opts.internalToken;
  if (opts.caller) Object.assign(out, actorHeaders(opts.caller, opts.organizationId));
  return out;
}

/** Both spellings the services read (`X-User-*` for attempt and document import, `X-Actor-*` for notification). */
export function actorHeaders(caller: Caller, organizationId: string | undefined): Record<string, string> {
  const h: Record<string, string> = {
    'x-user-id': caller.userId,
    'x-user-role': caller.role,
    'x-actor-id': caller.userId,
    'x-actor-role': caller.role,
  };
  if (organizationId) h['x-organization-id'] = organizationId;
  return h;
}

/** Headers without the hop-by-hop ones (the response toward the client; the base of a forwarded request). */
export function responseHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const listed = connectionListed(upstream.connection);
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();

function connectionListed(value: string | string[] | undefined): ReadonlySet<string> {
  // The usual values name no header: no parsing on every request and response.
  if (value === undefined || value === 'keep-alive' || value === 'close') return NO_NAMES;
  const v = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    v
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}
