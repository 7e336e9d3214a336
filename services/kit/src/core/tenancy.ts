// Pure: whose organization an actor acts for. The role in X-User-Role is the caller's role in the
// organization of X-Organization-Id (the gateway sends the membership's role), so an ADMIN is the
// admin of that organization only, and an ADMIN on a request naming no organization is no
// organization's admin (issue 33, 8).
import type { Actor } from './actor.js';
import { AppError } from './errors.js';

/**
 * The organization whose rows the actor may reach as its admin: X-Organization-Id when the role
 * there is ADMIN and the caller does not act on its own rows only (`X-Actor-Scope: self`).
 */
export function adminOrganization(actor: Actor): string | undefined {
  if (actor.role !== 'ADMIN' || actor.scope === 'self') return undefined;
  return actor.organizationId;
}

/** ADMIN on a request that names no organization: the platform's own role (a backfill), nobody's school. */
export const isPlatformAdmin = (actor: Actor): boolean =>
  actor.role === 'ADMIN' && actor.organizationId === undefined && actor.scope !== 'self';

/**
 * The organization a user's write lands in: a user writes only inside the organization it acts in
 * (X-Organization-Id, 403 without one), and an organization named in the body must be that one
 * (403 otherwise). A call without a user (a platform service with the internal token) writes where
 * it says. Returns the organization to store, null for none.
 */
export function writeOrganization(actor: Actor, named: string | null | undefined, what: string): string | null {
  if (actor.userId === undefined) return named ?? actor.organizationId ?? null;
  if (actor.organizationId === undefined)
    throw new AppError('FORBIDDEN', `Writing ${what} needs the organization the caller acts in (X-Organization-Id)`);
  if (named !== undefined && named !== null && named !== actor.organizationId)
    throw new AppError('FORBIDDEN', `${what} may be written only into the organization of X-Organization-Id`);
  return actor.organizationId;
}
