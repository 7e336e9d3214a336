import type { JsonObject } from './json-schema.js';

const ERROR_REF: JsonObject = { $ref: '#/components/schemas/Error' };

/**
 * The success envelope `{ success: true, data, message }` around `data`'s schema; `message` is
 * 'OK' unless the route answers with its own (`'Job queued'`).
 */
export function envelope(data: JsonObject, message = 'OK'): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'data', 'message'],
    properties: { success: { const: true }, data, message: { const: message } },
  };
}

/** A JSON response whose body is the success envelope around `data` (with `message`, 'OK' by default). */
export function okResponse(description: string, data: JsonObject, message?: string): JsonObject {
  return { description, content: { 'application/json': { schema: envelope(data, message) } } };
}

/** An error response: the one error model (`#/components/schemas/Error`). */
export function errorResponse(description: string): JsonObject {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

/** Error responses by status, each described: `errorResponses({ 404: 'No such user. Codes: ...' })`. */
export function errorResponses(byStatus: Record<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(byStatus).map(([status, text]) => [status, errorResponse(text)]));
}

/** A `$ref` to a named schema, parameter or response of the document's components. */
export function ref(kind: 'schemas' | 'parameters' | 'responses', name: string): JsonObject {
  return { $ref: `#/components/${kind}/${name}` };
}

/** The one error model every service answers with (`errors.ts`'s `errorBody`). */
export const ERROR_SCHEMA: JsonObject = {
  type: 'object',
  required: ['success', 'message', 'error'],
  additionalProperties: false,
  properties: {
    success: { const: false },
    message: { type: 'string' },
    error: {
      type: 'object',
      required: ['code'],
      additionalProperties: false,
      properties: { code: { type: 'string' }, details: {} },
    },
  },
};

/**
 * The `internalToken` security scheme of every service behind the gateway: stated once here so
 * each document's `components.securitySchemes` says the same thing.
 */
export const INTERNAL_TOKEN_SCHEME: JsonObject = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Internal-Token',
  description: 'Required on /v1/* routes (except /v1 and /v1/openapi.json) when INTERNAL_API_TOKEN is configured.',
};

/**
 * The error responses every service answers the same way (the kit's app answers them), for
 * `components.responses`: refer to them with `ref('responses', 'InternalError')` and so on.
 */
export const SHARED_RESPONSES: JsonObject = {
  InternalError: errorResponse('Unexpected failure; no internals are returned. Codes: INTERNAL_ERROR.'),
  Unavailable: errorResponse('MongoDB unreachable, or the service is shutting down. Codes: DEPENDENCY_UNAVAILABLE.'),
  UnsupportedMediaType: errorResponse('A body that is not JSON. Codes: UNSUPPORTED_MEDIA_TYPE.'),
};

/** The list envelope's `meta` (`listMeta()`), for `components.schemas.ListMeta`. */
export const LIST_META_SCHEMA: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['page', 'limit', 'total', 'totalPages'],
  properties: {
    page: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    totalPages: { type: 'integer', minimum: 0 },
  },
};

/**
 * The list envelope's data (`list()`): `{ items, meta }` with `items` of `item`'s schema and
 * `meta` a `$ref` to `ListMeta` (put LIST_META_SCHEMA in the document's schemas).
 */
export function listData(item: JsonObject): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'meta'],
    properties: { items: { type: 'array', items: item }, meta: ref('schemas', 'ListMeta') },
  };
}
