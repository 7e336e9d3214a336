import { Router, type Express } from 'express';
import { routerFor, serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { QuestionBankDeps } from './domain/deps.js';
import { questionBankRoutes, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';
import { blueprintRoutes } from './routes/blueprint.js';
import { ingestRoutes } from './routes/ingest.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type QuestionBankAppOptions = ServiceAppOptions;

/** The question bank's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: QuestionBankDeps, opts: QuestionBankAppOptions): Express {
  const routes = Router();
  // Part 2's fixed paths under /v1/questions/ come before /v1/questions/:id.
  routes.use(ingestRoutes(deps));
  routes.use(blueprintRoutes(deps));
  // The declared routes, in routerFor's order (fixed segments before ids).
  routes.use(routerFor(questionBankRoutes, deps));
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  // The DOCX workers hold only the worker token: it opens the one route they call.
  const workerRoutes = ['POST /v1/questions/import-docx-output'];
  return serviceApp({ ...parts, routes, openapi, bodyLimit: '1mb', workerRoutes }, opts);
}
