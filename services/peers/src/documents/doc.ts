import { errorResponse, okResponse, type JsonObject } from '../../../kit/src/http/index.js';

// What the peers' document says beside the routes' schemas: their headers, envelopes and errors.

/** A header the document states beside the schemas' parameters. */
export function header(name: string, required?: boolean): JsonObject {
  return { name, in: 'header', ...(required === undefined ? {} : { required }), schema: { type: 'string' } };
}

/** The errors every document-service route may answer. */
export const STORAGE_ERRORS: JsonObject = {
  400: errorResponse('validation error'),
  404: errorResponse('not found'),
  413: errorResponse('over 50 MB'),
};

/** Raw bytes, as a body or a response states them. */
export const BYTES: JsonObject = { type: 'string', format: 'binary' };

/** A response of raw bytes. */
export const bytesResponse = (description: string): JsonObject => ({
  description,
  content: { 'application/octet-stream': { schema: BYTES } },
});

/** What a byte-body write answers: the stored object's key, size and type. */
export function storedResponse(): JsonObject {
  const data = {
    type: 'object',
    properties: { key: { type: 'string' }, size: { type: 'integer' }, contentType: { type: 'string' } },
  };
  return okResponse('stored', data);
}
