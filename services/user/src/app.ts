import type { Express } from 'express';
import { createApp, readOpenApi, type ServiceAppOptions } from '../../kit/src/index.js';
import type { UserDeps } from './domain/deps.js';
import { userRoutes } from './routes.js';

export const SERVICE_NAME = 'user';
export const SERVICE_VERSION = '0.1.0';

export type UserAppOptions = ServiceAppOptions;

/** The user service's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: UserDeps, opts: UserAppOptions): Express {
  const openapi = readOpenApi(new URL('../openapi.json', import.meta.url));
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
