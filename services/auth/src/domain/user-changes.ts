import { AppError } from '../../../kit/src/core/index.js';
import { USER_CHANGED_TOPIC, userChanged } from '../events.js';
import { MSG } from '../messages.js';
import { inOutboxTransaction, type StoreTx } from '../store/transactions.js';
import { findMemberships, findUserById, updateUserVersion } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { toUserView, type UserView } from './views.js';

/** A change to a user: fields of the user row, and writes beside it (its memberships). */
export interface UserChange {
  set?: { status?: string };
  write?: (tx: StoreTx) => Promise<void>;
}

const ATTEMPTS = 5;

class StaleUser extends Error {}

/**
 * Applies a change and announces the user's new snapshot (identity.user-changed.v1, UPDATED)
 * through the outbox, the stamp inside the user update. The update is conditional on the version
 * read, so the snapshot always states what was written last; a concurrent change means a fresh
 * read and another try. `updatedAt` strictly grows, so every change has its own event id.
 */
export async function applyUserChange(deps: AuthDeps, userId: string, change: UserChange): Promise<UserView> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const view = await tryChange(deps, userId, change);
    if (view) return view;
  }
  throw new AppError('CONFLICT', MSG.userChangedConcurrently);
}

async function tryChange(deps: AuthDeps, userId: string, change: UserChange): Promise<UserView | null> {
  const m = deps.models;
  const user = await findUserById(m, userId);
  if (!user) throw new AppError('USER_NOT_FOUND', MSG.userNotFound);
  const now = deps.clock();
  const seen = new Date(user.updatedAt);
  const next = new Date(Math.max(now.getTime(), seen.getTime() + 1));
  try {
    return await inOutboxTransaction(deps.outbox, async (unit, tx) => {
      await change.write?.(tx);
      const memberships = await findMemberships(m, userId, tx);
      const updated = { ...user, ...change.set, updatedAt: next };
      const event = userChanged('UPDATED', { user: updated, memberships }, now);
      const stamp = unit.enqueue({ topic: USER_CHANGED_TOPIC, event, owner: m.User, ownerId: userId });
      const written = await updateUserVersion(
        m,
        { id: userId, seen, next },
        { set: change.set ?? {}, stamp: stamp.update },
        tx,
      );
      if (!written) throw new StaleUser();
      return toUserView(updated, memberships);
    });
  } catch (err) {
    if (err instanceof StaleUser) return null;
    throw err;
  }
}
