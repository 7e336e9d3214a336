import {
  serviceDocumentBase,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { notificationRoutes } from './routes/index.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

/** What the notification document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = serviceDocumentBase(
  { service: SERVICE_NAME, version: SERVICE_VERSION, port: 4004, from: import.meta.url },
  {
    responses: SHARED_RESPONSES,
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
);

/** The notification service's OpenAPI document, generated from its route declarations. */
export function notificationDocument(): JsonObject {
  return openApiDocument(BASE, notificationRoutes);
}
