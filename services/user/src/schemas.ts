import Joi from 'joi';
import { ROLES } from '../../kit/src/core/index.js';
import { dateTimeString, named, tolerant, trimmedString } from '../../kit/src/http/index.js';
import type { BaseProfileInput } from './domain/profiles.js';
import type { SnapshotInput } from './domain/snapshot.js';

export const PHONE_PATTERN = /^ *(?:\+?[0-9][0-9 ().-]{1,30}[0-9)] *)?$/;
/** An absolute http(s) URL of printable ASCII without spaces, or empty (which becomes null). */
export const AVATAR_URL_PATTERN = /^(https?:\/\/[!-~]+)?$/;
const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

/** Trimmed, 2 to 120 characters (code points); the bounds apply after trimming. */
export const fullName = trimmedString(2, 120).description(
  'Required; trimmed (ECMAScript whitespace) before it is stored, 2 to 120 characters: the value must hold two that are not whitespace; the bounds apply after trimming.',
);

const email = Joi.string()
  .trim()
  .lowercase()
  .max(160)
  .email({ tlds: { allow: false } })
  .description('Trimmed and lowercased; unique across profiles (409 EMAIL_TAKEN).');

/**
 * Joi returns an allowed '' untouched (its rules and customs are skipped), so the object maps
 * every '' left in it to null: "empty becomes null" for phone, avatarUrl and free-text fields.
 */
function blanksAsNull<T>(schema: Joi.ObjectSchema<T>): Joi.ObjectSchema<T> {
  return schema.custom((o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === '' ? null : v])),
  );
}

/** Empty (or only spaces) becomes null; otherwise digits with the usual separators, trimmed. */
const phone = Joi.string()
  .allow('', null)
  .max(32)
  .pattern(PHONE_PATTERN)
  .custom((value: string) => value.trim() || null)
  .description(
    "Digits with spaces, parentheses, dots and dashes, ending in a digit or `)` (the auth service's registration rule); spaces around are removed; empty (or only spaces) or null becomes null (no phone); unique when present (409 PHONE_TAKEN).",
  );

const avatarUrl = Joi.string()
  .allow('', null)
  .max(2048)
  .pattern(AVATAR_URL_PATTERN)
  .description(
    'Empty or null becomes null; otherwise an absolute URL beginning with `http://` or `https://` (lower case), printable ASCII without spaces (percent-encode the rest), at most 2048 characters.',
  );

/** Optional free text, trimmed, then at most `max` code points; empty (or only spaces) becomes null. */
function text(max: number, what: string) {
  return trimmedString(0, max)
    .allow('', null)
    .custom((value: string) => value || null)
    .description(`${what} Trimmed, then at most ${max} characters; empty (or only spaces) becomes null.`);
}

const dateTime = dateTimeString();

export const userIdParams = Joi.object<{ userId: string }, true>({ userId: Joi.string().pattern(ID).required() });

export const baseProfileBody = named(
  'BaseProfileUpdate',
  blanksAsNull(
    Joi.object<BaseProfileInput, true>({
      fullName: fullName.required(),
      email,
      phone,
      avatarUrl,
    }),
  ).description('An omitted optional field stays as it is. Unknown fields are refused (400).'),
);

const membership = Joi.object<MembershipInput, true>({
  organizationId: Joi.string().pattern(ID).required(),
  organizationName: Joi.string().min(1).max(500).required(),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
  status: Joi.string().min(1).max(50).required(),
}).description('Other fields are ignored.');

type KycInput = NonNullable<SnapshotInput['teacherKyc']>;
type MembershipInput = NonNullable<SnapshotInput['memberships']>[number];

const teacherKyc = blanksAsNull(
  Joi.object<KycInput, true>({
    status: Joi.string().valid('NONE', 'PENDING', 'APPROVED', 'REJECTED').required(),
    submittedAt: dateTime.allow(null).default(null),
    reviewedAt: dateTime.allow(null).default(null),
    rejectionReason: text(500, 'Free text.').default(null),
    documentType: text(40, 'Free text.').default(null),
    identityNumberLast4: Joi.string()
      .pattern(/^[0-9A-Za-z]{4}$/)
      .allow(null)
      .default(null),
    identityNumberHash: Joi.string().min(1).max(256).allow(null).default(null).description('Stored, never returned.'),
  }),
).description(
  'The teacher verification record from a backfill (submit and review are outside this service). identityNumberHash is stored apart and never returned; other fields are ignored. null removes the record.',
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
export const snapshotBody = named(
  'ProfileSnapshot',
  tolerant(
    blanksAsNull(
      Joi.object<SnapshotInput, true>({
        id: Joi.string().pattern(ID).description("When sent, must equal the path's userId (400 otherwise)."),
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
        memberships: Joi.array()
          .items(membership)
          .max(100)
          .description('Replaces the stored list when sent; omitted keeps it.'),
        createdAt: dateTime,
        updatedAt: dateTime
          .required()
          .description("The snapshot's version: applied only when newer than the stored one."),
        teacherKyc: teacherKyc.allow(null),
      }),
    ),
    SNAPSHOT_SPELLINGS,
  ).description(
    'Public user data as the auth service states it (the User of a session, plus phone). A tolerant reader (internal body): any other field, at any depth — passwordHash, refreshToken, tokens, anything — is accepted and dropped, never stored; named fields keep their types and limits.',
  ),
);

/** identity.user-changed.v1's data, read by the same rules as the HTTP snapshot. */
export const userChangedData = Joi.object({
  userId: Joi.string().pattern(ID).required(),
  change: Joi.string().valid('CREATED', 'UPDATED').required(),
  user: snapshotBody.required(),
}).unknown(true);

/** A role profile's fields as sent (the service stores what the schema returned). */
export type TeacherProfileFields = { schoolName?: string | null; subjects?: string[]; bio?: string | null };
export type StudentProfileFields = {
  schoolName?: string | null;
  gradeLevel?: number | null;
  className?: string | null;
};
export type ParentProfileFields = { relationToStudent?: string | null };

export const teacherProfileBody = named(
  'TeacherProfileUpdate',
  blanksAsNull(
    Joi.object<TeacherProfileFields, true>({
      schoolName: text(160, 'School name.'),
      subjects: Joi.array()
        .items(trimmedString(1, 80))
        .max(30)
        .custom((list: string[]) => [...new Set(list)])
        .description(
          'Replaces the list; each entry trimmed, 1 to 80 characters (not blank), duplicates removed keeping the first.',
        ),
      bio: text(1000, 'Short biography.'),
    }).min(1),
  ),
);

export const studentProfileBody = named(
  'StudentProfileUpdate',
  blanksAsNull(
    Joi.object<StudentProfileFields, true>({
      schoolName: text(160, 'School name.'),
      gradeLevel: Joi.number()
        .integer()
        .min(1)
        .max(12)
        .allow(null)
        .description('School grade 1 to 12 (THPT: 10 to 12).'),
      className: text(40, 'Class, e.g. 12A1.'),
    }).min(1),
  ),
);

export const parentProfileBody = named(
  'ParentProfileUpdate',
  blanksAsNull(
    Joi.object<ParentProfileFields, true>({ relationToStudent: text(40, 'E.g. Bố, Mẹ, Người giám hộ.') }).min(1),
  ),
);
