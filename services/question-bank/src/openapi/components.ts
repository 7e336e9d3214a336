import type { JsonObject } from '../../../kit/src/http/index.js';

/** Who may call: the internal token. */
export const SECURITY_SCHEMES: JsonObject = {
  internalToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Internal-Token',
    description: 'Required on /v1/* routes (except /v1 and /v1/openapi.json) when INTERNAL_API_TOKEN is configured.',
  },
};

const ID = '^[A-Za-z0-9_.:@-]{1,128}$';
/** An optional header may be sent empty (the same as absent). */
const ID_OR_EMPTY = '^([A-Za-z0-9_.:@-]{1,128})?$';

/** A scope header parameter; `description` is left out where it is undefined. */
function header(name: string, required: boolean, schema: JsonObject, description?: string): JsonObject {
  return { name, in: 'header', required, schema, ...(description === undefined ? {} : { description }) };
}

/** Shared parameters: the scope headers (routes refer to them). */
export const PARAMETERS: JsonObject = {
  OrganizationHeader: header(
    'X-Organization-Id',
    false,
    { type: 'string', pattern: ID_OR_EMPTY },
    'Tenant scope; wins over the organizationId query.',
  ),
  OrganizationHeaderRequired: header(
    'X-Organization-Id',
    true,
    { type: 'string', pattern: ID },
    'Tenant scope (required on writes).',
  ),
  UserHeader: header(
    'X-User-Id',
    false,
    { type: 'string', pattern: ID_OR_EMPTY },
    'Actor; non-admin reads are owner-scoped when present. Empty is the same as absent.',
  ),
  UserHeaderRequired: header('X-User-Id', true, { type: 'string', pattern: ID }),
  RoleHeader: header(
    'X-User-Role',
    false,
    { type: 'string', enum: ['ADMIN', 'TEACHER', 'STUDENT', 'PARENT', ''] },
    'Empty is the same as absent.',
  ),
  RoleHeaderRequired: header(
    'X-User-Role',
    true,
    { type: 'string', enum: ['ADMIN', 'TEACHER', 'STUDENT', 'PARENT'] },
    'ADMIN or TEACHER writes; other roles get 403.',
  ),
};

/** Every error response's body: the error envelope. */
const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Shared error responses, by name. */
export const RESPONSES: JsonObject = {
  BadRequest: {
    description:
      'Validation failed: unknown fields, wrong types, unknown enum values, limits, a malformed header or JSON body, a write without X-Organization-Id. Codes: VALIDATION_ERROR.',
    content: ERROR_CONTENT,
  },
  Unauthenticated: {
    description: 'No X-User-Id on a write, or a missing internal token. Codes: UNAUTHENTICATED.',
    content: ERROR_CONTENT,
  },
  Forbidden: {
    description:
      "Role other than ADMIN or TEACHER on a write, allOrgs=1 without ADMIN, a system question type changed by a non-admin, another teacher's visible folder, a teacher writing read-model rows of another organization. Codes: FORBIDDEN.",
    content: ERROR_CONTENT,
  },
  NotFound: {
    description:
      'Missing or out-of-scope id (never 403, which would leak existence), or an unknown route. Codes: QUESTION_TYPE_NOT_FOUND, FOLDER_NOT_FOUND, FOLDER_PARENT_NOT_FOUND, ROUTE_NOT_FOUND.',
    content: ERROR_CONTENT,
  },
  Conflict: {
    description:
      'Codes: QUESTION_TYPE_CODE_TAKEN (duplicate custom code for the organization and actor, or a core code), FOLDER_NOT_EMPTY, FOLDER_PARENT_CONFLICT (a cycle or a tree deeper than 64 levels).',
    content: ERROR_CONTENT,
  },
  PayloadTooLarge: {
    description: "Body over the service's limit. Codes: PAYLOAD_TOO_LARGE.",
    content: ERROR_CONTENT,
  },
  UnsupportedMediaType: {
    description: 'A body that is not JSON. Codes: UNSUPPORTED_MEDIA_TYPE.',
    content: ERROR_CONTENT,
  },
  InternalError: {
    description: 'Unexpected failure; no internals are returned. Codes: INTERNAL_ERROR.',
    content: ERROR_CONTENT,
  },
  Unavailable: {
    description: 'MongoDB unavailable. Codes: DEPENDENCY_UNAVAILABLE.',
    content: ERROR_CONTENT,
  },
};
