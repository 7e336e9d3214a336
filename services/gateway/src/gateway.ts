// The `/api` dispatcher: rate limit, route table, identity, forward; every refusal in the envelope.
// A plain node:http handler, not Express: on the one path every public request takes, Express's
// router and request decoration were a share of the hop's cost the services behind it do not pay twice.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type BodyPace, type Logger } from '../../kit/src/core/index.js';
import { admit, clientKey, tokenOf } from './access.js';
import { paceBody, whenExchangeEnds } from './body.js';
import { assertSameOrigin } from './csrf.js';
import { clientAddress, sendError } from './envelope.js';
import type { Fairness, Slot } from './fairness.js';
import { forwardHeaders } from './headers.js';
import { headerValue, type Caller, type TokenVerifier, type Verified } from './identity.js';
import type { GatewayMetrics } from './metrics.js';
import { forward, type Upstream } from './proxy.js';
import type { RateLimiter } from './rate-limit.js';
import type { RevocationSet } from './revocation.js';
import { sessionEndedEvent, type OpenStreams } from './streams.js';
import { withQuery, type Match, type RouteIndex, type TableName } from './tables.js';

export interface GatewayDeps {
  routes: RouteIndex;
  upstreams: Partial<Record<TableName, Upstream>>;
  legacy?: Upstream;
  /** Access-token verification with AUTH_JWT_SECRET (identity.ts `cachedVerifier`). */
  verify: TokenVerifier;
  /** Sessions revoked at auth (revocation.ts), checked on every token. */
  revocations?: RevocationSet;
  /** True while the revocation feed has been unreachable past GATEWAY_REVOCATION_FAIL_CLOSED_MS: token tables answer 503. */
  revocationsStale?: (nowMs: number) => boolean;
  internalToken?: string;
  /** Proxy hops in front of the gateway whose X-Forwarded-For is trusted for the client address (as Express's `trust proxy`). */
  trustProxy: number;
  limiter: RateLimiter;
  /** Per-client caps on upstream requests in flight and open event streams. */
  fairness: Fairness;
  /** The event streams held open for a token, ended when their session is (streams.ts). */
  streams?: OpenStreams;
  /** Longest wait for a pooled upstream socket (GATEWAY_QUEUE_TIMEOUT_MS). */
  queueTimeoutMs: number;
  /** The pace a request body must keep (GATEWAY_BODY_*): an idle or slow body is cut, 408 while unanswered. */
  bodyPace: BodyPace;
  /** Bytes of a body still arriving after its answer that are read and dropped (GATEWAY_DRAIN_LIMIT_BYTES). */
  drainLimitBytes: number;
  /** Origins a cookie-authenticated write may come from (GATEWAY_ALLOWED_ORIGINS; empty: the Host's own). */
  allowedOrigins: readonly string[];
  metrics: GatewayMetrics;
  logger: Logger;
  now?: () => number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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
    // From the first byte on, whether the request is forwarded or refused here (its body then dropped).
    const bodyCut = paceBody(req, res, deps.bodyPace, fail);
    try {
      dispatch(deps, req, res, { match, requestId, fail, nowMs: now(), bodyCut });
    } catch (err) {
      fail(err);
    }
  };
}

interface Call {
  match: Match | undefined;
  requestId: string;
  fail: (err: unknown) => void;
  nowMs: number;
  /** Aborted when the body is cut for its pace (body.ts). */
  bodyCut: AbortSignal | undefined;
}

function dispatch(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, call: Call): void {
  const { match, nowMs } = call;
  // The token is verified once, and only where it counts: a token table or a per-client key.
  const needed = match?.table.guard.identity === 'token' || deps.limiter.enabled || deps.fairness.enabled;
  const verified = needed ? tokenOf(req, deps, nowMs) : undefined;
  const client = clientKey(req, verified, deps.trustProxy);
  if (deps.limiter.enabled) limit(deps, client, nowMs);
  assertSameOrigin(req.method ?? 'GET', req.headers, deps.allowedOrigins);
  if (match) toService(deps, req, res, { ...call, match, verified, client });
  else toLegacy(deps, req, res, { ...call, client });
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

function limit(deps: GatewayDeps, client: string, nowMs: number): void {
  const decision = deps.limiter.take(client, nowMs);
  if (decision.ok) return;
  throw new AppError('RATE_LIMITED', 'Too many requests; retry later', {
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
  });
}

interface ServiceCall extends Call {
  match: Match;
  verified: Verified | undefined;
  client: string;
}

function toService(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, call: ServiceCall): void {
  const { match, requestId } = call;
  const upstream = deps.upstreams[match.table.name];
  if (!upstream) throw notFound(req);
  const guard = match.table.guard;
  if (guard.identity === 'token' && deps.revocationsStale?.(call.nowMs)) throw revocationsUnknown();
  const actor =
    guard.identity === 'token' ? admit(guard, call.verified, headerValue(req.headers, 'x-organization-id')) : undefined;
  const headers = forwardHeaders(req.headers, {
    actor,
    keepCredentials: guard.identity === 'service',
    internalToken: deps.internalToken,
    requestId,
    clientAddress: clientAddress(req, deps.trustProxy),
  });
  const { ownerQuery } = match.route;
  const path = ownerQuery && actor ? withQuery(match.upstreamPath, ownerQuery, actor.userId) : match.upstreamPath;
  const caller = actor ? callerOf(call.verified) : undefined;
  send(deps, { req, res, call }, { upstream, path, headers, stream: match.route.stream === true, caller });
}

/** The caller whose session an event stream lives on (a token table's only: there an actor was admitted). */
function callerOf(verified: Verified | undefined): Caller | undefined {
  return verified?.ok ? verified.caller : undefined;
}

function revocationsUnknown(): AppError {
  return new AppError('DEPENDENCY_UNAVAILABLE', 'Session revocations cannot be checked right now; retry later', {
    headers: { 'Retry-After': '5' },
  });
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  call: Call & { client: string };
}

/**
 * Forwards under the client's caps: a request slot for every upstream request, a stream slot for
 * a route known to stream or an answer that turns out to be an event stream. Every slot is given
 * back when the exchange is over on both sides, whichever way each ends: the answer (answered,
 * refused, failed, client gone) and the body (ended, cut for its pace, connection closed). A body
 * still arriving after its answer keeps its slot, so a client's unfinished bodies count against
 * its cap (issue 33), and a client never holds more upstream sockets than it has slots.
 */
function send(
  deps: GatewayDeps,
  { req, res, call }: Exchange,
  fwd: {
    upstream: Upstream;
    path: string;
    headers: ReturnType<typeof forwardHeaders>;
    stream: boolean;
    caller?: Caller;
  },
): void {
  const slots: Array<Slot & { ok: true }> = [];
  const release = () => slots.splice(0).forEach((s) => s.release());
  const take = (slot: Slot): AppError | undefined => {
    if (!slot.ok) return tooMany(slot.limit);
    slots.push(slot);
    return undefined;
  };
  const refused =
    take(deps.fairness.acquire(call.client)) ??
    (fwd.stream ? take(deps.fairness.acquireStream(call.client)) : undefined);
  if (refused) {
    release();
    throw refused;
  }
  whenExchangeEnds(req, res, release);
  const admitAnswer = (upRes: IncomingMessage, cut: (last: string) => void): AppError | undefined => {
    if (!isEventStream(upRes)) return undefined;
    const refusedStream = fwd.stream ? undefined : take(deps.fairness.acquireStream(call.client));
    if (!refusedStream && fwd.caller && deps.streams) {
      const forget = deps.streams.open(fwd.caller, (reason) => cut(sessionEndedEvent(reason)));
      res.once('close', forget);
    }
    return refusedStream;
  };
  const limits = { queueTimeoutMs: deps.queueTimeoutMs, drainLimitBytes: deps.drainLimitBytes, signal: call.bodyCut };
  forward(req, res, { ...fwd, ...limits, admitAnswer }, call.fail);
}

const isEventStream = (upRes: IncomingMessage) =>
  String(upRes.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('text/event-stream');

function tooMany(limit: 'concurrent' | 'streams'): AppError {
  const message =
    limit === 'streams'
      ? 'Too many open event streams for this client; close one and retry'
      : 'Too many requests in flight for this client; retry later';
  return new AppError('RATE_LIMITED', message, {
    headers: { 'Retry-After': '1' },
    details: { reason: limit === 'streams' ? 'CLIENT_STREAM_LIMIT' : 'CLIENT_CONCURRENCY_LIMIT' },
  });
}

/**
 * Nothing unmapped reaches a service: the legacy system when one is configured; else a path a
 * table maps with other methods is 405 with `Allow` (as the services answer), any other is 404.
 */
function toLegacy(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, call: Call & { client: string }): void {
  if (!deps.legacy) throw unmapped(deps.routes.methods(req.url ?? '/'), req);
  // The legacy system authenticates on its own: credentials pass, the internal token never leaves the platform.
  const headers = forwardHeaders(req.headers, {
    keepCredentials: true,
    requestId: call.requestId,
    clientAddress: clientAddress(req, deps.trustProxy),
  });
  send(deps, { req, res, call }, { upstream: deps.legacy, path: req.url ?? '/', headers, stream: false });
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
