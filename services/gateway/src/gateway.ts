// The `/api` dispatcher: rate limit, route table, identity, forward; every refusal in the envelope.
// A plain node:http handler, not Express: on the one path every public request takes, Express's
// router and request decoration were a share of the hop's cost the services behind it do not pay twice.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type Logger } from '../../kit/src/index.js';
import { clientAddress, sendError } from './envelope.js';
import {
  extractToken,
  forwardHeaders,
  headerValue,
  resolveOrganization,
  type Caller,
  type TokenVerifier,
  type Verified,
} from './identity.js';
import type { GatewayMetrics } from './metrics.js';
import { forward, type Upstream } from './proxy.js';
import type { RateLimiter } from './rate-limit.js';
import type { Guard, Match, RouteIndex, TableName } from './tables.js';

export interface GatewayDeps {
  routes: RouteIndex;
  upstreams: Partial<Record<TableName, Upstream>>;
  legacy?: Upstream;
  /** Access-token verification with AUTH_JWT_SECRET (identity.ts `cachedVerifier`). */
  verify: TokenVerifier;
  internalToken?: string;
  /** Proxy hops in front of the gateway whose X-Forwarded-For is trusted for the client address (as Express's `trust proxy`). */
  trustProxy: number;
  limiter: RateLimiter;
  metrics: GatewayMetrics;
  logger: Logger;
  now?: () => number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform"' };
const INVALID_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform", error="invalid_token"' };

export type ApiHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Handles every `/api` request; the caller has checked the prefix. */
export function apiHandler(deps: GatewayDeps): ApiHandler {
  const now = deps.now ?? Date.now;
  return (req, res) => {
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    // A child logger only when something is refused: most requests never need one.
    const fail = (err: unknown) => sendError(req, res, err, deps.logger.child({ reqId: requestId }));
    const method = req.method ?? 'GET';
    const match = deps.routes.match(method, req.url ?? '/');
    track(deps, res, { requestId, method, table: match?.table.name ?? (deps.legacy ? 'legacy' : 'unmapped') });
    try {
      dispatch(deps, req, res, { match, requestId, fail, nowMs: now() });
    } catch (err) {
      fail(err);
    }
  };
}

function dispatch(
  deps: GatewayDeps,
  req: IncomingMessage,
  res: ServerResponse,
  call: { match: Match | undefined; requestId: string; fail: (err: unknown) => void; nowMs: number },
): void {
  const { match, requestId, fail, nowMs } = call;
  // The token is verified once, and only where it counts: for a token table or the rate-limit key.
  const needed = match?.table.guard.identity === 'token' || deps.limiter.enabled;
  const verified = needed ? tokenOf(req, deps.verify, nowMs) : undefined;
  if (deps.limiter.enabled) limit(deps, req, verified, nowMs);
  if (match) toService(deps, req, res, { match, verified, requestId, fail });
  else toLegacy(deps, req, res, { requestId, fail });
}

/** On finish: the per-table histogram and the request line (method, table, status; never the URL: tokens). */
function track(deps: GatewayDeps, res: ServerResponse, line: { requestId: string; method: string; table: string }) {
  const started = performance.now();
  res.on('finish', () => {
    const ms = performance.now() - started;
    deps.metrics.observe(line.table, line.method, res.statusCode, ms / 1000);
    deps.logger.info(
      {
        reqId: line.requestId,
        method: line.method,
        table: line.table,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      },
      'request',
    );
  });
}

/** A well-formed client request id is kept (traces cross the edge); anything else gets a fresh one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

function tokenOf(req: IncomingMessage, verify: TokenVerifier, nowMs: number): Verified | undefined {
  const token = extractToken(req.headers);
  return token === undefined ? undefined : verify(token, Math.floor(nowMs / 1000));
}

/** A valid token's user is the client; otherwise the client's address (so one NAT'd school with tokens is many clients). */
function limit(deps: GatewayDeps, req: IncomingMessage, verified: Verified | undefined, nowMs: number): void {
  const key = verified?.ok ? `u:${verified.caller.userId}` : `a:${clientAddress(req, deps.trustProxy) ?? '?'}`;
  const decision = deps.limiter.take(key, nowMs);
  if (decision.ok) return;
  throw new AppError('RATE_LIMITED', 'Too many requests; retry later', {
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
  });
}

interface ServiceCall {
  match: Match;
  verified: Verified | undefined;
  requestId: string;
  fail: (err: unknown) => void;
}

function toService(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, call: ServiceCall): void {
  const { match, requestId } = call;
  const upstream = deps.upstreams[match.table.name];
  if (!upstream) throw notFound(req);
  const guard = match.table.guard;
  const identity =
    guard.identity === 'token' ? admit(guard, call.verified, headerValue(req.headers, 'x-organization-id')) : undefined;
  const headers = forwardHeaders(req.headers, {
    caller: identity?.caller,
    organizationId: identity?.organizationId,
    keepCredentials: guard.identity === 'service',
    internalToken: deps.internalToken,
    requestId,
    clientAddress: req.socket.remoteAddress,
  });
  forward(req, res, { upstream, path: match.upstreamPath, headers }, call.fail);
}

/** The table's guard: a valid access token, an allowed global role, an organization the token allows. */
export function admit(
  guard: Guard,
  verified: Verified | undefined,
  requestedOrg: string | undefined,
): { caller: Caller; organizationId?: string } {
  if (!verified) throw new AppError('UNAUTHENTICATED', 'An access token is required', { headers: BEARER_CHALLENGE });
  if (!verified.ok) {
    const message = verified.reason === 'expired' ? 'Access token expired' : 'Invalid access token';
    throw new AppError('UNAUTHENTICATED', message, { headers: INVALID_CHALLENGE });
  }
  const { caller } = verified;
  if (guard.roles && !guard.roles.includes(caller.role)) {
    throw new AppError('FORBIDDEN', `This route needs one of the roles ${guard.roles.join(', ')}`);
  }
  const org = resolveOrganization(caller, requestedOrg);
  if (!org.ok) throw new AppError('FORBIDDEN', 'Not a member of the requested organization');
  if (guard.requireOrganization && !org.organizationId) {
    throw new AppError('FORBIDDEN', 'This route needs an organization and the token names none');
  }
  return { caller, organizationId: org.organizationId };
}

/**
 * Nothing unmapped reaches a service: the legacy system when one is configured; else a path a
 * table maps with other methods is 405 with `Allow` (as the services answer), any other is 404.
 */
function toLegacy(
  deps: GatewayDeps,
  req: IncomingMessage,
  res: ServerResponse,
  call: { requestId: string; fail: (err: unknown) => void },
): void {
  if (!deps.legacy) throw unmapped(deps.routes.methods(req.url ?? '/'), req);
  // The legacy system authenticates on its own: credentials pass, the internal token never leaves the platform.
  const headers = forwardHeaders(req.headers, {
    keepCredentials: true,
    requestId: call.requestId,
    clientAddress: req.socket.remoteAddress,
  });
  forward(req, res, { upstream: deps.legacy, path: req.url ?? '/', headers }, call.fail);
}

function unmapped(methods: string[], req: IncomingMessage): AppError {
  if (methods.length === 0) return notFound(req);
  return new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed for ${pathOf(req)}`, {
    headers: { Allow: methods.join(', ') },
    details: { allow: methods },
  });
}

function notFound(req: IncomingMessage): AppError {
  return new AppError('ROUTE_NOT_FOUND', `No route for ${req.method} ${pathOf(req)}`);
}

/** The path without the query (a token may ride in a query string; messages never carry one). */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
