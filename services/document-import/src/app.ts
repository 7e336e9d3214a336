import { Router, type Express } from 'express';
import { createApp, readOpenApi, type ServiceAppOptions } from '../../kit/src/index.js';
import type { ImportDeps } from './domain/deps.js';
import { eventRoutes } from './routes/events.js';
import { fastJobRoutes } from './routes/fast-jobs.js';
import { jobRoutes } from './routes/jobs.js';
import { qasRoutes } from './routes/qas.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

export type ImportAppOptions = ServiceAppOptions;

/** The service's one OpenAPI document (every route, shape and open choice). */
export const loadOpenApi = (): object => readOpenApi(new URL('../openapi.json', import.meta.url));

/** The document-import Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: ImportDeps, opts: ImportAppOptions): Express {
  const routes = Router();
  routes.use(qasRoutes(deps));
  // The event streams first: /jobs/events is a fixed path beside /jobs/:id.
  routes.use(eventRoutes(deps));
  routes.use(fastJobRoutes(deps));
  routes.use(jobRoutes(deps));
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
    bodyLimit: '2mb',
  });
}
