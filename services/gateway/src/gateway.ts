// The `/api` dispatcher: rate limit, route table, identity, forward; every refusal in the envelope.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError, type Logger } from '../../kit/src/index.js';
import {
  extractToken,
  forwardHeaders,
  headerValue,
  resolveOrganization,
  verifyAccessToken,
  type Caller,
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
  secret: string;
  internalToken?: string;
  limiter: RateLimiter;
  metrics: GatewayMetrics;
  logger: Logger;
  now?: () => number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform"' };
const INVALID_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform", error="invalid_token"' };

/** Handles every `/api` request; the caller has checked the prefix. */
export function apiHandler(deps: GatewayDeps) {
  const now = deps.now ?? Date.now;
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    const match = deps.routes.match(req.method, req.url);
    const table = match?.table.name ?? (deps.legacy ? 'legacy' : 'unmapped');
    res.on('finish', () => {
      const ms = performance.now() - started;
      deps.metrics.observe(table, req.method, res.statusCode, ms / 1000);
      deps.logger.info(
        { reqId: requestId, method: req.method, table, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    try {
      // The token is verified once, and only where it counts: for a token table or the rate-limit key.
      const needed = match?.table.guard.identity === 'token' || deps.limiter.enabled;
      const verified = needed ? tokenOf(req, deps.secret, now) : undefined;
      if (deps.limiter.enabled) limit(deps, req, verified, now());
      if (match) toService(deps, req, res, { match, verified, requestId, next });
      else toLegacy(deps, req, res, { requestId, next });
    } catch (err) {
      next(err);
    }
  };
}

/** A well-formed client request id is kept (traces cross the edge); anything else gets a fresh one. */
function requestIdOf(req: Request): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

function tokenOf(req: Request, secret: string, now: () => number): Verified | undefined {
  const token = extractToken(req.headers);
  return token === undefined ? undefined : verifyAccessToken(token, secret, Math.floor(now() / 1000));
}

/** A valid token's user is the client; otherwise the client's address (so one NAT'd school with tokens is many clients). */
function limit(deps: GatewayDeps, req: Request, verified: Verified | undefined, nowMs: number): void {
  const key = verified?.ok ? `u:${verified.caller.userId}` : `a:${req.ip ?? req.socket.remoteAddress ?? '?'}`;
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
  next: NextFunction;
}

function toService(deps: GatewayDeps, req: Request, res: Response, call: ServiceCall): void {
  const { match, requestId } = call;
  const upstream = deps.upstreams[match.table.name];
  if (!upstream) throw new AppError('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`);
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
  forward(req, res, { upstream, path: match.upstreamPath, headers }, call.next);
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

/** Nothing unmapped reaches a service: the legacy system when one is configured, else 404. */
function toLegacy(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  call: { requestId: string; next: NextFunction },
): void {
  if (!deps.legacy) throw new AppError('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`);
  // The legacy system authenticates on its own: credentials pass, the internal token never leaves the platform.
  const headers = forwardHeaders(req.headers, {
    keepCredentials: true,
    requestId: call.requestId,
    clientAddress: req.socket.remoteAddress,
  });
  forward(req, res, { upstream: deps.legacy, path: req.url, headers }, call.next);
}
