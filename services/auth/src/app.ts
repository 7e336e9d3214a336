import type { Express } from 'express';
import type { Registry } from 'prom-client';
import { createApp, type HealthChecks, mongoCheck, type ReadinessState, readOpenApi } from '../../kit/src/index.js';
import type { AuthDeps } from './domain/deps.js';
import { authRoutes } from './routes.js';

export const SERVICE_NAME = 'auth';
export const SERVICE_VERSION = '0.1.0';

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

/** The auth service's Express app from injected dependencies; no I/O here. */
export function buildApp(deps: AuthDeps, opts: AuthAppOptions): Express {
  const openapi = readOpenApi(new URL('../openapi.json', import.meta.url));
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: authRoutes(deps),
    checks: opts.checks ?? { mongodb: mongoCheck(deps.db) },
    logger: deps.logger,
    metrics: opts.metrics,
    openapi,
    internalToken: opts.internalToken,
    metricsToken: opts.metricsToken,
    trustProxy: opts.trustProxy ?? 0,
    readiness: opts.readiness,
    bodyLimit: '16kb',
  });
}
