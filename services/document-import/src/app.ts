import type { Express } from 'express';
import { routerFor, serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { ImportDeps } from './domain/deps.js';
import { importDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { importRoutes } from './routes/index.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type ImportAppOptions = ServiceAppOptions;

/** The document-import Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: ImportDeps, opts: ImportAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  return serviceApp(
    { ...parts, routes: routerFor(importRoutes, deps), openapi: importDocument(), bodyLimit: '2mb' },
    opts,
  );
}
