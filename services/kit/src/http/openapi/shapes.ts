import type { JsonObject } from './json.js';

/** A response object with exactly these members, every one present (required in the order given). */
export function closedObject(properties: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: 'object', ...extra, additionalProperties: false, required: Object.keys(properties), properties };
}
