import { Router, type Express } from 'express';
import { createApp, readOpenApi, type ServiceAppOptions } from '../../kit/src/index.js';
import type { NotificationDeps } from './domain/deps.js';
import { inboxRoutes } from './routes/inbox.js';
import { writeRoutes } from './routes/writes.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

export type NotificationAppOptions = ServiceAppOptions;

export function loadOpenApi(): object {
  return readOpenApi(new URL('../openapi.json', import.meta.url));
}

/** The notification service's Express app from injected dependencies; no I/O beyond its OpenAPI file. */
export function buildApp(deps: NotificationDeps, opts: NotificationAppOptions): Express {
  const routes = Router();
  // Writes first: /v1/notifications/batch is declared before the inbox's /:notificationId.
  writeRoutes(routes, deps);
  inboxRoutes(routes, deps);
  return createApp({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    routes,
    checks: opts.checks,
    logger: deps.logger,
    metrics: opts.metrics,
    openapi: loadOpenApi(),
    internalToken: opts.internalToken,
    readiness: opts.readiness,
    // 10,000 recipient ids of up to 128 characters fit; anything larger is a 413.
    bodyLimit: '2mb',
  });
}
