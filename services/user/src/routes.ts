import { AppError, isPlatformAdmin, readActor } from '../../kit/src/core/index.js';
import {
  errorResponses,
  ok,
  okResponse,
  ref,
  routerFor,
  routes,
  type JsonObject,
  type Empty,
  type Route,
  type ValidRequest,
} from '../../kit/src/http/index.js';
import type { Response, Router } from 'express';
import type { UserDeps } from './domain/deps.js';
import { getProfile, updateBaseProfile, upsertRoleProfile, type RoleProfileKind } from './domain/profiles.js';
import { upsertSnapshot } from './domain/snapshot.js';
import { MSG } from './messages.js';
import {
  baseProfileBody,
  parentProfileBody,
  snapshotBody,
  studentProfileBody,
  teacherProfileBody,
  userIdParams,
} from './schemas.js';

const route = routes<UserDeps>();

/** The actor headers every route reads (X-Actor-* are read too). */
const ACTOR_HEADERS = [
  ref('parameters', 'UserHeader'),
  ref('parameters', 'RoleHeader'),
  ref('parameters', 'OrganizationHeader'),
];

const ERRORS = {
  400: 'Malformed JSON, wrong types, unknown fields, a malformed header; details name every field. Codes: VALIDATION_ERROR.',
  401: 'No X-User-Id / X-Actor-Id, or a missing or wrong X-Internal-Token when INTERNAL_API_TOKEN is configured. Codes: UNAUTHENTICATED.',
  403: "Neither the profile's owner nor the ADMIN of the organization of X-Organization-Id. Codes: FORBIDDEN.",
  404: "No profile for this user id (it arrives with the user's first snapshot), or, for an admin, a profile without an ACTIVE membership in the organization of X-Organization-Id (another school's user is not found). Codes: USER_NOT_FOUND.",
  500: 'Unexpected failure; no internals are returned. Codes: INTERNAL_ERROR.',
};

const BODY_ERRORS = {
  413: 'Body larger than 64 KiB. Codes: PAYLOAD_TOO_LARGE.',
  415: 'Body that is not application/json. Codes: UNSUPPORTED_MEDIA_TYPE.',
};

const PROFILE = ref('schemas', 'Profile');
const AFTER_CHANGE = 'The whole profile view after the change';

/** An owner-or-admin write's responses: the profile view, the shared errors and its 409. */
function writeResponses(conflict: string): JsonObject {
  return {
    200: okResponse(AFTER_CHANGE, PROFILE),
    ...errorResponses({ ...ERRORS, ...BODY_ERRORS, 409: conflict }),
  };
}

const ROLE_PROFILE_DESCRIPTION =
  'Owner, or the ADMIN of an organization (X-Organization-Id) the user is an ACTIVE member of. Upsert: creates the role profile on first use, otherwise merges the sent fields into the stored ones (omitted fields stay). Any user may hold any role profile, whatever its current role.';

type RoleProfileRequest = ValidRequest<{ userId: string }, Empty, Record<string, unknown>>;

/** A role profile's PATCH but its body: the same rules for the three kinds. */
function roleProfileRoute(path: string, kind: RoleProfileKind, who: string) {
  return {
    method: 'patch' as const,
    path: `/v1/users/:userId/${path}`,
    params: userIdParams,
    doc: {
      summary: `Upsert the ${who} profile`,
      operationId: `upsert${who[0]?.toUpperCase()}${who.slice(1)}Profile`,
      description: ROLE_PROFILE_DESCRIPTION,
      parameters: ACTOR_HEADERS,
      responses: writeResponses('Concurrent edits kept colliding. Codes: PROFILE_CONFLICT.'),
    },
    handle: async (req: RoleProfileRequest, res: Response, deps: UserDeps) => {
      const target = { userId: req.valid.params.userId, kind };
      ok(res, await upsertRoleProfile(deps, readActor(req), target, req.valid.body));
    },
  };
}

/** The user service's routes, declared once: validation, handler types and the document come from here. */
export const userRoutes: ReadonlyArray<Route<UserDeps>> = [
  // A snapshot may set any identity field, the role included: only an admin (a backfill) may send one.
  route({
    method: 'put',
    path: '/v1/users/:userId/profile-snapshot',
    params: userIdParams,
    body: snapshotBody,
    doc: {
      summary: 'Upsert the profile snapshot (public user data from auth or a backfill)',
      operationId: 'putProfileSnapshot',
      description:
        'The platform ADMIN only (ADMIN without X-Organization-Id: a backfill acts as the platform admin; auth itself feeds the service through identity.user-changed.v1, by the same rules). Newer wins by updatedAt: a snapshot not newer than the stored record changes nothing and answers applied false.',
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('Success', ref('schemas', 'SnapshotResult')),
        ...errorResponses({
          ...ERRORS,
          ...BODY_ERRORS,
          400: "As above, and a body id that differs from the path's userId. Codes: VALIDATION_ERROR.",
          403: "The caller is not the platform's ADMIN (X-User-Role ADMIN on a request naming no X-Organization-Id; an organization's ADMIN may not). Codes: FORBIDDEN.",
          409: 'The e-mail or phone belongs to another profile, or concurrent snapshots kept colliding. Codes: EMAIL_TAKEN, PHONE_TAKEN, PROFILE_CONFLICT.',
        }),
      },
    },
    handle: async (req, res, deps) => {
      const actor = readActor(req);
      if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
      // A snapshot sets identity and memberships in every organization: the platform's ADMIN only
      // (no X-Organization-Id), never an organization's.
      if (!isPlatformAdmin(actor)) throw new AppError('FORBIDDEN', MSG.snapshotAdminOnly);
      ok(res, await upsertSnapshot(deps, req.valid.params.userId, req.valid.body));
    },
  }),
  route({
    method: 'get',
    path: '/v1/users/:userId/profile',
    params: userIdParams,
    doc: {
      summary: 'The profile view',
      operationId: 'getProfile',
      description: 'Owner, or the ADMIN of an organization (X-Organization-Id) the user is an ACTIVE member of.',
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('Success', PROFILE), ...errorResponses(ERRORS) },
    },
    handle: async (req, res, deps) => {
      ok(res, await getProfile(deps, readActor(req), req.valid.params.userId));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/users/:userId/profile',
    params: userIdParams,
    body: baseProfileBody,
    doc: {
      summary: 'Update the base profile (fullName, email, phone, avatarUrl)',
      operationId: 'patchProfile',
      description:
        "Owner, or the ADMIN of an organization (X-Organization-Id) the user is an ACTIVE member of. Validated as the contract's Limits say.",
      parameters: ACTOR_HEADERS,
      responses: writeResponses(
        'The e-mail or phone belongs to another profile, or concurrent edits kept colliding. Codes: EMAIL_TAKEN, PHONE_TAKEN, PROFILE_CONFLICT.',
      ),
    },
    handle: async (req, res, deps) => {
      ok(res, await updateBaseProfile(deps, readActor(req), req.valid.params.userId, req.valid.body));
    },
  }),
  route({ ...roleProfileRoute('teacher-profile', 'teacherProfile', 'teacher'), body: teacherProfileBody }),
  route({ ...roleProfileRoute('student-profile', 'studentProfile', 'student'), body: studentProfileBody }),
  route({ ...roleProfileRoute('parent-profile', 'parentProfile', 'parent'), body: parentProfileBody }),
];

/** The user service's router over its declared routes. */
export function userRouter(deps: UserDeps): Router {
  return routerFor(userRoutes, deps);
}
