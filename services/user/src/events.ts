import { TOPICS } from '../../../kafka/topics.js';
import { AppError } from '../../kit/src/core/index.js';
import { PoisonMessageError, type EventHandler } from '../../kit/src/bus/index.js';
import { applySpellings } from '../../kit/src/http/index.js';
import type { UserDeps } from './domain/deps.js';
import { upsertSnapshot, type SnapshotInput } from './domain/snapshot.js';
import { SNAPSHOT_SPELLINGS, userChangedData } from './schemas.js';

export const USER_CHANGED_TOPIC = TOPICS.identityUserChanged;

interface UserChangedData {
  userId: string;
  user: SnapshotInput;
}

/**
 * identity.user-changed.v1 → the profile snapshot, by the same rules as the HTTP upsert. What can
 * never apply (a malformed snapshot, an e-mail or phone another profile holds) goes straight to
 * the dead-letter topic instead of blocking the partition through its retries.
 */
export function userChangedHandler(deps: UserDeps): EventHandler {
  return async (event) => {
    // The user snapshot inside is read as the HTTP one is: its id may be spelled userId too.
    const data0 = event.data as { user?: unknown } | null;
    const spelled = applySpellings(data0?.user, SNAPSHOT_SPELLINGS);
    if (spelled.conflicts.length > 0) throw new PoisonMessageError(`invalid ${event.type} data: user.userId differs`);
    const given = spelled.value === undefined ? data0 : { ...data0, user: spelled.value };
    const { value, error } = userChangedData.validate(given, { abortEarly: false, convert: true });
    if (error) throw new PoisonMessageError(`invalid ${event.type} data: ${error.message}`);
    const data = value as UserChangedData;
    if (data.user.id !== undefined && data.user.id !== data.userId)
      throw new PoisonMessageError('data.user.id differs from data.userId');
    try {
      const result = await upsertSnapshot(deps, data.userId, data.user);
      deps.logger.debug({ userId: data.userId, eventId: event.id, applied: result.applied }, 'user snapshot event');
    } catch (err) {
      if (err instanceof AppError && err.code !== 'PROFILE_CONFLICT') throw new PoisonMessageError(err.message);
      throw err;
    }
  };
}
