import {
  documentHead,
  actorHeader,
  INTERNAL_TOKEN_SCHEME,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
  errorResponse,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/http/index.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { notificationRoutes } from './routes/index.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

/** What the notification document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME },
  ...documentHead(
    {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      port: 4004,
      decisions: new URL('../decisions.json', import.meta.url),
    },
    'In-app notifications, preferences, parent alerts, notification events and the weak-topic alert consumer (seed 000). Every request and response shape and every choice the contract leaves open (x-decisions).',
  ),
  components: {
    securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
    parameters: {
      ActorId: actorHeader('X-Actor-Id', 'Caller (X-User-Id is read too); recorded as createdBy. Empty is absent.'),
      ActorIdRequired: actorHeader('X-Actor-Id', 'Caller (X-User-Id is read too); missing is 401.', true),
      ActorRole: actorHeader('X-Actor-Role', 'ADMIN is the admin (X-User-Role is read too). Empty is absent.'),
      ActorRoleRequired: actorHeader('X-Actor-Role', 'PARENT; any other role is 403.', true),
      OrganizationHeader: actorHeader('X-Organization-Id', 'Default organizationId of created rows; never a filter.'),
    },
    responses: {
      ...SHARED_RESPONSES,
      BadRequest: errorResponse(
        'VALIDATION_ERROR: wrong types, unknown fields, limits (batch over 10,000 recipients), malformed headers or JSON.',
      ),
      Unauthenticated: errorResponse(
        'UNAUTHENTICATED: no X-Actor-Id where a caller is needed, or a wrong X-Internal-Token.',
      ),
      Forbidden: errorResponse(
        'FORBIDDEN: a non-admin naming another user, a STUDENT or PARENT on a write route, a non-PARENT on parent alerts.',
      ),
      NotFound: errorResponse('NOTIFICATION_NOT_FOUND (also for another user’s row), or NOT_FOUND.'),
      Conflict: errorResponse('IDEMPOTENCY_KEY_REUSED: batchKey reused with another body.'),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: body over 2 MB.'),
    },
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
};

/** The notification service's OpenAPI document, generated from its route declarations. */
export function notificationDocument(): JsonObject {
  return openApiDocument(BASE, notificationRoutes);
}
