import type { Express } from 'express';
import { routerFor, serviceApp, type ServiceAppOptions } from '../../kit/src/http/index.js';
import type { QuestionBankDeps } from './domain/deps.js';
import { questionBankDocument, questionBankRoutes, SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export { SERVICE_NAME, SERVICE_VERSION } from './openapi.js';

export type QuestionBankAppOptions = ServiceAppOptions;

/** The question bank's Express app from injected dependencies; serves the document its routes generate. */
export function buildApp(deps: QuestionBankDeps, opts: QuestionBankAppOptions): Express {
  const parts = { name: SERVICE_NAME, version: SERVICE_VERSION, logger: deps.logger };
  const routes = routerFor(questionBankRoutes, deps);
  // The DOCX workers hold only the worker token: it opens the one route they call.
  const workerRoutes = ['POST /v1/questions/import-docx-output'];
  return serviceApp({ ...parts, routes, openapi: questionBankDocument(), bodyLimit: '1mb', workerRoutes }, opts);
}
