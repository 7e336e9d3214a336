import { envelope, ref, type JsonObject } from '../../kit/src/http/index.js';

/** The response shapes the routes answer with (components.schemas in openapi.ts). */
export const SESSION = ref('schemas', 'Session');
export const USER = ref('schemas', 'User');

/** What any route may answer when the service itself fails. */
export const SERVER_ERRORS = {
  500: 'Unexpected failure; no internals are returned. Codes: INTERNAL_ERROR.',
  503: 'MongoDB unavailable. Codes: DEPENDENCY_UNAVAILABLE.',
};

/** What a route with a JSON body answers for a body the parser refuses. */
export const BODY_ERRORS = {
  413: 'Body larger than 16 KiB. Codes: PAYLOAD_TOO_LARGE.',
  415: 'Body that is not application/json. Codes: UNSUPPORTED_MEDIA_TYPE.',
};

/** The 401 of a route that needs no caller, only the internal token. */
export const INTERNAL_TOKEN_MISSING =
  'Missing or wrong X-Internal-Token when INTERNAL_API_TOKEN is configured. Codes: UNAUTHENTICATED.';

/** A JSON success whose envelope's message is `message` rather than OK (login's `Logged in`). */
export function messageResponse(description: string, data: JsonObject, message: string): JsonObject {
  const schema = envelope(data);
  const properties = { ...(schema.properties as JsonObject), message: { const: message } };
  return { description, content: { 'application/json': { schema: { ...schema, properties } } } };
}

/** The optional Authorization header, carrying a Bearer token as `description` says. */
export function authorizationHeader(description: string): JsonObject {
  return { name: 'Authorization', in: 'header', required: false, schema: { type: 'string' }, description };
}
