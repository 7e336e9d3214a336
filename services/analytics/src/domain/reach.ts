import { AppError, type Actor } from '../../../kit/src/core/index.js';

/**
 * How far a read reaches. A call without a user (a platform service holding the internal token)
 * reads what it names; a user reads inside an organization only (403 without X-Organization-Id):
 * everything there as TEACHER or ADMIN (the role within that organization, as the gateway sends
 * it), otherwise only what is its own.
 */
export function readerReach(actor: Actor, what: string): 'organization' | 'own' {
  if (actor.userId === undefined) return 'organization';
  if (!actor.organizationId)
    throw new AppError('FORBIDDEN', `Reading ${what} needs an organization (X-Organization-Id)`);
  return actor.role === 'TEACHER' || actor.role === 'ADMIN' ? 'organization' : 'own';
}

/** The filter narrowed to the actor's organization when it names one. */
export function inOrganization<Q extends object>(actor: Actor, q: Q): Q & { organizationId?: string } {
  return actor.organizationId ? { ...q, organizationId: actor.organizationId } : q;
}
