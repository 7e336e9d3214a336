import type { Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { AttemptDeps } from './domain/deps.js';
import { attemptRoutes } from './routes/attempts.js';

export const SERVICE_NAME = 'attempt';
export const SERVICE_VERSION = '0.1.0';

export type AttemptAppOptions = ServiceAppOptions;

/** The attempt service's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: AttemptDeps, opts: AttemptAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  // 500 question snapshots with their options and media references.
  return serviceApp({ ...parts, routes: attemptRoutes(deps), openapi, bodyLimit: '5mb' }, opts);
}
