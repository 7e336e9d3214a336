import Joi from 'joi';
import { documented, documentedAs } from './openapi/json-schema.js';

/**
 * What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), spelled out as a
 * character class body so a document's patterns mean the same in every regex engine (the fuzzer's
 * is Python's).
 */
export const TRIMMED_WHITESPACE =
  '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * The pattern a string matches when, trimmed of TRIMMED_WHITESPACE, it holds `min` to `max` code
 * points: whitespace around, then the non-whitespace first and last characters with the rest between.
 */
export function trimmedPattern(min: number, max: number): string {
  const ws = `[${TRIMMED_WHITESPACE}]*`;
  const edge = `[^${TRIMMED_WHITESPACE}]`;
  if (max === 0) return `^${ws}$`;
  const inner = `(?:[\\s\\S]{0,${max - 2}}${edge})`;
  if (min >= 2) return `^${ws}${edge}[\\s\\S]{${min - 2},${max - 2}}${edge}${ws}$`;
  const body = max === 1 ? edge : `${edge}${inner}?`;
  return min === 1 ? `^${ws}${body}${ws}$` : `^${ws}(?:${body})?${ws}$`;
}

/**
 * A string whose length limits apply after trimming: what `String.prototype.trim` removes goes
 * first, then the trimmed value must hold `min` to `max` characters, counted in code points as
 * OpenAPI's minLength/maxLength count them (joi's own min/max count UTF-16 units). The trimmed
 * value is what validation returns. A value that is only whitespace trims to '' (too short).
 * Its document form is `trimmedPattern(min, max)`.
 */
export function trimmedString(min: number, max: number): Joi.StringSchema {
  const schema = Joi.string().custom((value: string, helpers) => {
    const trimmed = value.trim();
    const n = [...trimmed].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : trimmed;
  });
  return documented(schema, { ...(min > 0 ? { minLength: min } : {}), pattern: trimmedPattern(min, max) });
}

/** RFC 3339 date-time (`T`/`Z` in either case), as the document's `format: date-time` reads. */
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time string, returned as a Date (a well-formed string naming no real instant,
 * such as month 13, is refused). Typed as joi's date schema, since a Date is what it yields.
 */
export function dateTimeString(): Joi.DateSchema {
  const schema = Joi.string()
    .pattern(RFC3339_DATE_TIME)
    .custom((value: string, helpers) => {
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? helpers.error('date.base') : d;
    });
  // What validation returns is a Date: the date schema's type is the handler's.
  return documentedAs(schema, { type: 'string', format: 'date-time' }) as unknown as Joi.DateSchema;
}
