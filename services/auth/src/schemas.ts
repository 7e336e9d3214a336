import Joi from 'joi';
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

/** Empty becomes null (no phone); otherwise digits with the usual separators, at most 32. */
const phone = Joi.string()
  .trim()
  .max(32)
  .pattern(/^\+?[0-9][0-9 ().-]{2,31}$/)
  .allow('', null)
  .empty('')
  .default(null);

export const registerBody = Joi.object({
  email: email.required(),
  password: newPassword.required(),
  fullName: Joi.string().trim().min(2).max(120).required(),
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
