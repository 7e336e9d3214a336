import type { Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { UserDeps } from './domain/deps.js';
import { userRoutes } from './routes.js';

export const SERVICE_NAME = 'user';
export const SERVICE_VERSION = '0.1.0';

export type UserAppOptions = ServiceAppOptions;

/** The user service's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: UserDeps, opts: UserAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  return serviceApp({ ...parts, routes: userRoutes(deps), openapi, bodyLimit: '64kb' }, opts);
}
