import { EVENT_TYPES, TOPICS } from '../../../kafka/topics.js';
import { buildEvent, type PlatformEvent } from '../../kit/src/bus/index.js';
import type { MembershipRow, UserRow } from './store/models.js';
import { toUserView, type UserView } from './domain/views.js';

export const USER_CHANGED_TOPIC = TOPICS.identityUserChanged;

export interface UserChangedData {
  userId: string;
  change: 'CREATED' | 'UPDATED';
  user: UserView & { phone: string | null };
}

/**
 * The whole public snapshot (the topic is compacted, so the last event per user is enough). The id
 * is the user and its updatedAt: the same change always has the same id, so consumers skip replays.
 */
export function userChanged(
  change: UserChangedData['change'],
  identity: { user: UserRow; memberships: MembershipRow[] },
  now: Date,
): PlatformEvent<UserChangedData> {
  const { user, memberships } = identity;
  const data: UserChangedData = {
    userId: user._id,
    change,
    user: { ...toUserView(user, memberships), phone: user.phone ?? null },
  };
  const id = `${user._id}:${new Date(user.updatedAt).getTime()}`;
  return buildEvent({ source: 'auth', type: EVENT_TYPES.identityUserChanged, subject: user._id, data }, now, id);
}
