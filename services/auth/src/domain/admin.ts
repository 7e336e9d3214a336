import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import { findMembership, findUserById } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';

/**
 * Who may administer: an actor whose headers say ADMIN in an organization (X-User-Role,
 * X-Organization-Id, as the gateway sets them from the token's membership), checked again here
 * against auth's own records: the actor is an ACTIVE user holding an ACTIVE ADMIN membership in
 * that organization. A forged role header alone is never enough.
 */
async function assertAdminOf(deps: AuthDeps, actor: Actor, allowed: string[], refusal: string): Promise<void> {
  if (!actor.userId) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
  const org = actor.organizationId;
  if (actor.role !== 'ADMIN' || !org || !allowed.includes(org)) throw new AppError('FORBIDDEN', refusal);
  const [user, membership] = await Promise.all([
    findUserById(deps.models, actor.userId),
    findMembership(deps.models, actor.userId, org),
  ]);
  const holds = user?.status === 'ACTIVE' && membership?.status === 'ACTIVE' && membership.role === 'ADMIN';
  if (!holds) throw new AppError('FORBIDDEN', refusal);
}

/** An ADMIN of the organization itself, or a platform admin. */
export function assertOrganizationAdmin(deps: AuthDeps, actor: Actor, organizationId: string): Promise<void> {
  const allowed = [organizationId, deps.settings.platformOrganizationId];
  return assertAdminOf(deps, actor, allowed, MSG.notOrganizationAdmin);
}

/** An ADMIN of the platform organization (AUTH_PLATFORM_ORGANIZATION_ID). */
export function assertPlatformAdmin(deps: AuthDeps, actor: Actor): Promise<void> {
  return assertAdminOf(deps, actor, [deps.settings.platformOrganizationId], MSG.notPlatformAdmin);
}
