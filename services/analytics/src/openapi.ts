import {
  serviceDocumentBase,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { analyticsRoutes } from './routes.js';

export const SERVICE_NAME = 'analytics';
export const SERVICE_VERSION = '0.1.0';

/** What the analytics document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = serviceDocumentBase(
  { service: SERVICE_NAME, version: SERVICE_VERSION, port: 4003, from: import.meta.url },
  {
    responses: SHARED_RESPONSES,
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
);

/** The analytics service's OpenAPI document, generated from its route declarations. */
export function analyticsDocument(): JsonObject {
  return openApiDocument(BASE, analyticsRoutes);
}
