// Pure: the tenancy rules every route of this service shares. The role in X-User-Role is the
// caller's role in the organization of X-Organization-Id (the gateway sends the membership's role),
// so an organization's ADMIN is an ADMIN of that organization only. A request naming no
// organization carries the platform role: only that ADMIN may look across organizations.
import { AppError, type Actor } from '../../../kit/src/core/index.js';

export const TENANCY_MSG = {
  allOrgsPlatformAdmin: 'allOrgs=1 is allowed only for ADMIN without X-Organization-Id (the platform role)',
  organizationMismatch: 'organizationId does not match X-Organization-Id',
  organizationWithoutHeader: 'organizationId needs X-Organization-Id of that organization',
  foreignId: 'The id belongs to another organization',
} as const;

/** ADMIN on a request that names no organization: the platform's role, not an organization's. */
export const isPlatformAdmin = (actor: Actor): boolean => actor.role === 'ADMIN' && actor.organizationId === undefined;

export interface TenantQuery {
  organizationId?: string;
  allOrgs?: boolean | string;
}

const truthy = (v: boolean | string | undefined) => v === true || v === '1' || v === 'true';

/**
 * The organization a read may see. `allOrgs=1` only for the platform ADMIN (403 otherwise, an
 * organization's ADMIN included). The `organizationId` query may restate X-Organization-Id; naming
 * another organization, or naming one without the header, is 403 (except for the platform ADMIN).
 * Without either, the read sees the global scope (rows without an organization) only.
 */
export function readTenant(actor: Actor, query: TenantQuery): { organizationId: string | null; allOrgs: boolean } {
  const allOrgs = truthy(query.allOrgs);
  if (allOrgs && !isPlatformAdmin(actor)) throw new AppError('FORBIDDEN', TENANCY_MSG.allOrgsPlatformAdmin);
  const named = query.organizationId;
  if (named !== undefined) assertMayName(actor, named);
  return { organizationId: actor.organizationId ?? named ?? null, allOrgs };
}

function assertMayName(actor: Actor, named: string): void {
  if (actor.organizationId !== undefined && named !== actor.organizationId)
    throw new AppError('FORBIDDEN', TENANCY_MSG.organizationMismatch);
  if (actor.organizationId === undefined && !isPlatformAdmin(actor))
    throw new AppError('FORBIDDEN', TENANCY_MSG.organizationWithoutHeader);
}

/** A referenced row is usable by `organizationId` when it is that organization's (or global, if allowed). */
export function sameTenant(
  row: { organizationId: string | null } | null | undefined,
  organizationId: string | null | undefined,
  allowGlobal = false,
): boolean {
  if (!row) return false;
  if (row.organizationId === null) return allowGlobal;
  return row.organizationId === (organizationId ?? null);
}
