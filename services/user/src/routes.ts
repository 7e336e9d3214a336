import { Router } from 'express';
import { AppError, input, ok, readActor, validate } from '../../kit/src/index.js';
import type { UserDeps } from './domain/deps.js';
import {
  getProfile,
  updateBaseProfile,
  upsertRoleProfile,
  type BaseProfileInput,
  type RoleProfileKind,
} from './domain/profiles.js';
import { upsertSnapshot, type SnapshotInput } from './domain/snapshot.js';
import { MSG } from './messages.js';
import {
  baseProfileBody,
  parentProfileBody,
  snapshotBody,
  studentProfileBody,
  teacherProfileBody,
  userIdParams,
} from './schemas.js';

const ROLE_PROFILE_ROUTES: Array<[string, RoleProfileKind, typeof teacherProfileBody]> = [
  ['teacher-profile', 'teacherProfile', teacherProfileBody],
  ['student-profile', 'studentProfile', studentProfileBody],
  ['parent-profile', 'parentProfile', parentProfileBody],
];

const userIdOf = (req: Parameters<typeof input>[0]) => input<{ userId: string }>(req, 'params').userId;

export function userRoutes(deps: UserDeps): Router {
  const router = Router();
  // A snapshot may set any identity field, the role included: only an admin (a backfill) may send one.
  router.put(
    '/v1/users/:userId/profile-snapshot',
    validate({ params: userIdParams, body: snapshotBody }),
    async (req, res) => {
      const actor = readActor(req);
      if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
      if (actor.role !== 'ADMIN') throw new AppError('FORBIDDEN', MSG.snapshotAdminOnly);
      const result = await upsertSnapshot(deps, userIdOf(req), input<SnapshotInput>(req, 'body'));
      ok(res, result);
    },
  );
  router.get('/v1/users/:userId/profile', validate({ params: userIdParams }), async (req, res) => {
    ok(res, await getProfile(deps, readActor(req), userIdOf(req)));
  });
  router.patch(
    '/v1/users/:userId/profile',
    validate({ params: userIdParams, body: baseProfileBody }),
    async (req, res) => {
      ok(res, await updateBaseProfile(deps, readActor(req), userIdOf(req), input<BaseProfileInput>(req, 'body')));
    },
  );
  for (const [path, kind, body] of ROLE_PROFILE_ROUTES) {
    router.patch(`/v1/users/:userId/${path}`, validate({ params: userIdParams, body }), async (req, res) => {
      const fields = input<Record<string, unknown>>(req, 'body');
      ok(res, await upsertRoleProfile(deps, readActor(req), { userId: userIdOf(req), kind }, fields));
    });
  }
  return router;
}
