import {
  INTERNAL_TOKEN_SCHEME,
  documentHead,
  actorHeader,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/http/index.js';
import { authRoutes } from './routes.js';

export const SERVICE_NAME = 'auth';
export const SERVICE_VERSION = '0.1.0';

/** A response object with exactly these members, every one present (in the order given). */
function closed(properties: JsonObject): JsonObject {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

/** What the auth service's document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME, metrics: 'auth_login_attempts_total{outcome}, auth_refresh_token_reuse_total' },
  ...documentHead(
    {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      port: 4001,
      decisions: new URL('../decisions.json', import.meta.url),
    },
    'Native identities and sessions: register, login, refresh (rotation, each token once), logout, me; organization memberships granted by admins, account status, and the revocation feed the gateway polls. This document states every request and response shape, including the choices the contract leaves open; those are listed under x-decisions.',
  ),
  components: {
    securitySchemes: {
      internalToken: INTERNAL_TOKEN_SCHEME,
    },
    parameters: {
      UserHeader: actorHeader(
        'X-User-Id',
        'The acting user (X-Actor-Id is read when absent); without it the answer is 401.',
      ),
      RoleHeader: actorHeader(
        'X-User-Role',
        "Must be ADMIN (X-Actor-Role is read when absent): the role the gateway took from the token's membership in X-Organization-Id.",
      ),
      OrganizationHeader: actorHeader(
        'X-Organization-Id',
        "The organization the actor acts in: the path's organization, or AUTH_PLATFORM_ORGANIZATION_ID for a platform admin.",
      ),
    },
    schemas: {
      Membership: closed({
        organizationId: { type: 'string' },
        organizationName: { type: 'string' },
        role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
        status: { type: 'string', enum: ['ACTIVE'] },
      }),
      User: closed({
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
      Session: closed({
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
      RevocationPage: closed({
        items: {
          type: 'array',
          items: closed({
            sid: { type: 'string', description: 'The revoked session: the `sid` claim of its access tokens.' },
            userId: { type: 'string' },
            revokedAt: { type: 'string', format: 'date-time' },
          }),
        },
        until: { type: 'string', format: 'date-time', description: 'Pass as `since` next time.' },
      }),
    },
  },
};

/** The auth service's OpenAPI document, generated from its route declarations. */
export function authDocument(): JsonObject {
  return openApiDocument(BASE, authRoutes);
}
