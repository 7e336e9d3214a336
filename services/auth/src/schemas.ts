import Joi from 'joi';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS, fitsBcrypt } from './domain/passwords.js';

const email = Joi.string()
  .trim()
  .lowercase()
  .max(160)
  .email({ tlds: { allow: false } });

const newPassword = Joi.string()
  .min(PASSWORD_MIN_CHARS)
  .max(256)
  .custom((value: string, helpers) => (fitsBcrypt(value) ? value : helpers.error('password.bytes')))
  .messages({ 'password.bytes': `{{#label}} must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8` });

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
  email: Joi.string().trim().lowercase().min(3).max(320).required(),
  // No length rule beyond a sane bound: a login must not reveal the password policy.
  password: Joi.string().min(1).max(1024).required(),
});

/** The token may come from the body or the Authorization header, so the body field is optional. */
export const refreshBody = Joi.object({
  refreshToken: Joi.string().max(4096),
});
