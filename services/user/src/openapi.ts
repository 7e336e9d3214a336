import { actorHeader, openApiDocument, type DocumentBase, type JsonObject } from '../../kit/src/index.js';
import { userRoutes } from './routes.js';

export const SERVICE_NAME = 'user';
export const SERVICE_VERSION = '0.1.0';

/** What the user service's document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME },
  info: {
    title: 'edu-platform user service',
    version: SERVICE_VERSION,
    description:
      'User profiles: the base user record (public fields only; never a password hash or refresh token), teacher, student and parent profiles, and a read-only, redacted teacher verification record. Fed by the auth service through identity.user-changed.v1. This document states every request and response shape, including the choices the contract leaves open (x-decisions).',
  },
  servers: [{ url: 'http://127.0.0.1:4002' }],
  'x-decisions': [
    'Callers are recognised by the actor headers (X-User-Id | X-Actor-Id, X-User-Role | X-Actor-Role) that a gateway or peer injects; with INTERNAL_API_TOKEN set every /v1 route also needs X-Internal-Token.',
    "Who may read and change a profile: its owner (X-User-Id equal to the path's userId) or an ADMIN, for GET profile and the four PATCH routes. No actor id: 401 UNAUTHENTICATED; anyone else: 403 FORBIDDEN, checked before the profile is looked up (a 403 does not reveal whether the profile exists).",
    'PUT profile-snapshot is ADMIN only: a snapshot sets identity fields such as the role, which an owner must not set for themselves.',
    'Responses: GET and every PATCH answer 200 with the whole profile view, message OK; PUT profile-snapshot answers 200 with { applied, profile }.',
    'Profile view: id, accountCode, email, fullName, role, status, phone, avatarUrl, defaultOrganizationId, createdAt, updatedAt, teacherProfile, studentProfile, parentProfile, teacherKyc, memberships; role profiles and teacherKyc are null until set.',
    'Role profile fields: teacher { schoolName, subjects, bio }, student { schoolName, gradeLevel (1..12), className }, parent { relationToStudent }; each with its own updatedAt. A PATCH merges the sent fields (at least one) into the stored ones; empty strings become null.',
    'The snapshot stores named public fields only: passwordHash, refreshToken and any other field in the body are accepted and dropped (whitelist), never stored. Unknown fields in the PATCH bodies are refused with 400.',
    "Tolerant reader (internal bodies: the PUT profile-snapshot and identity.user-changed.v1's user): a member the service does not use is ignored at every depth (inside memberships and teacherKyc too), never refused and never stored; the members it uses keep their types and limits (400 otherwise). The id may be spelled id or userId (as the path and identity.user-changed.v1 spell it); when both are sent they must be equal, else 400 VALIDATION_ERROR naming userId; either must equal the path's userId (400 naming id). The PATCH routes keep refusing unknown members.",
    'teacherKyc comes only with a snapshot (submit and review are outside the service); its identityNumberHash is stored apart (never selected by reads) and never returned; the view lists status, submittedAt, reviewedAt, rejectionReason, documentType and identityNumberLast4 only.',
    'Newer wins: a snapshot (HTTP or event) is applied only when its user.updatedAt is later than the stored version; an equal or older one changes nothing (applied false). A base-profile PATCH sets the version to its own time (at least 1 ms past the stored one), so an older identity event never undoes a local edit; a later auth change overwrites it. Role-profile edits do not move the version.',
    'Base-profile PATCH: fullName required; email, phone and avatarUrl optional — omitted stays unchanged; phone or avatarUrl empty or null removes it. An empty email is refused (400): a profile always has one. The change is local to the user service: the login e-mail in auth is not changed (e-mail change verification is outside the service).',
    "Email and phone are unique across profiles (unique indexes): a PATCH or snapshot taking another profile's value gets 409 EMAIL_TAKEN / PHONE_TAKEN and changes nothing.",
    'Events: the service consumes identity.user-changed.v1 (consumer group `user`, USER_EVENTS_GROUP; from the beginning, so a new group replays the compacted topic as a backfill), idempotent by event id, and upserts the snapshot by the rules above. An event whose data breaks the snapshot rules, or whose e-mail/phone another profile holds, goes to identity.user-changed.v1.dlq at once; other failures are retried first. The service publishes no events.',
    'A store for parent-to-student links (collection parent_links) exists with no API, as the contract says.',
    "Paths' userId: 1 to 128 characters of [A-Za-z0-9_.:@-] (400 otherwise).",
  ],
  components: {
    securitySchemes: {
      internalToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Internal-Token',
        description: 'Required on /v1/users/* when INTERNAL_API_TOKEN is configured.',
      },
    },
    parameters: {
      UserHeader: actorHeader('X-User-Id', 'The caller (X-Actor-Id is read too). Empty is the same as absent: 401.'),
      RoleHeader: actorHeader(
        'X-User-Role',
        "The caller's role (X-Actor-Role is read too). Empty is the same as absent.",
      ),
    },
    schemas: {
      Profile: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'accountCode',
          'email',
          'fullName',
          'role',
          'status',
          'phone',
          'avatarUrl',
          'defaultOrganizationId',
          'createdAt',
          'updatedAt',
          'teacherProfile',
          'studentProfile',
          'parentProfile',
          'teacherKyc',
          'memberships',
        ],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
          accountCode: { type: 'string' },
          email: { type: 'string' },
          fullName: { type: 'string' },
          role: { type: 'string' },
          status: { type: 'string' },
          phone: { type: ['string', 'null'] },
          avatarUrl: { type: ['string', 'null'] },
          defaultOrganizationId: { type: ['string', 'null'] },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: {
            type: 'string',
            format: 'date-time',
            description:
              "The base record's version: the last applied snapshot's user.updatedAt, or the time of the last base-profile PATCH (role-profile edits do not move it).",
          },
          teacherProfile: {
            type: ['object', 'null'],
            description: 'null until the first teacher-profile PATCH.',
            additionalProperties: false,
            required: ['updatedAt'],
            properties: {
              schoolName: { type: ['string', 'null'] },
              subjects: { type: 'array', items: { type: 'string' } },
              bio: { type: ['string', 'null'] },
              updatedAt: { type: 'string', format: 'date-time', description: 'When this role profile last changed.' },
            },
          },
          studentProfile: {
            type: ['object', 'null'],
            description: 'null until the first student-profile PATCH.',
            additionalProperties: false,
            required: ['updatedAt'],
            properties: {
              schoolName: { type: ['string', 'null'] },
              gradeLevel: { type: ['integer', 'null'] },
              className: { type: ['string', 'null'] },
              updatedAt: { type: 'string', format: 'date-time', description: 'When this role profile last changed.' },
            },
          },
          parentProfile: {
            type: ['object', 'null'],
            description: 'null until the first parent-profile PATCH.',
            additionalProperties: false,
            required: ['updatedAt'],
            properties: {
              relationToStudent: { type: ['string', 'null'] },
              updatedAt: { type: 'string', format: 'date-time', description: 'When this role profile last changed.' },
            },
          },
          teacherKyc: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['status', 'submittedAt', 'reviewedAt', 'rejectionReason', 'documentType', 'identityNumberLast4'],
            description:
              'The teacher verification record, read-only and redacted: the identity-number hash is never returned (nor any field not listed here). null until a snapshot brings one.',
            properties: {
              status: { type: 'string', enum: ['NONE', 'PENDING', 'APPROVED', 'REJECTED'] },
              submittedAt: { type: ['string', 'null'], format: 'date-time' },
              reviewedAt: { type: ['string', 'null'], format: 'date-time' },
              rejectionReason: { type: ['string', 'null'] },
              documentType: { type: ['string', 'null'] },
              identityNumberLast4: { type: ['string', 'null'] },
            },
          },
          memberships: {
            type: 'array',
            items: {
              type: 'object',
              required: ['organizationId', 'organizationName', 'role', 'status'],
              additionalProperties: false,
              properties: {
                organizationId: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
                organizationName: { type: 'string', minLength: 1, maxLength: 500 },
                role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
                status: { type: 'string', minLength: 1, maxLength: 50 },
              },
            },
          },
        },
      },
      SnapshotResult: {
        type: 'object',
        additionalProperties: false,
        required: ['applied', 'profile'],
        properties: {
          applied: {
            type: 'boolean',
            description: 'false when the stored record was as new or newer: nothing was written.',
          },
          profile: { $ref: '#/components/schemas/Profile' },
        },
      },
      Membership: {
        type: 'object',
        required: ['organizationId', 'organizationName', 'role', 'status'],
        additionalProperties: false,
        properties: {
          organizationId: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
          organizationName: { type: 'string', minLength: 1, maxLength: 500 },
          role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
          status: { type: 'string', minLength: 1, maxLength: 50 },
        },
      },
    },
  },
};

/** The user service's OpenAPI document, generated from its route declarations. */
export function userDocument(): JsonObject {
  return openApiDocument(BASE, userRoutes);
}
