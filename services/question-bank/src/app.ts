import { Router, type Express } from 'express';
import { routerFor, serviceApp, type ServiceAppOptions } from '../../kit/src/index.js';
import type { QuestionBankDeps } from './domain/deps.js';
import { aiClassifyRoutes } from './routes/ai-classify.js';
import { aiPreviewRoutes } from './routes/ai-preview.js';
import { blueprintRoutes } from './routes/blueprint.js';
import { catalogRoutes } from './routes/catalog.js';
import { readModelRoutes } from './routes/read-models.js';
import { deletionRoutes } from './routes/deletion.js';
import { ingestRoutes } from './routes/ingest.js';
import { legacyRoutes } from './routes/legacy.js';
import { questionRoutes } from './routes/questions.js';

export const SERVICE_NAME = 'question-bank';
export const SERVICE_VERSION = '0.1.0';

export type QuestionBankAppOptions = ServiceAppOptions;

/** The question bank's Express app from injected dependencies; reads only its own OpenAPI document. */
export function buildApp(deps: QuestionBankDeps, opts: QuestionBankAppOptions): Express {
  const routes = Router();
  // Catalog first: its fixed paths under /v1/questions/ must not be taken for a question id.
  routes.use(routerFor([...catalogRoutes, ...readModelRoutes], deps));
  routes.use(legacyRoutes(deps));
  // Part 2's fixed paths under /v1/questions/ likewise come before /v1/questions/:id.
  routes.use(deletionRoutes(deps));
  routes.use(aiPreviewRoutes(deps));
  routes.use(aiClassifyRoutes(deps));
  routes.use(ingestRoutes(deps));
  routes.use(blueprintRoutes(deps));
  routes.use(questionRoutes(deps));
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const openapi = new URL('../openapi.json', import.meta.url);
  // The DOCX workers hold only the worker token: it opens the one route they call.
  const workerRoutes = ['POST /v1/questions/import-docx-output'];
  return serviceApp({ ...parts, routes, openapi, bodyLimit: '1mb', workerRoutes }, opts);
}
