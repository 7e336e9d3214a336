import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { createApp, readOpenApi, type ServiceAppOptions } from '../../kit/src/index.js';
import type { AnalyticsDeps } from './domain/deps.js';
import { analyticsRoutes } from './routes.js';

export const SERVICE_NAME = 'analytics';
export const SERVICE_VERSION = '0.1.0';

export interface AnalyticsAppOptions extends ServiceAppOptions {
  conn: Connection;
}

/** The service's one OpenAPI document (every route, shape and open choice). */
export const loadOpenApi = (): object => readOpenApi(new URL('../openapi.json', import.meta.url));

/** The analytics Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: AnalyticsDeps, opts: AnalyticsAppOptions): Express {
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes: analyticsRoutes(deps, opts.conn),
    checks: opts.checks,
    logger: deps.logger,
    metrics: opts.metrics,
    openapi: loadOpenApi(),
    internalToken: opts.internalToken,
    readiness: opts.readiness,
    // A snapshot carries up to 500 topic occurrences of up to 500 characters each.
    bodyLimit: '1mb',
  });
}
