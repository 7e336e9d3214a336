import { Router, type Express } from 'express';
import { createApp, readOpenApi, type ServiceAppOptions } from '../../kit/src/index.js';
import type { AttemptDeps } from './domain/deps.js';
import { attemptRoutes } from './routes/attempts.js';

export const SERVICE_NAME = 'attempt';
export const SERVICE_VERSION = '0.1.0';

export type AttemptAppOptions = ServiceAppOptions;

/** The service's one OpenAPI document (every route, shape and open choice). */
export const loadOpenApi = (): object => readOpenApi(new URL('../openapi.json', import.meta.url));

/** The attempt service's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: AttemptDeps, opts: AttemptAppOptions): Express {
  const routes = Router();
  routes.use(attemptRoutes(deps));
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes,
    checks: opts.checks,
    logger: deps.logger,
    metrics: opts.metrics,
    openapi: loadOpenApi(),
    internalToken: opts.internalToken,
    readiness: opts.readiness,
    // 500 question snapshots with their options and media references.
    bodyLimit: '5mb',
  });
}
