import { Router, type Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { NotificationDeps } from './domain/deps.js';
import { inboxRoutes } from './routes/inbox.js';
import { writeRoutes } from './routes/writes.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

export type NotificationAppOptions = ServiceAppOptions;

/** The notification service's Express app from injected dependencies; no I/O beyond its OpenAPI file. */
export function buildApp(deps: NotificationDeps, opts: NotificationAppOptions): Express {
  const routes = Router();
  // Writes first: /v1/notifications/batch is declared before the inbox's /:notificationId.
  writeRoutes(routes, deps);
  inboxRoutes(routes, deps);
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  // 10,000 recipient ids of up to 128 characters fit; anything larger is a 413.
  return serviceApp({ ...parts, routes, openapi, bodyLimit: '2mb' }, opts);
}
