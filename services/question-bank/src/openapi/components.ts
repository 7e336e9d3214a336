import type { JsonObject } from '../../../kit/src/index.js';

/** Who may call: the internal token. */
export const SECURITY_SCHEMES: JsonObject = {
  internalToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Internal-Token',
    description: 'Required on /v1/* routes (except /v1 and /v1/openapi.json) when INTERNAL_API_TOKEN is configured.',
  },
};

/** Shared parameters: the scope headers (routes refer to them). */
export const PARAMETERS: JsonObject = {
  OrganizationHeader: {
    name: 'X-Organization-Id',
    in: 'header',
    required: false,
    schema: { type: 'string', pattern: '^([A-Za-z0-9_.:@-]{1,128})?$' },
    description: 'Tenant scope; wins over the organizationId query.',
  },
  OrganizationHeaderRequired: {
    name: 'X-Organization-Id',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
    description: 'Tenant scope (required on writes).',
  },
  UserHeader: {
    name: 'X-User-Id',
    in: 'header',
    required: false,
    schema: { type: 'string', pattern: '^([A-Za-z0-9_.:@-]{1,128})?$' },
    description: 'Actor; non-admin reads are owner-scoped when present. Empty is the same as absent.',
  },
  UserHeaderRequired: {
    name: 'X-User-Id',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
  },
  RoleHeader: {
    name: 'X-User-Role',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['ADMIN', 'TEACHER', 'STUDENT', 'PARENT', ''] },
    description: 'Empty is the same as absent.',
  },
  RoleHeaderRequired: {
    name: 'X-User-Role',
    in: 'header',
    required: true,
    schema: { type: 'string', enum: ['ADMIN', 'TEACHER', 'STUDENT', 'PARENT'] },
    description: 'ADMIN or TEACHER writes; other roles get 403.',
  },
};

/** Shared error responses, by name. */
export const RESPONSES: JsonObject = {
  BadRequest: {
    description:
      'Validation failed: unknown fields, wrong types, unknown enum values, limits, a malformed header or JSON body, a write without X-Organization-Id. Codes: VALIDATION_ERROR.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  Unauthenticated: {
    description: 'No X-User-Id on a write, or a missing internal token. Codes: UNAUTHENTICATED.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  Forbidden: {
    description:
      "Role other than ADMIN or TEACHER on a write, allOrgs=1 without ADMIN, a system question type changed by a non-admin, another teacher's visible folder, a teacher writing read-model rows of another organization. Codes: FORBIDDEN.",
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  NotFound: {
    description:
      'Missing or out-of-scope id (never 403, which would leak existence), or an unknown route. Codes: QUESTION_TYPE_NOT_FOUND, FOLDER_NOT_FOUND, FOLDER_PARENT_NOT_FOUND, ROUTE_NOT_FOUND.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  Conflict: {
    description:
      'Codes: QUESTION_TYPE_CODE_TAKEN (duplicate custom code for the organization and actor, or a core code), FOLDER_NOT_EMPTY, FOLDER_PARENT_CONFLICT (a cycle or a tree deeper than 64 levels).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  PayloadTooLarge: {
    description: "Body over the service's limit. Codes: PAYLOAD_TOO_LARGE.",
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  UnsupportedMediaType: {
    description: 'A body that is not JSON. Codes: UNSUPPORTED_MEDIA_TYPE.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  InternalError: {
    description: 'Unexpected failure; no internals are returned. Codes: INTERNAL_ERROR.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  Unavailable: {
    description: 'MongoDB unavailable. Codes: DEPENDENCY_UNAVAILABLE.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};
