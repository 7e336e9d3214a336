import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Registry } from 'prom-client';
import { createApp, errorMiddleware, readOpenApi, type Logger, type ReadinessState } from '../../kit/src/index.js';
import { tableSettings, type GatewayConfig } from './config.js';
import { apiHandler, type GatewayDeps } from './gateway.js';
import { gatewayMetrics } from './metrics.js';
import { upstreamAgent, type Upstream } from './proxy.js';
import { createRateLimiter } from './rate-limit.js';
import { compileTables, isApiPath, TABLE_NAMES, type TableName } from './tables.js';

export const SERVICE_NAME = 'gateway';
export const SERVICE_VERSION = '0.1.0';

export interface GatewayAppOptions {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  metrics: Registry;
  readiness: ReadinessState;
}

export interface GatewayApp {
  app: Express;
  enabled: TableName[];
  /** Closes the upstream keep-alive pools (at shutdown). */
  close(): void;
}

/** The gateway's dependencies from its config: tables switched on, one pool per upstream, the limiter. */
export function gatewayDeps(opts: GatewayAppOptions): { deps: GatewayDeps; enabled: TableName[] } {
  const { config } = opts;
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
  const deps: GatewayDeps = {
    routes: compileTables(new Set(enabled)),
    upstreams,
    legacy: config.GATEWAY_LEGACY_URL
      ? upstream(new URL(config.GATEWAY_LEGACY_URL), config.GATEWAY_LEGACY_TIMEOUT_MS)
      : undefined,
    secret: config.AUTH_JWT_SECRET,
    internalToken: config.INTERNAL_API_TOKEN,
    limiter: createRateLimiter({
      ratePerSecond: config.GATEWAY_RATE_LIMIT_RPS,
      burst: config.GATEWAY_RATE_LIMIT_BURST,
    }),
    metrics: gatewayMetrics(opts.metrics),
    logger: opts.logger,
  };
  return { deps, enabled };
}

/**
 * `/api` goes to the dispatcher before any body parser (bodies stream through untouched); every
 * other path is the kit's app (health, readiness, metrics, `/v1`, the OpenAPI document, 404).
 * Readiness has no checks of its own: one service being down must not take every table out of
 * the balancer, so an upstream failure is that request's 502/503 instead.
 */
export function buildGatewayApp(opts: GatewayAppOptions): GatewayApp {
  const { deps, enabled } = gatewayDeps(opts);
  const kit = createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: express.Router(),
    checks: {},
    logger: opts.logger,
    metrics: opts.metrics,
    openapi: readOpenApi(new URL('../openapi.json', import.meta.url)),
    trustProxy: opts.config.GATEWAY_TRUST_PROXY,
    readiness: opts.readiness,
  });
  const api = apiHandler(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.config.GATEWAY_TRUST_PROXY);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.url)) {
      if (opts.readiness.shuttingDown) res.setHeader('Connection', 'close');
      return api(req, res, next);
    }
    kit(req, res, next);
  });
  app.use(errorMiddleware(opts.logger));
  const agents = new Set(Object.values(deps.upstreams).map((u) => u.agent));
  if (deps.legacy) agents.add(deps.legacy.agent);
  return { app, enabled, close: () => agents.forEach((a) => a.destroy()) };
}
