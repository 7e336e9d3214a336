import { OUTBOX_METRICS, openApiDocument, type DocumentBase, type JsonObject } from '../../kit/src/http/index.js';
import { PARAMETERS, RESPONSES, SECURITY_SCHEMES } from './openapi/components.js';
import { DECISIONS } from './openapi/decisions.js';
import { RESPONSE_SCHEMAS } from './openapi/schemas.js';
import { aiClassifyRoutes } from './routes/ai-classify.js';
import { aiPreviewRoutes } from './routes/ai-preview.js';
import { blueprintRoutes } from './routes/blueprint.js';
import { catalogRoutes } from './routes/catalog.js';
import { ingestRoutes } from './routes/ingest.js';
import { deletionRoutes } from './routes/deletion.js';
import { legacyRoutes } from './routes/legacy.js';
import { questionRoutes } from './routes/questions.js';
import { readModelRoutes } from './routes/read-models.js';
import { portOf } from '../../registry.js';

export const SERVICE_NAME = 'question-bank';
export const SERVICE_VERSION = '0.1.0';

/** What the question bank's document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: {
    service: SERVICE_NAME,
    metrics: OUTBOX_METRICS,
  },
  info: {
    title: 'edu-platform question-bank service',
    version: SERVICE_VERSION,
    description:
      'Questions, versions, scope, read models and the search outbox. This document states every request and response shape, including the choices the contract leaves open (x-decisions). It is generated from the route declarations and served at GET /v1/openapi.json.',
  },
  servers: [{ url: `http://127.0.0.1:${portOf(SERVICE_NAME)}` }],
  'x-decisions': DECISIONS,
  components: {
    securitySchemes: SECURITY_SCHEMES,
    parameters: PARAMETERS,
    responses: RESPONSES,
    schemas: RESPONSE_SCHEMAS,
  },
};

/** The question bank's routes, declared once: validation, handler types and the document come from here. */
export const questionBankRoutes = [
  ...deletionRoutes,
  ...aiPreviewRoutes,
  ...aiClassifyRoutes,
  ...blueprintRoutes,
  ...ingestRoutes,
  ...questionRoutes,
  ...legacyRoutes,
  ...catalogRoutes,
  ...readModelRoutes,
];

/** The question bank's OpenAPI document, generated from its route declarations. */
export function questionBankDocument(): JsonObject {
  return openApiDocument(BASE, questionBankRoutes);
}
