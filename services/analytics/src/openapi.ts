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
import { analyticsRoutes } from './routes.js';

export const SERVICE_NAME = 'analytics';
export const SERVICE_VERSION = '0.1.0';

/** What the analytics document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME },
  ...documentHead(
    {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      port: 4003,
      decisions: new URL('../decisions.json', import.meta.url),
    },
    "Result projections (from PUT snapshots and attempt.graded.v1), filtered result lists, weak topics, summaries per exam, classroom and student, and service-local analytics events (seed 000). It never reads another service's store. Every shape and every choice the contract leaves open (x-decisions).",
  ),
  components: {
    securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
    parameters: {
      UserHeader: actorHeader('X-User-Id', 'The actor (X-Actor-Id is the same); optional.'),
      RoleHeader: actorHeader(
        'X-User-Role',
        'ADMIN, TEACHER, STUDENT or PARENT, any case (X-Actor-Role is the same); empty is absent; another value is 400.',
      ),
      OrganizationHeader: actorHeader('X-Organization-Id', "Scopes reads; defaults a snapshot's organizationId."),
    },
    responses: {
      ...SHARED_RESPONSES,
      BadRequest: errorResponse(
        'VALIDATION_ERROR: unknown fields, wrong types, limits, malformed headers, query values or JSON; an attemptId in the body that differs from the path.',
      ),
      Unauthenticated: errorResponse(
        'UNAUTHENTICATED: a missing or wrong X-Internal-Token when INTERNAL_API_TOKEN is configured.',
      ),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: body over 1 MB.'),
      Forbidden: errorResponse(
        "FORBIDDEN: a user actor without X-Organization-Id, a student asking for another student's results, or a parent or role-less user reading results.",
      ),
    },
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
};

/** The analytics service's OpenAPI document, generated from its route declarations. */
export function analyticsDocument(): JsonObject {
  return openApiDocument(BASE, analyticsRoutes);
}
