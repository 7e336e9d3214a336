import { existsSync, readFileSync } from 'node:fs';
import { Router, type Express } from 'express';
import type { Registry } from 'prom-client';
import { createApp, type HealthChecks, type ReadinessState } from '../../kit/src/index.js';
import type { QuestionBankDeps } from './domain/deps.js';
import { catalogRoutes } from './routes/catalog.js';
import { legacyRoutes } from './routes/legacy.js';
import { questionRoutes } from './routes/questions.js';

export const SERVICE_NAME = 'question-bank';
export const SERVICE_VERSION = '0.1.0';

export interface QuestionBankAppOptions {
  metrics: Registry;
  checks: HealthChecks;
  readiness?: ReadinessState;
  internalToken?: string;
}

interface OpenApiPart {
  paths?: Record<string, object>;
  components?: Record<string, Record<string, unknown>>;
  'x-decisions'?: string[];
  [key: string]: unknown;
}

const PARTS = ['base.json', 'questions.json', 'catalog.json'];

/** One document from the parts each half of the service owns: paths, components and decisions merged. */
export function loadOpenApi(): OpenApiPart {
  const doc: OpenApiPart = { paths: {}, components: {}, 'x-decisions': [] };
  for (const name of PARTS) {
    const url = new URL(`../openapi/${name}`, import.meta.url);
    if (!existsSync(url)) continue;
    const part = JSON.parse(readFileSync(url, 'utf8')) as OpenApiPart;
    const { paths, components, 'x-decisions': decisions, ...rest } = part;
    Object.assign(doc, rest);
    Object.assign(doc.paths!, paths);
    for (const [kind, entries] of Object.entries(components ?? {})) {
      doc.components![kind] = { ...doc.components![kind], ...entries };
    }
    doc['x-decisions']!.push(...(decisions ?? []));
  }
  return doc;
}

/** The question bank's Express app from injected dependencies; reads only its own OpenAPI files. */
export function buildApp(deps: QuestionBankDeps, opts: QuestionBankAppOptions): Express {
  const routes = Router();
  // Catalog first: its fixed paths under /v1/questions/ must not be taken for a question id.
  routes.use(catalogRoutes(deps));
  routes.use(legacyRoutes(deps));
  routes.use(questionRoutes(deps));
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
    bodyLimit: '1mb',
  });
}
