import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';

/** Owner or ADMIN: no actor id is 401, anyone else 403 (the profile's existence is not revealed). */
export function assertOwnerOrAdmin(actor: Actor, userId: string): void {
  if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
  if (actor.role !== 'ADMIN' && actor.userId !== userId) throw new AppError('FORBIDDEN', MSG.notYourProfile);
}
