import { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError, input, ok, readActor, validate } from '../../kit/src/index.js';
import { setAccountStatus, type AccountStatus } from './domain/accounts.js';
import type { AuthDeps } from './domain/deps.js';
import { grantMembership, removeMembership, type GrantInput, type MembershipRef } from './domain/memberships.js';
import { revocationsSince } from './domain/revocations.js';
import { MSG } from './messages.js';
import { grantBody, membershipParams, revocationsQuery, statusBody, userParams } from './schemas.js';

const MEMBER_PATH = '/v1/auth/organizations/:organizationId/members/:userId';

/** Internal routes: admins' grants and account status (actor headers), the gateway's revocation feed. */
export function adminRoutes(deps: AuthDeps): Router {
  const router = Router();
  router.put(MEMBER_PATH, validate({ params: membershipParams, body: grantBody }), async (req, res) => {
    const ref = input<MembershipRef>(req, 'params');
    ok(res, await grantMembership(deps, readActor(req), ref, input<GrantInput>(req, 'body')));
  });
  router.delete(MEMBER_PATH, validate({ params: membershipParams }), async (req, res) => {
    ok(res, await removeMembership(deps, readActor(req), input<MembershipRef>(req, 'params')));
  });
  router.patch(
    '/v1/auth/users/:userId/status',
    validate({ params: userParams, body: statusBody }),
    async (req, res) => {
      const { userId } = input<{ userId: string }>(req, 'params');
      const { status } = input<{ status: AccountStatus }>(req, 'body');
      ok(res, await setAccountStatus(deps, readActor(req), userId, status));
    },
  );
  router.get('/v1/auth/revocations', gatewayOnly, validate({ query: revocationsQuery }), async (req, res) => {
    ok(res, await revocationsSince(deps, input<{ since: Date }>(req, 'query').since));
  });
  return router;
}

/**
 * The feed is the gateway's: behind the internal token like all of /v1, and never for a request
 * that names an end user (the gateway sends actor headers only when forwarding a user's call).
 */
function gatewayOnly(req: Request, _res: Response, next: NextFunction): void {
  const named = ['x-user-id', 'x-actor-id'].some((h) => req.headers[h] !== undefined);
  next(named ? new AppError('FORBIDDEN', MSG.feedForGatewayOnly) : undefined);
}
