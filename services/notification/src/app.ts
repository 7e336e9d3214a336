import type { Express } from 'express';
import { serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { NotificationDeps } from './domain/deps.js';
import { notificationDocument, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { notificationRouter } from './routes/index.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type NotificationAppOptions = ServiceAppOptions;

/** The notification service's Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: NotificationDeps, opts: NotificationAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const routes = notificationRouter(deps);
  // 10,000 recipient ids of up to 128 characters fit; anything larger is a 413.
  return serviceApp({ ...parts, routes, openapi: notificationDocument(), bodyLimit: '2mb' }, opts);
}
