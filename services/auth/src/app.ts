import type { Express } from 'express';
import type { Registry } from 'prom-client';
import type { HealthChecks, ReadinessState } from '../../kit/src/core/index.js';
import { mongoCheck } from '../../kit/src/data/index.js';
import { createApp, routerFor } from '../../kit/src/http/index.js';
import type { AuthDeps } from './domain/deps.js';
import { authDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { authRoutes } from './routes.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export interface AuthAppOptions {
  metrics: Registry;
  readiness?: ReadinessState;
  /** The kit's readiness checks (MongoDB gating, Kafka reported); MongoDB alone when omitted. */
  checks?: HealthChecks;
  internalToken?: string;
  /** Bearer token for /metrics (unset: the internal token guards it). */
  metricsToken?: string;
  trustProxy?: number;
}

/**
 * The auth service's Express app from injected dependencies; no I/O here. It serves the document
 * its routes generate. createApp directly (not serviceApp): auth alone sets `trust proxy` (the
 * client address its rate limits key on) and defaults its checks to MongoDB.
 */
export function buildApp(deps: AuthDeps, opts: AuthAppOptions): Express {
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: routerFor(authRoutes, deps),
    checks: opts.checks ?? { mongodb: mongoCheck(deps.db) },
    logger: deps.logger,
    metrics: opts.metrics,
    openapi: authDocument(),
    internalToken: opts.internalToken,
    metricsToken: opts.metricsToken,
    trustProxy: opts.trustProxy ?? 0,
    readiness: opts.readiness,
    bodyLimit: '16kb',
  });
}
