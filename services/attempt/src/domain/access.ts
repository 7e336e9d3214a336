import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';

interface Owned {
  studentId: string;
  organizationId: string;
}

/**
 * Reads: the owning student, or a teacher or admin (of the attempt's organization when the actor
 * names one). Anyone else gets the same 404 as a missing attempt, so ids cannot be probed.
 */
export function canRead(actor: Actor, doc: Owned): boolean {
  if (actor.role === 'STUDENT') return actor.userId === doc.studentId;
  if (actor.role === 'TEACHER' || actor.role === 'ADMIN') {
    return actor.organizationId === undefined || actor.organizationId === doc.organizationId;
  }
  return false;
}

export function assertReadable<T extends Owned>(actor: Actor, doc: T | null): T {
  if (!doc || !canRead(actor, doc)) throw new AppError(CODES.notFound, MSG.notFound);
  return doc;
}

/** Writes (answers, submit, client events): the owning STUDENT only; requireRole already ran. */
export function assertOwner<T extends Owned>(actor: Actor, doc: T | null): T {
  if (!doc || actor.role !== 'STUDENT' || actor.userId !== doc.studentId) {
    throw new AppError(CODES.notFound, MSG.notFound);
  }
  return doc;
}
