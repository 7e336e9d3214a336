import type { NextFunction, Request, Response } from 'express';
import { AppError, readActor } from '../../kit/src/core/index.js';
import { errorResponses, ok, okResponse, ref, routes, type Route } from '../../kit/src/http/index.js';
import { setAccountStatus } from './domain/accounts.js';
import type { AuthDeps } from './domain/deps.js';
import { grantMembership, removeMembership } from './domain/memberships.js';
import { revocationsSince } from './domain/revocations.js';
import { MSG } from './messages.js';
import { BODY_ERRORS, INTERNAL_TOKEN_MISSING, SERVER_ERRORS, USER } from './responses.js';
import { grantBody, membershipParams, revocationsQuery, statusBody, userParams } from './schemas.js';

const route = routes<AuthDeps>();

const MEMBER_PATH = '/v1/auth/organizations/:organizationId/members/:userId';

/** The actor headers an admin's route reads (X-Actor-* when absent). */
const ACTOR_HEADERS = [
  ref('parameters', 'UserHeader'),
  ref('parameters', 'RoleHeader'),
  ref('parameters', 'OrganizationHeader'),
];

/** What every admin route may answer besides its own. */
const ADMIN_ERRORS = {
  400: 'Malformed path id, body or actor header; details name every field. Codes: VALIDATION_ERROR.',
  401: 'No actor (X-User-Id), or a missing or wrong X-Internal-Token when INTERNAL_API_TOKEN is configured. Codes: UNAUTHENTICATED.',
  ...SERVER_ERRORS,
};

/** A membership route's failures: the organization-admin check and the target's absence. */
const MEMBERSHIP_ERRORS = {
  ...ADMIN_ERRORS,
  403: "The actor is not an ADMIN of this organization (nor a platform admin): the role header is not ADMIN, X-Organization-Id is another organization, or auth's own records show no ACTIVE ADMIN membership of an ACTIVE user there. Nothing is written. Codes: FORBIDDEN.",
  404: 'No such user (USER_NOT_FOUND), or on DELETE no such membership (MEMBERSHIP_NOT_FOUND).',
};

/** Internal routes: admins' grants and account status (actor headers), the gateway's revocation feed. */
export const adminRoutes: ReadonlyArray<Route<AuthDeps>> = [
  route({
    method: 'put',
    path: MEMBER_PATH,
    params: membershipParams,
    body: grantBody,
    doc: {
      summary:
        "Grant a membership (an organization admin's grant): the user joins the organization with the role, or the role there changes",
      operationId: 'grantMembership',
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('The user after the grant (the same grant again changes nothing and answers the same).', USER),
        ...errorResponses({
          ...MEMBERSHIP_ERRORS,
          ...BODY_ERRORS,
          409: 'The user already holds 100 memberships (MEMBERSHIP_CONFLICT), or the user was changed concurrently five times in a row (CONFLICT).',
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await grantMembership(deps, readActor(req), req.valid.params, req.valid.body));
    },
  }),
  route({
    method: 'delete',
    path: MEMBER_PATH,
    params: membershipParams,
    doc: {
      summary: "Remove a membership; the user's sessions end",
      operationId: 'removeMembership',
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('The user after the removal.', USER),
        ...errorResponses({
          ...MEMBERSHIP_ERRORS,
          409: "The membership is the user's default organization (MEMBERSHIP_CONFLICT), or the user was changed concurrently five times in a row (CONFLICT).",
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await removeMembership(deps, readActor(req), req.valid.params));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/auth/users/:userId/status',
    params: userParams,
    body: statusBody,
    doc: {
      summary: 'Enable or disable an account (platform admin); disabling ends every session',
      operationId: 'setAccountStatus',
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('The user with the new status.', USER),
        ...errorResponses({
          ...ADMIN_ERRORS,
          ...BODY_ERRORS,
          403: "The actor is not a platform admin (ADMIN with X-Organization-Id = AUTH_PLATFORM_ORGANIZATION_ID and an ACTIVE ADMIN membership there in auth's records). Codes: FORBIDDEN.",
          404: 'No such user. Codes: USER_NOT_FOUND.',
          409: 'The user was changed concurrently five times in a row; try again. Codes: CONFLICT.',
        }),
      },
    },
    handle: async (req, res, deps) => {
      const actor = readActor(req);
      ok(res, await setAccountStatus(deps, actor, req.valid.params.userId, req.valid.body.status));
    },
  }),
  route({
    method: 'get',
    path: '/v1/auth/revocations',
    query: revocationsQuery,
    before: () => [gatewayOnly],
    doc: {
      summary: "Revoked sessions since a time: the gateway's revocation feed",
      operationId: 'listRevocations',
      description:
        "Sessions (token families; an access token's `sid`) revoked with since < revokedAt <= until, oldest first. `until` is the server's now minus AUTH_REVOCATION_FEED_LAG_MS (default 2000; never before `since`), so a revocation whose write is still in flight is never skipped; the next call passes `until` as `since`. A page holds at most 1000 items; when more are due, `until` is the last whole millisecond the page holds. The one exception: the sessions revoked in one same millisecond are never split across pages, so a page exceeds 1000 only when more than 1000 sessions were revoked in that one millisecond. Logout, refresh-token replay (family revoke), account disable and a membership removal or role change all show up here.",
      parameters: [
        {
          name: 'X-User-Id',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description:
            "Must be absent (also X-Actor-Id): the feed is the gateway's own, never answered for a request naming an end user (403).",
        },
      ],
      responses: {
        200: okResponse('Success', ref('schemas', 'RevocationPage')),
        ...errorResponses({
          400: 'since missing or not an ISO-8601 timestamp. Codes: VALIDATION_ERROR.',
          401: INTERNAL_TOKEN_MISSING,
          403: 'The request names a user (X-User-Id or X-Actor-Id). Codes: FORBIDDEN.',
          ...SERVER_ERRORS,
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await revocationsSince(deps, req.valid.query.since));
    },
  }),
];

/**
 * The feed is the gateway's: behind the internal token like all of /v1, and never for a request
 * that names an end user (the gateway sends actor headers only when forwarding a user's call).
 */
function gatewayOnly(req: Request, _res: Response, next: NextFunction): void {
  const named = ['x-user-id', 'x-actor-id'].some((h) => req.headers[h] !== undefined);
  next(named ? new AppError('FORBIDDEN', MSG.feedForGatewayOnly) : undefined);
}
