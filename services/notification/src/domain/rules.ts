// Pure decisions of the notification service: who sees what, and whether a fan-out sends.
import type { Actor } from '../../../kit/src/core/index.js';
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

/** An ADMIN acting as an admin: not through the gateway's own-inbox routes (`X-Actor-Scope: self`). */
export const isAdmin = (actor: Actor) => actor.role === 'ADMIN' && actor.scope !== 'self';

/** Whom a single-row action may touch: an admin any row, anyone else only rows addressed to them. */
export function ownerScope(actor: Actor & { userId: string }, id: string): { _id: string; userId?: string } {
  return isAdmin(actor) ? { _id: id } : { _id: id, userId: actor.userId };
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
