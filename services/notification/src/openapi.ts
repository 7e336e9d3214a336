import { serviceDocument, LIST_META_SCHEMA, SHARED_RESPONSES } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { notificationRoutes } from './routes/index.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

/** The notification service's OpenAPI document: its routes' declarations, document.json and decisions.json. */
export const notificationDocument = serviceDocument(
  { service: SERVICE_NAME, version: SERVICE_VERSION, port: portOf(SERVICE_NAME), from: import.meta.url },
  {
    responses: SHARED_RESPONSES,
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
  notificationRoutes,
);
