import { AppError, type Actor } from '../../../../kit/src/core/index.js';
import { CODES, MSG } from '../../messages.js';
import { readTenant } from '../tenancy.js';
import type { QuestionRow } from '../../store/question-models.js';

/** Who may see what: `organizationId` undefined means every organization (ADMIN with allOrgs=1). */
export interface ReadScope {
  organizationId?: string | null;
  ownerId?: string;
}

export interface ScopeQuery {
  organizationId?: string;
  allOrgs?: string;
}

// Non-admins are owner-scoped when X-User-Id is present (the contract).
const ownerScope = (actor: Actor): ReadScope =>
  actor.role !== 'ADMIN' && actor.userId ? { ownerId: actor.userId } : {};

/**
 * Pure: the read scope of an actor and the list/detail query (see tenancy.ts: `allOrgs=1` only
 * for the platform ADMIN, the `organizationId` query only as the header's organization).
 */
export function readScope(actor: Actor, query: ScopeQuery): ReadScope {
  const tenant = readTenant(actor, query);
  const owner = ownerScope(actor);
  if (tenant.allOrgs) return owner;
  return { organizationId: tenant.organizationId, ...owner };
}

/** Pure: the scope filter of a question query. */
export function scopeFilter(scope: ReadScope): Record<string, unknown> {
  const filter: Record<string, unknown> = { removedAt: null };
  if (scope.organizationId !== undefined) filter.organizationId = scope.organizationId;
  if (scope.ownerId !== undefined) filter.createdById = scope.ownerId;
  return filter;
}

/** A writer: requireRole already ran; writes never cross organizations. */
export interface Writer {
  userId: string;
  role: 'ADMIN' | 'TEACHER';
  organizationId: string;
}

export function writerOf(actor: Actor): Writer {
  if (!actor.organizationId) {
    throw new AppError(CODES.validation, MSG.organizationRequired, {
      details: [{ path: 'X-Organization-Id', message: 'is required' }],
    });
  }
  return { userId: actor.userId!, role: actor.role as Writer['role'], organizationId: actor.organizationId };
}

/** The filter of rows a writer may change: its organization, and its own rows unless ADMIN. */
export function writeFilter(w: Writer): Record<string, unknown> {
  const filter: Record<string, unknown> = { removedAt: null, organizationId: w.organizationId };
  if (w.role !== 'ADMIN') filter.createdById = w.userId;
  return filter;
}

export function notFound(id: string): AppError {
  return new AppError(CODES.questionNotFound, MSG.questionNotFound, { details: { id } });
}

export function canWrite(w: Writer, row: Pick<QuestionRow, 'organizationId' | 'createdById'>): boolean {
  return row.organizationId === w.organizationId && (w.role === 'ADMIN' || row.createdById === w.userId);
}
