import type { JsonObject } from '../../../kit/src/http/index.js';

/** Response shapes of AI preview results. */
export const AI_SCHEMAS: JsonObject = {};
