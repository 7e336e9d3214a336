import { serviceDocument, closedObject, type JsonObject } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { userRoutes } from './routes.js';

export const SERVICE_NAME = 'user';
export const SERVICE_VERSION = '0.1.0';

/** A role profile as the view returns it: its own fields and when it last changed; null until the first PATCH. */
function roleProfile(kind: string, fields: JsonObject): JsonObject {
  return {
    type: ['object', 'null'],
    description: `null until the first ${kind}-profile PATCH.`,
    additionalProperties: false,
    required: ['updatedAt'],
    properties: {
      ...fields,
      updatedAt: { type: 'string', format: 'date-time', description: 'When this role profile last changed.' },
    },
  };
}

/** The user service's OpenAPI document: its routes' declarations, document.json and decisions.json. */
export const userDocument = serviceDocument(
  { service: SERVICE_NAME, version: SERVICE_VERSION, port: portOf(SERVICE_NAME), from: import.meta.url },
  {
    schemas: {
      Profile: closedObject({
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
        teacherProfile: roleProfile('teacher', {
          schoolName: { type: ['string', 'null'] },
          subjects: { type: 'array', items: { type: 'string' } },
          bio: { type: ['string', 'null'] },
        }),
        studentProfile: roleProfile('student', {
          schoolName: { type: ['string', 'null'] },
          gradeLevel: { type: ['integer', 'null'] },
          className: { type: ['string', 'null'] },
        }),
        parentProfile: roleProfile('parent', { relationToStudent: { type: ['string', 'null'] } }),
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
      }),
      SnapshotResult: closedObject({
        applied: {
          type: 'boolean',
          description: 'false when the stored record was as new or newer: nothing was written.',
        },
        profile: { $ref: '#/components/schemas/Profile' },
      }),
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
  userRoutes,
);
