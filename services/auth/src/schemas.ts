import Joi from 'joi';
import { documented, named, trimmedPattern, trimmedString } from '../../kit/src/http/index.js';
import type { AccountStatus } from './domain/accounts.js';
import type { LoginInput } from './domain/login.js';
import type { GrantInput, MembershipRef } from './domain/memberships.js';
import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS } from './domain/passwords.js';
import type { RegisterInput } from './domain/register.js';

/**
 * Length in characters (code points), as the OpenAPI document's minLength/maxLength count them;
 * Joi's own min/max count UTF-16 units, so an emoji would count twice. The document states the
 * bounds the custom rule checks.
 */
function chars(min: number, max: number): Joi.StringSchema {
  const schema = Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error(min === 1 ? 'string.empty' : 'string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
  return documented(schema, { minLength: min, maxLength: max });
}

const email = Joi.string()
  .trim()
  .lowercase()
  .max(160)
  .email({ tlds: { allow: false } })
  .description('Trimmed and lowercased; unique.');

const newPassword = chars(PASSWORD_MIN_CHARS, PASSWORD_MAX_CHARS).description(
  'Characters (code points); NFC-normalised; past 72 UTF-8 bytes pre-hashed with SHA-256 before bcrypt.',
);

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
  .default(null)
  .description(
    'Digits with spaces, parentheses, dots and dashes, ending in a digit or `)`; spaces around are removed; empty (or only spaces) becomes null; unique when present.',
  );

/** In the document: two that are not whitespace with at most 118 characters between them (2..120 after trimming). */
export const FULL_NAME_PATTERN = trimmedPattern(2, 120);

/** Trimmed, 2 to 120 characters (the contract): the bounds apply after trimming. */
const fullName = trimmedString(2, 120).description(
  'Trimmed (ECMAScript whitespace) before it is stored; 2 to 120 characters after trimming, so the value must hold two that are not whitespace with at most 118 characters between them (surrounding whitespace is not counted).',
);

/** A self-service registration: the identity, its first session and its own organization. */
export const registerBody = named(
  'RegisterRequest',
  Joi.object<RegisterInput, true>({
    email: email.required(),
    password: newPassword.required(),
    fullName: fullName.required(),
    phone,
    // ADMIN is never self-service; admins are made by an operator of the platform.
    role: Joi.string().uppercase().valid('STUDENT', 'TEACHER', 'PARENT').default('STUDENT'),
  }),
);

/** A login: e-mail and password, with no rule that would reveal the registration policy. */
export const loginBody = named(
  'LoginRequest',
  Joi.object<LoginInput, true>({
    // Any string of at most 320 characters once trimmed: an empty or malformed e-mail is simply
    // unknown (401), as the document says; a login must not reveal the registration rules.
    email: trimmedString(0, 320)
      .lowercase()
      .allow('')
      .required()
      .description(
        'Trimmed and lowercased before lookup; any string, even empty (an unknown e-mail is 401, like a wrong password).',
      ),
    // No length rule beyond a sane bound: a login must not reveal the password policy.
    password: chars(1, 1024).required(),
  }),
);

/** Refresh's body: the token, when it is not sent as a Bearer header. */
export type TokenBody = { refreshToken?: string };

/**
 * The token may come from the body or the Authorization header, so the body field is optional;
 * an empty or overlong one is an invalid token (401), not a malformed request.
 */
export const refreshBody = named(
  'TokenRequest',
  Joi.object<TokenBody, true>({
    refreshToken: Joi.string()
      .allow('')
      .description(
        'The refresh token. Empty counts as missing (the Bearer header is read instead); anything that is not a valid token, including one over 4096 characters, is 401.',
      ),
  }),
);

/** Logout's body: any JSON value as the token. */
export type LogoutBody = { refreshToken?: unknown };

/**
 * Logout takes anything as the token: what is not a valid token answers `revoked: false`. Typed but
 * not strict: joi's strict member map has no schema kind for an `unknown` member (`Joi.any()`).
 */
export const logoutBody = named(
  'LogoutRequest',
  Joi.object<LogoutBody>({
    refreshToken: Joi.any().description(
      'The refresh token. Any JSON value is accepted: a missing, empty, non-string or invalid token answers `revoked: false`.',
    ),
  }),
);

/** The kit's id pattern (actor headers use the same): organization and user ids in paths. */
const pathId = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);

/** A membership's path: the organization and the user. */
export const membershipParams = Joi.object<MembershipRef, true>({
  organizationId: pathId.required(),
  userId: pathId.required(),
});

/** An organization admin's grant: the role there, and optionally the organization's name. */
export const grantBody = named(
  'GrantRequest',
  Joi.object<GrantInput, true>({
    role: Joi.string()
      .valid('STUDENT', 'TEACHER', 'PARENT', 'ADMIN')
      .required()
      .description('The role in this organization.'),
    organizationName: trimmedString(1, 160).description(
      "Trimmed. Without it: the name the membership already has, else the name the organization's other memberships carry, else the organization id.",
    ),
  }),
);

/** A user's path. */
export const userParams = Joi.object<{ userId: string }, true>({ userId: pathId.required() });

/** A platform admin's account status change. */
export const statusBody = named(
  'StatusRequest',
  Joi.object<{ status: AccountStatus }, true>({
    status: Joi.string().valid('ACTIVE', 'DISABLED').required(),
  }),
);

/** The revocation feed's cursor. */
export const revocationsQuery = Joi.object<{ since: Date }, true>({
  since: Joi.date().iso().required().description('ISO-8601 timestamp; exclusive.'),
});
