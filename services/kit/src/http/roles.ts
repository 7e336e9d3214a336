import type { NextFunction, Request, Response } from 'express';
import { readActor, ROLES, type Role, AppError } from '../core/index.js';

/**
 * Route guard on the actor headers: no `X-User-Id`/`X-Actor-Id` is 401 UNAUTHENTICATED; a role
 * (`X-User-Role`/`X-Actor-Role`) missing or not among `roles` is 403 FORBIDDEN; a malformed header
 * is readActor's 400. Naming no role, or one the platform does not know, is a wiring bug and
 * throws when the route is declared.
 */
export function requireRole(...roles: Role[]) {
  if (roles.length === 0) throw new Error('requireRole needs at least one role');
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) throw new Error(`requireRole: unknown role ${unknown.join(', ')}`);
  const allowed = new Set<string>(roles);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const actor = readActor(req);
    if (actor.userId === undefined) {
      next(new AppError('UNAUTHENTICATED', 'Actor headers are required'));
      return;
    }
    if (actor.role === undefined || !allowed.has(actor.role)) {
      next(new AppError('FORBIDDEN', `This action requires role ${roles.join(' or ')}`));
      return;
    }
    next();
  };
}
