import type { Express } from 'express';
import { routerFor, serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { AttemptDeps } from './domain/deps.js';
import { attemptDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { attemptRoutes } from './routes/attempts.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type AttemptAppOptions = ServiceAppOptions;

/** The attempt service's Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: AttemptDeps, opts: AttemptAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const routes = routerFor(attemptRoutes, deps);
  // 500 question snapshots with their options and media references.
  return serviceApp({ ...parts, routes, openapi: attemptDocument(), bodyLimit: '5mb' }, opts);
}
