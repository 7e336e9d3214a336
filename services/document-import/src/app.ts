import { Router, type Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { ImportDeps } from './domain/deps.js';
import { eventRoutes } from './routes/events.js';
import { fastJobRoutes } from './routes/fast-jobs.js';
import { jobRoutes } from './routes/jobs.js';
import { qasRoutes } from './routes/qas.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

export type ImportAppOptions = ServiceAppOptions;

/** The document-import Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: ImportDeps, opts: ImportAppOptions): Express {
  const routes = Router();
  routes.use(qasRoutes(deps));
  // The event streams first: /jobs/events is a fixed path beside /jobs/:id.
  routes.use(eventRoutes(deps));
  routes.use(fastJobRoutes(deps));
  routes.use(jobRoutes(deps));
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  return serviceApp({ ...parts, routes, openapi, bodyLimit: '2mb' }, opts);
}
