import type { Route } from '../../../kit/src/http/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { eventRoutes } from './events.js';
import { fastJobRoutes } from './fast-jobs.js';
import { jobRoutes } from './jobs.js';
import { qasRoutes } from './qas.js';

/** Every document-import route, in the document's order (routerFor orders them for Express). */
export const importRoutes: ReadonlyArray<Route<ImportDeps>> = [
  ...qasRoutes,
  ...fastJobRoutes,
  ...jobRoutes,
  ...eventRoutes,
];
