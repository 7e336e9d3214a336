import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import type { Registry } from 'prom-client';
import { createApp, type HealthChecks, type ReadinessState } from '../../kit/src/index.js';
import type { UserDeps } from './domain/deps.js';
import { userRoutes } from './routes.js';

export const SERVICE_NAME = 'user';
export const SERVICE_VERSION = '0.1.0';

export interface UserAppOptions {
  metrics: Registry;
  checks: HealthChecks;
  readiness?: ReadinessState;
  internalToken?: string;
}

/** The user service's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: UserDeps, opts: UserAppOptions): Express {
  const openapi = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as object;
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: userRoutes(deps),
    checks: opts.checks,
    logger: deps.logger,
    metrics: opts.metrics,
    openapi,
    internalToken: opts.internalToken,
    readiness: opts.readiness,
    bodyLimit: '64kb',
  });
}
