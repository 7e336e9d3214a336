import type { Router } from 'express';
import { routerFor, type Route } from '../../../kit/src/http/index.js';
import type { NotificationDeps } from '../domain/deps.js';
import { inboxRoutes } from './inbox.js';
import { writeRoutes } from './writes.js';

/** The notification service's routes, declared once: validation, handler types and the document come from here. */
export const notificationRoutes: ReadonlyArray<Route<NotificationDeps>> = [...inboxRoutes, ...writeRoutes];

/** The notification service's router: fixed paths before /:notificationId, their other methods 405. */
export function notificationRouter(deps: NotificationDeps): Router {
  return routerFor(notificationRoutes, deps);
}
