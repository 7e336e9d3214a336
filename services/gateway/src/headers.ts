// The headers the gateway sends upstream and back (pure): what a client may never set, by the
// name any hop could fold it to, and what the gateway sets itself.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Role } from '../../kit/src/core/index.js';

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

/**
 * A header name as some hop may fold it: lower case, every run of characters other than letters
 * and digits one `-`, none at either end (`X_User_Id`, `x.user.id`, `X--USER--ID` are `x-user-id`).
 */
export function normalizeHeaderName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Prefixes and names (without separators, the fold that drops them all) only the gateway sets. */
const TRUSTED_PREFIXES = ['xuser', 'xactor', 'xorganization', 'xforwarded', 'xinternal'];
const TRUSTED_NAMES = new Set([
  'xrequestid',
  'forwarded',
  'xrealip',
  'xclientip',
  'trueclientip',
  'xclusterclientip',
  'cfconnectingip',
  'fastlyclientip',
  'xoriginalforwardedfor',
]);

/**
 * True for a header a client may never send toward a service or the legacy system, in any
 * spelling: the actor (`X-User-*`, `X-Actor-*`, including `X-Actor-Scope`), the organization,
 * the internal token, the request id, and every client-address header (`X-Forwarded-*`,
 * `Forwarded`, `X-Real-IP`, …). Compared without any separator, so `XUserId` and `X_User_Id` are
 * `X-User-Id`; a harmless custom header that happens to start the same way is dropped too.
 */
export function isTrustedHeader(name: string): boolean {
  const compact = normalizeHeaderName(name).replace(/-/g, '');
  return TRUSTED_NAMES.has(compact) || TRUSTED_PREFIXES.some((p) => compact.startsWith(p));
}

const CREDENTIALS = new Set(['authorization', 'cookie']);

/** Who the gateway says is calling, in the resolved organization. */
export interface Actor {
  userId: string;
  /** The role in the resolved organization (the membership's), see identity.ts `effectiveRole`. */
  role: Role;
  organizationId?: string;
  /** `self`: the service treats the actor as the owner of its own rows only (the public inbox). */
  scope?: 'self';
}

export interface ForwardOptions {
  actor?: Actor;
  /** Keep Authorization and Cookie (the auth service and legacy read them; other services get headers instead). */
  keepCredentials: boolean;
  internalToken?: string;
  requestId: string;
  /** The one client address the gateway resolved (GATEWAY_TRUST_PROXY); it replaces any chain the client sent. */
  clientAddress?: string;
}

/** The request headers toward an upstream: the client's, minus hop-by-hop and trusted ones, plus ours. */
export function forwardHeaders(client: IncomingHttpHeaders, opts: ForwardOptions): OutgoingHttpHeaders {
  const out = responseHeaders(client);
  for (const name of Object.keys(out)) {
    if (isTrustedHeader(name) || (!opts.keepCredentials && CREDENTIALS.has(name))) delete out[name];
  }
  out['x-request-id'] = opts.requestId;
  if (opts.clientAddress) out['x-forwarded-for'] = opts.clientAddress;
  if (opts.internalToken) out['x-internal-token'] = opts.internalToken;
  if (opts.actor) Object.assign(out, actorHeaders(opts.actor));
  return out;
}

/** Both spellings the services read (`X-User-*` for attempt and document import, `X-Actor-*` for notification). */
export function actorHeaders(actor: Actor): Record<string, string> {
  const h: Record<string, string> = {
    'x-user-id': actor.userId,
    'x-user-role': actor.role,
    'x-actor-id': actor.userId,
    'x-actor-role': actor.role,
  };
  if (actor.organizationId) h['x-organization-id'] = actor.organizationId;
  if (actor.scope) h['x-actor-scope'] = actor.scope;
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
