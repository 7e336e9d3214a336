import Joi from 'joi';
import { ROLES, tolerant, trimmedString } from '../../kit/src/index.js';

/**
 * What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), spelled out so
 * the document's patterns mean the same in every regex engine (the fuzzer's is Python's).
 */
const WS = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** In the document: two that are not whitespace with at most 118 characters between them (2..120 after trimming). */
export const FULL_NAME_PATTERN = `^[${WS}]*[^${WS}][\\s\\S]{0,118}[^${WS}][${WS}]*$`;
export const NOT_BLANK_PATTERN = `[^${WS}]`;
export const PHONE_PATTERN = /^ *(?:\+?[0-9][0-9 ().-]{1,30}[0-9)] *)?$/;
/** An absolute http(s) URL of printable ASCII without spaces, or empty (which becomes null). */
export const AVATAR_URL_PATTERN = /^(https?:\/\/[!-~]+)?$/;
/** RFC 3339 date-time, as the document's `format: date-time` reads. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

/** Trimmed, 2 to 120 characters (code points); the bounds apply after trimming. */
export const fullName = trimmedString(2, 120);

const email = Joi.string()
  .trim()
  .lowercase()
  .max(160)
  .email({ tlds: { allow: false } });

/**
 * Joi returns an allowed '' untouched (its rules and customs are skipped), so the object maps
 * every '' left in it to null: "empty becomes null" for phone, avatarUrl and free-text fields.
 */
function blanksAsNull(schema: Joi.ObjectSchema): Joi.ObjectSchema {
  return schema.custom((o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === '' ? null : v])),
  );
}

/** Empty (or only spaces) becomes null; otherwise digits with the usual separators, trimmed. */
const phone = Joi.string()
  .allow('', null)
  .max(32)
  .pattern(PHONE_PATTERN)
  .custom((value: string) => value.trim() || null);

const avatarUrl = Joi.string().allow('', null).max(2048).pattern(AVATAR_URL_PATTERN);

/** Optional free text, trimmed, then at most `max` code points; empty (or only spaces) becomes null. */
function text(max: number) {
  return trimmedString(0, max)
    .allow('', null)
    .custom((value: string) => value || null);
}

const dateTime = Joi.string()
  .pattern(DATE_TIME)
  .custom((value: string, helpers) => {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? helpers.error('date.base') : d;
  });

export const userIdParams = Joi.object({ userId: Joi.string().pattern(ID).required() });

export const baseProfileBody = blanksAsNull(
  Joi.object({
    fullName: fullName.required(),
    email,
    phone,
    avatarUrl,
  }),
);

const membership = Joi.object({
  organizationId: Joi.string().pattern(ID).required(),
  organizationName: Joi.string().min(1).max(500).required(),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
  status: Joi.string().min(1).max(50).required(),
});

const teacherKyc = blanksAsNull(
  Joi.object({
    status: Joi.string().valid('NONE', 'PENDING', 'APPROVED', 'REJECTED').required(),
    submittedAt: dateTime.allow(null).default(null),
    reviewedAt: dateTime.allow(null).default(null),
    rejectionReason: text(500).default(null),
    documentType: text(40).default(null),
    identityNumberLast4: Joi.string()
      .pattern(/^[0-9A-Za-z]{4}$/)
      .allow(null)
      .default(null),
    identityNumberHash: Joi.string().min(1).max(256).allow(null).default(null),
  }),
);

/**
 * The id may also come as `userId`, as the path and identity.user-changed.v1 spell it; when both
 * are sent they must agree.
 */
export const SNAPSHOT_SPELLINGS = [{ path: 'id', alias: 'userId' }] as const;

/**
 * A tolerant reader: members the schema does not name (passwordHash, refreshToken, ...) are
 * dropped at every depth, never refused nor stored; the named ones keep their rules.
 */
export const snapshotBody = tolerant(
  blanksAsNull(
    Joi.object({
      id: Joi.string().pattern(ID),
      accountCode: Joi.string().min(1).max(64).required(),
      email: email.required(),
      fullName: fullName.required(),
      role: Joi.string()
        .valid(...ROLES)
        .required(),
      status: Joi.string().min(1).max(50).required(),
      phone,
      avatarUrl,
      defaultOrganizationId: Joi.string().pattern(ID).allow(null),
      memberships: Joi.array().items(membership).max(100),
      createdAt: dateTime,
      updatedAt: dateTime.required(),
      teacherKyc: teacherKyc.allow(null),
    }),
  ),
  SNAPSHOT_SPELLINGS,
);

/** identity.user-changed.v1's data, read by the same rules as the HTTP snapshot. */
export const userChangedData = Joi.object({
  userId: Joi.string().pattern(ID).required(),
  change: Joi.string().valid('CREATED', 'UPDATED').required(),
  user: snapshotBody.required(),
}).unknown(true);

export const teacherProfileBody = blanksAsNull(
  Joi.object({
    schoolName: text(160),
    subjects: Joi.array()
      .items(trimmedString(1, 80))
      .max(30)
      .custom((list: string[]) => [...new Set(list)]),
    bio: text(1000),
  }).min(1),
);

export const studentProfileBody = blanksAsNull(
  Joi.object({
    schoolName: text(160),
    gradeLevel: Joi.number().integer().min(1).max(12).allow(null),
    className: text(40),
  }).min(1),
);

export const parentProfileBody = blanksAsNull(Joi.object({ relationToStudent: text(40) }).min(1));
