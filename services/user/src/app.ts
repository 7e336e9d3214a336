import type { Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { UserDeps } from './domain/deps.js';
import { SERVICE_NAME, SERVICE_VERSION, userDocument } from './openapi.js';
import { userRouter } from './routes.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type UserAppOptions = ServiceAppOptions;

/** The user service's Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: UserDeps, opts: UserAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  return serviceApp({ ...parts, routes: userRouter(deps), openapi: userDocument(), bodyLimit: '64kb' }, opts);
}
