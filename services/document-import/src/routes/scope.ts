import type { NextFunction, Request, Response } from 'express';
import { AppError, readActor } from '../../../kit/src/core/index.js';
import { IMPORT_ROLES, type ImportRole, type Scope } from '../domain/scope.js';
import { CODES, MSG } from '../messages.js';

const isImportRole = (role: string | undefined): role is ImportRole =>
  (IMPORT_ROLES as readonly string[]).includes(role ?? '');

/**
 * The actor headers every import route requires, checked in this order: 401 without X-User-Id,
 * 403 unless X-User-Role is TEACHER or ADMIN (a STUDENT, a PARENT and a role-less actor alike),
 * 400 without X-Organization-Id.
 */
export function scopeOf(req: Request): Scope {
  const actor = readActor(req);
  if (!actor.userId) throw new AppError(CODES.unauthenticated, MSG.userRequired);
  if (!isImportRole(actor.role)) {
    throw new AppError(CODES.forbidden, MSG.roleRequired, { details: { allowedRoles: [...IMPORT_ROLES] } });
  }
  if (!actor.organizationId) {
    throw new AppError(CODES.validation, MSG.organizationRequired, {
      details: [{ path: 'X-Organization-Id', message: 'is required' }],
    });
  }
  return { organizationId: actor.organizationId, userId: actor.userId, role: actor.role };
}

/**
 * Checks the scope headers before anything is read or stored: an upload without them (or by a role
 * the import routes do not admit) is refused
 * before its first byte is spooled (and the connection closed, so the unread body is not drained).
 */
export function requireScope(req: Request, res: Response, next: NextFunction): void {
  try {
    res.locals.scope = scopeOf(req);
    next();
  } catch (err) {
    if (req.headers['content-length'] !== '0' && !req.complete) res.setHeader('Connection', 'close');
    next(err);
  }
}

export function scope(res: Response): Scope {
  return res.locals.scope as Scope;
}
