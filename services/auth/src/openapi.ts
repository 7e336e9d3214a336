import { serviceDocument, closedObject } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { authRoutes } from './routes.js';

export const SERVICE_NAME = 'auth';
export const SERVICE_VERSION = '0.1.0';

/** The auth service's OpenAPI document: its routes' declarations, document.json and decisions.json. */
export const authDocument = serviceDocument(
  {
    service: SERVICE_NAME,
    version: SERVICE_VERSION,
    port: portOf(SERVICE_NAME),
    from: import.meta.url,
    metrics: 'auth_login_attempts_total{outcome}, auth_refresh_token_reuse_total',
  },
  {
    schemas: {
      Membership: closedObject({
        organizationId: { type: 'string' },
        organizationName: { type: 'string' },
        role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
        status: { type: 'string', enum: ['ACTIVE'] },
      }),
      User: closedObject({
        id: { type: 'string' },
        accountCode: { type: 'string', pattern: '^AC[0-9A-HJKMNP-TV-Z]{10}$' },
        email: { type: 'string' },
        fullName: { type: 'string' },
        role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
        status: {
          type: 'string',
          description:
            'ACTIVE for usable accounts (the only value the contract names); any other value, such as a legacy or disabled state, is treated as not active.',
        },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        memberships: { type: 'array', items: { $ref: '#/components/schemas/Membership' } },
        defaultOrganizationId: { type: 'string' },
      }),
      Session: closedObject({
        user: { $ref: '#/components/schemas/User' },
        accessToken: {
          type: 'string',
          description:
            'HS256 JWT; claims sub, type=access, role, accountCode, fullName, email, defaultOrganizationId, iat, exp.',
        },
        refreshToken: {
          type: 'string',
          description: 'HS256 JWT; claims sub, type=refresh, jti, iat, exp. Works once.',
        },
        tokenType: { const: 'Bearer' },
        expiresIn: { type: 'integer', description: 'Seconds of access-token life (default 900).' },
      }),
      RevocationPage: closedObject({
        items: {
          type: 'array',
          items: closedObject({
            sid: { type: 'string', description: 'The revoked session: the `sid` claim of its access tokens.' },
            userId: { type: 'string' },
            revokedAt: { type: 'string', format: 'date-time' },
          }),
        },
        until: { type: 'string', format: 'date-time', description: 'Pass as `since` next time.' },
      }),
    },
  },
  authRoutes,
);
