import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import type { Logger, ReadinessState } from '../../kit/src/core/index.js';
import { createApp } from '../../kit/src/http/index.js';
import { tableSettings, type GatewayConfig } from './config.js';
import { parseAllowedOrigins } from './csrf.js';
import { createFairness, type Fairness } from './fairness.js';
import { apiHandler, type GatewayDeps } from './gateway.js';
import { cachedVerifier } from './identity.js';
import { edgeMetrics, gatewayMetrics } from './metrics.js';
import { gatewayDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { upstreamAgent, type Upstream } from './proxy.js';
import { createRateLimiter } from './rate-limit.js';
import { createRevocationSet, startFeedPoller, type FeedPoller, type RevocationSet } from './revocation.js';
import { createOpenStreams, type OpenStreams } from './streams.js';
import { compileTables, isApiPath, TABLE_NAMES, type TableName } from './tables.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export interface GatewayAppOptions {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  metrics: Registry;
  readiness: ReadinessState;
}

export interface GatewayApp {
  /** What the HTTP server runs: `/api` straight to the dispatcher, everything else to `app`. */
  listener: RequestListener;
  /** The kit's app: health, readiness, metrics, `/v1`, the OpenAPI document, 404. */
  app: Express;
  enabled: TableName[];
  /** The per-client shares in use (tests check that every end path gives its slot back). */
  fairness: Fairness;
  revocations: RevocationSet;
  /** Undefined when GATEWAY_REVOCATION_POLL_MS is 0. */
  poller?: FeedPoller;
  /** The event streams held open for a token (streams.ts). */
  streams: OpenStreams;
  /** Stops the revocation poller and the stream sweep, and closes the upstream keep-alive pools (at shutdown). */
  close(): void;
}

interface Built {
  deps: GatewayDeps;
  enabled: TableName[];
  fairness: Fairness;
  revocations: RevocationSet;
  poller?: FeedPoller;
  streams: OpenStreams;
  stopSweep: () => void;
}

/** How often open event streams are checked against the revocation set and their tokens' expiry (and after each poll). */
const STREAM_SWEEP_MS = 1000;

/** The gateway's dependencies from its config: tables switched on, one pool per upstream, the limiter. */
export function gatewayDeps(opts: GatewayAppOptions): Built {
  const { config } = opts;
  const maxLifetime = config.GATEWAY_MAX_TOKEN_LIFETIME_SECONDS;
  const settings = tableSettings(config);
  const enabled = TABLE_NAMES.filter((n) => settings[n].enabled);
  const pools = new Map<string, Upstream['agent']>();
  const upstream = (url: URL, timeoutMs: number): Upstream => {
    const agent = pools.get(url.origin) ?? upstreamAgent(url, config.GATEWAY_MAX_SOCKETS);
    pools.set(url.origin, agent);
    return { base: url, agent, timeoutMs };
  };
  const upstreams: GatewayDeps['upstreams'] = {};
  for (const name of enabled) upstreams[name] = upstream(settings[name].url, settings[name].timeoutMs);
  const fairness = createFairness({
    maxConcurrent: config.GATEWAY_MAX_CONCURRENT_PER_CLIENT,
    maxStreams: config.GATEWAY_MAX_STREAMS_PER_CLIENT,
  });
  const revocations = createRevocationSet(maxLifetime * 1000);
  const streams = createOpenStreams();
  const feed = edgeMetrics(opts.metrics, { fairness, revocations });
  const sweep = () => feed.streamsEnded(streams.sweep(revocations, Date.now()));
  const poller = revocationPoller(opts, settings.auth, revocations, (ok, nowMs) => {
    feed.polled(ok, nowMs);
    if (ok) sweep();
  });
  const sweeper = setInterval(sweep, STREAM_SWEEP_MS);
  sweeper.unref();
  const failClosedMs = config.GATEWAY_REVOCATION_FAIL_CLOSED_MS;
  const deps: GatewayDeps = {
    routes: compileTables(new Set(enabled)),
    upstreams,
    legacy: config.GATEWAY_LEGACY_URL
      ? upstream(new URL(config.GATEWAY_LEGACY_URL), config.GATEWAY_LEGACY_TIMEOUT_MS)
      : undefined,
    // The kit makes the key once per secret (given a string, jsonwebtoken would parse it on every call).
    verify: cachedVerifier(config.AUTH_JWT_SECRET, { maxLifetime }),
    revocations,
    revocationsStale:
      poller && failClosedMs > 0
        ? (nowMs) => nowMs - (poller.lastSuccessMs ?? poller.startedMs) > failClosedMs
        : undefined,
    internalToken: config.INTERNAL_API_TOKEN,
    trustProxy: config.GATEWAY_TRUST_PROXY,
    limiter: createRateLimiter({
      ratePerSecond: config.GATEWAY_RATE_LIMIT_RPS,
      burst: config.GATEWAY_RATE_LIMIT_BURST,
    }),
    fairness,
    streams,
    queueTimeoutMs: config.GATEWAY_QUEUE_TIMEOUT_MS,
    bodyPace: {
      graceMs: config.GATEWAY_BODY_TIMEOUT_MS,
      minBytesPerSecond: config.GATEWAY_BODY_MIN_BYTES_PER_SECOND,
      idleMs: config.GATEWAY_BODY_IDLE_TIMEOUT_MS,
    },
    drainLimitBytes: config.GATEWAY_DRAIN_LIMIT_BYTES,
    allowedOrigins: parseAllowedOrigins(config.GATEWAY_ALLOWED_ORIGINS),
    metrics: gatewayMetrics(opts.metrics),
    logger: opts.logger,
  };
  return { deps, enabled, fairness, revocations, poller, streams, stopSweep: () => clearInterval(sweeper) };
}

/** The auth service's revocation feed, polled from GATEWAY_AUTH_URL (whether or not the auth table is on). */
function revocationPoller(
  opts: GatewayAppOptions,
  auth: { url: URL; timeoutMs: number },
  revocations: RevocationSet,
  onPoll: (ok: boolean, nowMs: number) => void,
): FeedPoller | undefined {
  const { config } = opts;
  if (config.GATEWAY_REVOCATION_POLL_MS <= 0) return undefined;
  return startFeedPoller({
    authUrl: auth.url,
    internalToken: config.INTERNAL_API_TOKEN,
    intervalMs: config.GATEWAY_REVOCATION_POLL_MS,
    lookbackMs: config.GATEWAY_MAX_TOKEN_LIFETIME_SECONDS * 1000,
    timeoutMs: Math.min(auth.timeoutMs, 5000),
    set: revocations,
    logger: opts.logger,
    onPoll,
  });
}

/**
 * `/api` goes to the dispatcher before any body parser (bodies stream through untouched) and
 * without Express in between; every other path is the kit's app. Readiness has no checks of its
 * own: one service being down must not take every table out of the balancer, so an upstream
 * failure is that request's 502/503 instead.
 */
export function buildGatewayApp(opts: GatewayAppOptions): GatewayApp {
  const { deps, enabled, fairness, revocations, poller, streams, stopSweep } = gatewayDeps(opts);
  const app = createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: express.Router(),
    checks: {},
    logger: opts.logger,
    metrics: opts.metrics,
    openapi: gatewayDocument(),
    trustProxy: opts.config.GATEWAY_TRUST_PROXY,
    readiness: opts.readiness,
    // /metrics takes METRICS_TOKEN as Bearer (else the internal token): the gateway faces the internet.
    internalToken: opts.config.INTERNAL_API_TOKEN,
    metricsToken: opts.config.METRICS_TOKEN,
  });
  const api = apiHandler(deps);
  const listener: RequestListener = (req, res) => {
    if (!isApiPath(req.url ?? '/')) return app(req, res);
    // While draining, answers close their connection so keep-alive sockets do not hold shutdown up.
    if (opts.readiness.shuttingDown) res.setHeader('Connection', 'close');
    api(req, res);
  };
  const agents = new Set(Object.values(deps.upstreams).map((u) => u.agent));
  if (deps.legacy) agents.add(deps.legacy.agent);
  const close = () => {
    poller?.stop();
    stopSweep();
    agents.forEach((a) => a.destroy());
  };
  return { listener, app, enabled, fairness, revocations, poller, streams, close };
}
