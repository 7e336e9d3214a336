// Writes by peer services: one notification, a backfill snapshot, a batch fan-out, an event with
// its notifications. Callers are services (no actor) or staff; a STUDENT or PARENT actor is refused.
import { createHash } from 'node:crypto';
import { AppError, writeOrganization, type Actor } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import type { NotificationEventRow, NotificationRow } from '../store/models.js';
import {
  findBatchDigest,
  findEventRow,
  findNotification,
  insertBatchKey,
  insertEventRow,
  insertRows,
  replaceRow,
} from '../store/notification-store.js';
import type { NotificationDeps } from './deps.js';
import { buildRow, fanOut, fanOutEach, type FanOutResult, type NotificationContent } from './fanout.js';
import { parseData, toView, type NotificationView } from './rules.js';

export function assertWriter(actor: Actor): void {
  if (actor.role === 'STUDENT' || actor.role === 'PARENT') throw new AppError('FORBIDDEN', MSG.internalOnly);
}

/**
 * A writer and the organization its rows land in: a user (ADMIN or TEACHER there) writes only
 * into the organization it acts in (kit writeOrganization); a peer service where it says.
 */
export function writerOrganization(actor: Actor, named: string | null | undefined): string | null {
  assertWriter(actor);
  return writeOrganization(actor, named, 'Notifications');
}

export type CreateInput = NotificationContent & { userId: string };

/** A direct create for one chosen recipient: not a fan-out, so preferences do not apply. */
export async function createNotification(deps: NotificationDeps, actor: Actor, input: CreateInput) {
  const content = { ...input, organizationId: writerOrganization(actor, input.organizationId) };
  const row = buildRow(deps, input.userId, content, { sourceKey: '', createdBy: actor.userId ?? null });
  row.sourceKey = `direct:${row._id}`;
  await insertRows(deps.models, [row]);
  return toView(row);
}

/** A snapshot's organization (writerOrganization); a user's never replaces another organization's row (404, as unknown). */
async function snapshotOrganization(
  deps: NotificationDeps,
  actor: Actor,
  id: string,
  named: string | null | undefined,
): Promise<string | null> {
  const organizationId = writerOrganization(actor, named);
  if (actor.userId === undefined) return organizationId;
  const existing = await findNotification(deps.models, id);
  if (existing && existing.organizationId !== organizationId) {
    throw new AppError(CODES.notFound, MSG.notFound, { details: { notificationId: id } });
  }
  return organizationId;
}

export type SnapshotInput = CreateInput & {
  id?: string;
  isRead?: boolean;
  readAt?: Date | null;
  createdAt?: Date;
  updatedAt?: Date;
};

export async function upsertSnapshot(deps: NotificationDeps, actor: Actor, id: string, input: SnapshotInput) {
  if (input.id !== undefined && input.id !== id) {
    throw new AppError('VALIDATION_ERROR', MSG.snapshotIdMismatch, {
      details: [{ path: 'id', message: MSG.snapshotIdMismatch }],
    });
  }
  input = { ...input, organizationId: await snapshotOrganization(deps, actor, id, input.organizationId) };
  const now = deps.clock();
  const isRead = input.isRead ?? Boolean(input.readAt);
  const row: NotificationRow = {
    ...buildRow(deps, input.userId, input, { sourceKey: `snapshot:${id}`, createdBy: actor.userId ?? null }),
    _id: id,
    isRead,
    readAt: isRead ? (input.readAt ?? input.updatedAt ?? now) : null,
    createdAt: input.createdAt ?? now,
    updatedAt: input.updatedAt ?? now,
  };
  const created = await replaceRow(deps.models, row);
  return { created, notification: toView(row) };
}

export type BatchInput = NotificationContent & { recipientIds: string[]; batchKey?: string };

export interface BatchResult extends FanOutResult {
  batchKey: string | null;
}

/** Canonical JSON (sorted keys) so the same body always has the same digest. */
function digestOf(value: unknown): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, canon(x)]),
        )
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(value)))
    .digest('hex');
}

/** Claims the key for this body; the same key with another body is a 409. */
async function claimBatchKey(deps: NotificationDeps, key: string, input: BatchInput): Promise<void> {
  const digest = digestOf(input);
  if (await insertBatchKey(deps.models, { _id: key, digest, createdAt: deps.clock() })) return;
  const first = await findBatchDigest(deps.models, key);
  if (first !== null && first !== digest) throw new AppError(CODES.batchKeyReused, MSG.batchKeyReused);
}

/**
 * With a batchKey a replay (after a timeout, say) creates only what the first run did not: rows
 * are keyed by (batch key, recipient). Without one, every request is a new fan-out.
 */
export async function createBatch(deps: NotificationDeps, actor: Actor, input: BatchInput): Promise<BatchResult> {
  const organizationId = writerOrganization(actor, input.organizationId);
  if (input.batchKey !== undefined) await claimBatchKey(deps, input.batchKey, input);
  const { recipientIds, batchKey, ...content } = input;
  content.organizationId = organizationId;
  const sourceKey = `batch:${batchKey ?? deps.newId()}`;
  const result = await fanOut(deps, recipientIds, content, { sourceKey, createdBy: actor.userId ?? null });
  return { batchKey: batchKey ?? null, ...result };
}

export interface EventInput {
  event: Omit<NotificationEventRow, '_id' | 'createdAt' | 'notificationCount' | 'data'> & {
    id?: string;
    data?: Record<string, unknown>;
  };
  notifications?: CreateInput[];
}

export interface EventView {
  id: string;
  type: string;
  actorId: string | null;
  targetUserId: string | null;
  entity: string;
  entityId: string;
  organizationId: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

function eventView(row: NotificationEventRow): EventView {
  const { _id, notificationCount: _n, createdAt, data, ...rest } = row;
  return { id: _id, ...rest, data: parseData(data), createdAt: createdAt.toISOString() };
}

const NO_NOTIFICATIONS: FanOutResult = { requested: 0, created: 0, existing: 0, muted: 0, typeDisabled: 0 };

/**
 * Records the event and creates its notifications. With a caller-given event id a replay finds
 * the recorded event (the first body wins) and creates nothing new.
 */
export async function recordEvent(deps: NotificationDeps, actor: Actor, input: EventInput) {
  const row = eventRow(deps, actor, input);
  row.organizationId = writerOrganization(actor, input.event.organizationId);
  const items = (input.notifications ?? []).map((n) => ({
    ...n,
    organizationId: writerOrganization(actor, n.organizationId ?? row.organizationId),
  }));
  const created = await insertEventRow(deps.models, row);
  const stored = created ? row : ((await findEventRow(deps.models, row._id)) ?? row);
  // Another organization's event id is never answered nor fanned out again under it.
  if (stored.organizationId !== row.organizationId) throw new AppError(CODES.batchKeyReused, MSG.eventIdReused);
  const source = { sourceKey: `event:${row._id}`, createdBy: row.actorId };
  const notifications = items.length ? await fanOutEach(deps, items, source) : NO_NOTIFICATIONS;
  return { created, event: eventView(stored), notifications };
}

function eventRow(deps: NotificationDeps, actor: Actor, input: EventInput): NotificationEventRow {
  const { id, ...fields } = input.event;
  return {
    _id: id ?? deps.newId(),
    ...fields,
    actorId: fields.actorId ?? actor.userId ?? null,
    targetUserId: fields.targetUserId ?? null,
    organizationId: fields.organizationId ?? actor.organizationId ?? null,
    data: JSON.stringify(fields.data ?? {}),
    notificationCount: input.notifications?.length ?? 0,
    createdAt: deps.clock(),
  };
}

export type { NotificationView };
