import { AppError, type Actor } from '../../../../kit/src/core/index.js';
import { readTenant } from '../tenancy.js';

export interface ReadScope {
  /** null: no organization named (the global scope); ignored when allOrgs. */
  organizationId: string | null;
  allOrgs: boolean;
  userId: string | null;
  isAdmin: boolean;
}

export interface WriteScope {
  organizationId: string;
  userId: string;
  isAdmin: boolean;
}

/** The organization of X-Organization-Id (the query may only restate it); `allOrgs` as in tenancy.ts. */
export function readScope(actor: Actor, query: { organizationId?: string; allOrgs?: boolean }): ReadScope {
  const tenant = readTenant(actor, query);
  return {
    organizationId: tenant.organizationId,
    allOrgs: tenant.allOrgs,
    userId: actor.userId ?? null,
    isAdmin: actor.role === 'ADMIN',
  };
}

/** Writes need the three scope headers with ADMIN or TEACHER (requireRole checked user and role). */
export function writeScope(actor: Actor): WriteScope {
  if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', 'Actor headers are required');
  if (actor.role !== 'ADMIN' && actor.role !== 'TEACHER') {
    throw new AppError('FORBIDDEN', 'This action requires role ADMIN or TEACHER');
  }
  if (actor.organizationId === undefined) {
    throw new AppError('VALIDATION_ERROR', 'X-Organization-Id header is required', {
      details: [{ path: 'X-Organization-Id', message: 'is required for writes' }],
    });
  }
  return { organizationId: actor.organizationId, userId: actor.userId, isAdmin: actor.role === 'ADMIN' };
}

/** Folds case and Vietnamese diacritics: `Phương trình` and `phuong trinh` compare equal. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .toLowerCase();
}

/** A user's `q` as a literal pattern: a hostile regular expression is only text. */
export function literalPattern(q: string): RegExp {
  // BSON cannot carry a NUL inside a pattern; the escape \x00 means the same character.
  const source = q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
  return new RegExp(source, 'i');
}
