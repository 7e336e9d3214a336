import { Router, type Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { ImportDeps } from './domain/deps.js';
import { eventRoutes } from './routes/events.js';
import { fastJobRoutes } from './routes/fast-jobs.js';
import { jobRoutes } from './routes/jobs.js';
import { docxUpload, qasRoutes } from './routes/qas.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

export type ImportAppOptions = ServiceAppOptions;

/** The document-import Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: ImportDeps, opts: ImportAppOptions): Express {
  const routes = Router();
  // One upload middleware for the three upload routes: its cap bounds the process's spool.
  const upload = docxUpload(deps.uploadSpool);
  routes.use(qasRoutes(deps, upload));
  // The event streams first: /jobs/events is a fixed path beside /jobs/:id.
  routes.use(eventRoutes(deps));
  routes.use(fastJobRoutes(deps));
  routes.use(jobRoutes(deps, upload));
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  return serviceApp({ ...parts, routes, openapi, bodyLimit: '2mb' }, opts);
}
