import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { analyticsDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { analyticsRouter } from './routes.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export interface AnalyticsAppOptions extends ServiceAppOptions {
  conn: Connection;
}

/** The analytics Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: AnalyticsDeps, opts: AnalyticsAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const routes = analyticsRouter(deps, opts.conn);
  // A snapshot carries up to 500 topic occurrences of up to 500 characters each.
  return serviceApp({ ...parts, routes, openapi: analyticsDocument(), bodyLimit: '1mb' }, opts);
}
