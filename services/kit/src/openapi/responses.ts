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
