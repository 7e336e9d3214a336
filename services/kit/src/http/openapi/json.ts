/** A JSON value, as an OpenAPI document holds it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON Schema (OpenAPI 3.1) or any other object of the document. */
export type JsonObject = { [key: string]: Json };

/** A scalar JSON value. */
export type Scalar = string | number | boolean | null;

/** Whether `v` is a scalar (joi lists markers such as `{ override: true }` among allowed values too). */
export function isScalar(v: unknown): v is Scalar {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** The JSON Schema type of a scalar (`integer` for a whole number). */
export function jsonType(v: Scalar): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether `v` is plain JSON (no class instances, functions or undefined), at any depth. */
export function isJson(v: unknown): v is Json {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every(isJson);
  if (typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(v as object).every(isJson);
}

/**
 * An object of required non-negative integer counters, one per name in order (the import jobs'
 * counters, the question-bank ingest's counts): one shape instead of a hand-written copy per service.
 * `closed` adds `additionalProperties: false`.
 */
export function counterObject(names: readonly string[], opts: { closed?: boolean } = {}): JsonObject {
  return {
    type: 'object',
    ...(opts.closed ? { additionalProperties: false } : {}),
    required: [...names],
    properties: Object.fromEntries(names.map((n) => [n, { type: 'integer', minimum: 0 }])),
  };
}
