import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { analyticsRoutes } from './routes.js';

export const SERVICE_NAME = 'analytics';
export const SERVICE_VERSION = '0.1.0';

export interface AnalyticsAppOptions extends ServiceAppOptions {
  conn: Connection;
}

/** The analytics Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: AnalyticsDeps, opts: AnalyticsAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  // A snapshot carries up to 500 topic occurrences of up to 500 characters each.
  return serviceApp({ ...parts, routes: analyticsRoutes(deps, opts.conn), openapi, bodyLimit: '1mb' }, opts);
}
