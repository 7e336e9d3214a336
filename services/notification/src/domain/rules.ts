// Pure decisions of the notification service: who sees what, and whether a fan-out sends.
import { adminOrganization, type Actor } from '../../../kit/src/core/index.js';
import type { NotificationRow, PreferenceRow } from '../store/models.js';

export interface NotificationView {
  id: string;
  userId: string;
  organizationId: string | null;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toView(row: NotificationRow): NotificationView {
  return {
    id: row._id,
    userId: row.userId,
    organizationId: row.organizationId ?? null,
    type: row.type,
    title: row.title,
    body: row.body ?? '',
    data: parseData(row.data),
    isRead: row.isRead === true,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The filter of a single-row action: the row's id and whose it must be. */
export type RowScope =
  { _id: string; userId: string } | { _id: string; $or: [{ userId: string }, { organizationId: string }] };

/**
 * Whom a single-row action may touch: the rows addressed to the caller, and an organization's
 * ADMIN (the role in X-Organization-Id, not through the gateway's own-inbox routes) also that
 * organization's rows. Another organization's row is never reached: it answers as a missing one.
 */
export function ownerScope(actor: Actor & { userId: string }, id: string): RowScope {
  const org = adminOrganization(actor);
  return org === undefined
    ? { _id: id, userId: actor.userId }
    : { _id: id, $or: [{ userId: actor.userId }, { organizationId: org }] };
}

/** Pure: whether the caller may see `row` (ownerScope as a predicate). */
export function mayReach(
  actor: Actor & { userId: string },
  row: Pick<NotificationRow, 'userId' | 'organizationId'>,
): boolean {
  const org = adminOrganization(actor);
  return row.userId === actor.userId || (org !== undefined && row.organizationId === org);
}

export type SendDecision = 'SEND' | 'MUTED' | 'TYPE_DISABLED';

/**
 * A fan-out sends unless the recipient muted everything until a time still ahead, or switched
 * this type off (an empty map allows every type; only an explicit false blocks).
 */
export function sendDecision(
  pref: Pick<PreferenceRow, 'enabledTypes' | 'mutedUntil'> | undefined,
  type: string,
  now: Date,
): SendDecision {
  if (!pref) return 'SEND';
  if (pref.mutedUntil && pref.mutedUntil.getTime() > now.getTime()) return 'MUTED';
  if (pref.enabledTypes?.[type] === false) return 'TYPE_DISABLED';
  return 'SEND';
}

/** Recipients in first-seen order, each once. */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** Stored JSON text back to an object (rows written by hand or older code may hold an object). */
export function parseData(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return (raw as Record<string, unknown> | null) ?? {};
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return {};
  }
}
