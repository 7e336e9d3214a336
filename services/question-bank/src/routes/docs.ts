import { envelope, ref, type JsonObject } from '../../../kit/src/http/index.js';

/** The scope headers a read takes: each optional (reads are scoped by what is sent). */
export const READ_HEADERS = [
  ref('parameters', 'OrganizationHeader'),
  ref('parameters', 'UserHeader'),
  ref('parameters', 'RoleHeader'),
];

/** The scope headers a write needs: all three required. */
export const WRITE_HEADERS = [
  ref('parameters', 'OrganizationHeaderRequired'),
  ref('parameters', 'UserHeaderRequired'),
  ref('parameters', 'RoleHeaderRequired'),
];

const STANDARD: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  500: 'InternalError',
  503: 'Unavailable',
};

/** The shared error responses (components.responses) for these statuses. */
export function standardErrors(...statuses: number[]): JsonObject {
  return Object.fromEntries(statuses.map((s) => [s, ref('responses', STANDARD[s] ?? 'InternalError')]));
}

/** A list's data: `{ items, meta }` with items of `item`'s shape. */
export function pageOf(item: JsonObject): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { items: { type: 'array', items: item }, meta: ref('schemas', 'ListMeta') },
    required: ['items', 'meta'],
  };
}

/** The errors a read may answer. */
export const READ_ERRORS = standardErrors(400, 401, 403, 404, 500, 503);

/** The errors a write with a JSON body may answer. */
export const WRITE_ERRORS = standardErrors(400, 401, 403, 404, 409, 413, 415, 500, 503);

/** What every scoped read says about allOrgs and the organizationId query. */
export const SCOPED_READ =
  'Issue 20: allOrgs=1 only for ADMIN without X-Organization-Id (the platform role); the organizationId query only restates X-Organization-Id (403 otherwise).';

/**
 * Links from a created resource to the operations on its id (`{ Patch: 'patchQuestionFolder' }`),
 * passing the id from the response and the caller's scope headers.
 */
export function idLinks(operations: Record<string, string>): JsonObject {
  const parameters = {
    id: '$response.body#/data/id',
    'header.X-User-Id': '$request.header.X-User-Id',
    'header.X-User-Role': '$request.header.X-User-Role',
    'header.X-Organization-Id': '$request.header.X-Organization-Id',
  };
  return Object.fromEntries(
    Object.entries(operations).map(([name, operationId]) => [name, { operationId, parameters }]),
  );
}

/** A success whose envelope carries `message` (or one of several) instead of OK. */
export function okWithMessage(description: string, data: JsonObject, message: string | string[]): JsonObject {
  const schema = envelope(data);
  const stated: JsonObject = typeof message === 'string' ? { const: message } : { enum: message };
  schema.properties = { ...(schema.properties as JsonObject), message: stated };
  return { description, content: { 'application/json': { schema } } };
}
