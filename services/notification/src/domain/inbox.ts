// The inbox use cases: callers reach the rows addressed to them (X-Organization-Id does not filter
// the own inbox); an organization's ADMIN (the role in X-Organization-Id) also reaches that
// organization's rows by id and may list one user's or everyone's rows there, never another's.
import { adminOrganization, AppError, type Actor, type PageParams } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import * as store from '../store/notification-store.js';
import type { NotificationDeps } from './deps.js';
import { mayReach, ownerScope, toView, type NotificationView } from './rules.js';

export type Caller = Actor & { userId: string };

export interface InboxQuery {
  userId?: string;
  organizationId?: string;
  filter: store.InboxFilter;
  q?: string;
}

export interface InboxResult {
  items: NotificationView[];
  total: number;
  unreadCount: number;
}

export function requireCaller(actor: Actor): Caller {
  if (actor.userId === undefined) throw new AppError('UNAUTHENTICATED', MSG.actorRequired);
  return actor as Caller;
}

function listScope(caller: Caller, query: InboxQuery): store.InboxScope {
  const org = adminOrganization(caller);
  const own = query.userId === undefined || query.userId === caller.userId;
  if (org === undefined || (own && query.userId !== undefined)) {
    if (!own) throw new AppError('FORBIDDEN', MSG.otherUser);
    return { ...query, userId: caller.userId };
  }
  // An admin's list of others: inside its organization only.
  if (query.organizationId !== undefined && query.organizationId !== org)
    throw new AppError('FORBIDDEN', MSG.otherOrganization);
  return { ...query, organizationId: org };
}

export async function listNotifications(
  deps: NotificationDeps,
  caller: Caller,
  query: InboxQuery,
  page: PageParams,
): Promise<InboxResult> {
  const r = await store.listInbox(deps.models, listScope(caller, query), page);
  return { items: r.items.map(toView), total: r.total, unreadCount: r.unreadCount };
}

/** The caller's own rows only, whatever the role (parent alerts). */
export async function listOwn(deps: NotificationDeps, caller: Caller, query: InboxQuery, page: PageParams) {
  const r = await store.listInbox(deps.models, { ...query, userId: caller.userId }, page);
  return { items: r.items.map(toView), total: r.total, unreadCount: r.unreadCount };
}

function notFound(id: string): AppError {
  return new AppError(CODES.notFound, MSG.notFound, { details: { notificationId: id } });
}

export async function getNotification(deps: NotificationDeps, caller: Caller, id: string): Promise<NotificationView> {
  const row = await store.findNotification(deps.models, id);
  // Another user's row answers like a missing one, so ids cannot be probed.
  if (!row || !mayReach(caller, row)) throw notFound(id);
  return toView(row);
}

export async function readNotification(
  deps: NotificationDeps,
  caller: Caller,
  id: string,
  ownOnly = false,
): Promise<NotificationView> {
  const scope = ownOnly ? { _id: id, userId: caller.userId } : ownerScope(caller, id);
  const row = await store.markRead(deps.models, scope, deps.clock());
  if (!row) throw notFound(id);
  return toView(row);
}

export async function deleteNotification(deps: NotificationDeps, caller: Caller, id: string) {
  if (!(await store.removeOne(deps.models, ownerScope(caller, id)))) throw notFound(id);
  return { id, deleted: true };
}

/** The caller's own rows, an admin's included: read-all is never a global operation. */
export async function readAll(deps: NotificationDeps, caller: Caller) {
  return { updated: await store.markAllRead(deps.models, { userId: caller.userId }, deps.clock()) };
}

export async function deleteAll(deps: NotificationDeps, caller: Caller) {
  return { deleted: await store.removeAll(deps.models, { userId: caller.userId }) };
}
