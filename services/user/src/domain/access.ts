import { adminOrganization, AppError, type Actor } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import type { ProfileRow } from '../store/models.js';

/**
 * Owner, or the ADMIN of an organization the profile is a member of: no actor id is 401; anyone
 * else 403 before the profile is read (its existence is not revealed).
 */
export function assertOwnerOrAdmin(actor: Actor, userId: string): void {
  if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
  if (actor.userId !== userId && adminOrganization(actor) === undefined)
    throw new AppError('FORBIDDEN', MSG.notYourProfile);
}

/**
 * Pure, after assertOwnerOrAdmin: an admin reaches a profile only with an ACTIVE membership in the
 * organization of X-Organization-Id (the role there); any other profile is not found, as an
 * unknown id is (issue 33, 8).
 */
export function reaches(actor: Actor, row: Pick<ProfileRow, '_id' | 'memberships'>): boolean {
  if (actor.userId === row._id) return true;
  const org = adminOrganization(actor);
  return org !== undefined && row.memberships.some((m) => m.organizationId === org && m.status === 'ACTIVE');
}
