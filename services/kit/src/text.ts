import Joi from 'joi';

/**
 * A string whose length limits apply after trimming: what `String.prototype.trim` removes goes
 * first, then the trimmed value must hold `min` to `max` characters, counted in code points as
 * OpenAPI's minLength/maxLength count them (joi's own min/max count UTF-16 units). The trimmed
 * value is what validation returns. A value that is only whitespace trims to '' (too short).
 */
export function trimmedString(min: number, max: number): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) => {
    const trimmed = value.trim();
    const n = [...trimmed].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : trimmed;
  });
}
