import { okResponse, ref, type JsonObject } from '../../../kit/src/http/index.js';

const headers = (...names: string[]) => names.map((name) => ref('parameters', name));

/** An inbox route's caller: X-Actor-Id required. */
export const CALLER_HEADERS = headers('ActorIdRequired', 'ActorRole', 'OrganizationHeader');
/** A write's caller: a peer service (no actor) or an ADMIN or TEACHER actor. */
export const WRITER_HEADERS = headers('ActorId', 'ActorRole', 'OrganizationHeader');
/** A parent route's caller: X-Actor-Id and the PARENT role required. */
export const PARENT_HEADERS = headers('ActorIdRequired', 'ActorRoleRequired', 'OrganizationHeader');

const response = (name: string) => ref('responses', name);

/** The errors every route may answer. */
export const ERRORS: JsonObject = {
  400: response('BadRequest'),
  401: response('Unauthenticated'),
  500: response('InternalError'),
  503: response('Unavailable'),
};

export const FORBIDDEN: JsonObject = { 403: response('Forbidden') };
export const NOT_FOUND: JsonObject = { 404: response('NotFound') };
export const CONFLICT: JsonObject = { 409: response('Conflict') };

/** A body's errors. */
export const BODY_ERRORS: JsonObject = { 413: response('PayloadTooLarge'), 415: response('UnsupportedMediaType') };

/** A write's errors: the shared ones, the writer check's 403 and the body's. */
export const WRITE_ERRORS: JsonObject = { ...ERRORS, ...FORBIDDEN, ...BODY_ERRORS };

export const NOTIFICATION = ref('schemas', 'Notification');

/** A 200 whose data is `schema`, described as the document describes every success. */
export const success = (schema: JsonObject): JsonObject => okResponse('Success', schema);

/** A count of rows changed: `{ [name]: n }`. */
export function countOf(name: string): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { [name]: { type: 'integer', minimum: 0 } },
    required: [name],
  };
}
