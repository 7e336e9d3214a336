import Joi from 'joi';
import { trimmedString } from '../../kit/src/index.js';
import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS } from './domain/passwords.js';

/**
 * Length in characters (code points), as the OpenAPI document's minLength/maxLength count them;
 * Joi's own min/max count UTF-16 units, so an emoji would count twice.
 */
function chars(min: number, max: number): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error(min === 1 ? 'string.empty' : 'string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
}

const email = Joi.string()
  .trim()
  .lowercase()
  .max(160)
  .email({ tlds: { allow: false } });

const newPassword = chars(PASSWORD_MIN_CHARS, PASSWORD_MAX_CHARS);

/**
 * Empty (or only spaces) becomes null (no phone); otherwise digits with the usual separators,
 * spaces around allowed and removed. Checked on the value as sent, exactly as the document's
 * pattern reads, then trimmed.
 */
const phone = Joi.string()
  .max(32)
  .pattern(/^ *(?:\+?[0-9][0-9 ().-]{1,30}[0-9)] *)?$/)
  .custom((value: string) => value.trim() || null)
  .allow(null)
  .empty('')
  .default(null);

/**
 * What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), spelled out so
 * the document's pattern means the same in every regex engine.
 */
const WS = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** In the document: two that are not whitespace with at most 118 characters between them (2..120 after trimming). */
export const FULL_NAME_PATTERN = `^[${WS}]*[^${WS}][\\s\\S]{0,118}[^${WS}][${WS}]*$`;

/** Trimmed, 2 to 120 characters (the contract): the bounds apply after trimming. */
const fullName = trimmedString(2, 120);

export const registerBody = Joi.object({
  email: email.required(),
  password: newPassword.required(),
  fullName: fullName.required(),
  phone,
  // ADMIN is never self-service; admins are made by an operator of the platform.
  role: Joi.string().uppercase().valid('STUDENT', 'TEACHER', 'PARENT').default('STUDENT'),
});

export const loginBody = Joi.object({
  // Any string up to the bound: an empty or malformed e-mail is simply unknown (401), as the
  // document says; a login must not reveal the registration rules.
  email: Joi.string().trim().lowercase().allow('').max(320).required(),
  // No length rule beyond a sane bound: a login must not reveal the password policy.
  password: chars(1, 1024).required(),
});

/**
 * The token may come from the body or the Authorization header, so the body field is optional;
 * an empty or overlong one is an invalid token (401), not a malformed request.
 */
export const refreshBody = Joi.object({
  refreshToken: Joi.string().allow(''),
});

/** Logout takes anything as the token: what is not a valid token answers `revoked: false`. */
export const logoutBody = Joi.object({
  refreshToken: Joi.any(),
});

/** The kit's id pattern (actor headers use the same): organization and user ids in paths. */
const pathId = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);

export const membershipParams = Joi.object({
  organizationId: pathId.required(),
  userId: pathId.required(),
});

export const grantBody = Joi.object({
  role: Joi.string().valid('STUDENT', 'TEACHER', 'PARENT', 'ADMIN').required(),
  organizationName: Joi.string().trim().min(1).max(160),
});

export const userParams = Joi.object({ userId: pathId.required() });

export const statusBody = Joi.object({
  status: Joi.string().valid('ACTIVE', 'DISABLED').required(),
});

export const revocationsQuery = Joi.object({
  since: Joi.date().iso().required(),
});
