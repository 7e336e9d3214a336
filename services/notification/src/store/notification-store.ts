import type { FilterQuery } from 'mongoose';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import type {
  BatchRow,
  NotificationEventRow,
  NotificationModels,
  NotificationRow,
  ParentLinkRow,
  PreferenceRow,
} from './models.js';

export type InboxFilter = 'ALL' | 'UNREAD' | 'READ' | 'SUPPORT';

/** Who and what a list shows; `userId` absent means every user (admin only, decided upstream). */
export interface InboxScope {
  userId?: string;
  organizationId?: string;
  filter: InboxFilter;
  q?: string;
}

export interface InboxPage {
  items: NotificationRow[];
  total: number;
  unreadCount: number;
}

/** Rows are written in chunks so one request never builds a single huge wire message. */
export const INSERT_CHUNK = 1000;

// A NUL byte cannot travel in a BSON regex: it is spelled \x00, which matches it.
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');

function scopeQuery(scope: Pick<InboxScope, 'userId' | 'organizationId'>): FilterQuery<NotificationRow> {
  const query: FilterQuery<NotificationRow> = {};
  if (scope.userId !== undefined) query.userId = scope.userId;
  if (scope.organizationId !== undefined) query.organizationId = scope.organizationId;
  return query;
}

const FILTERS: Record<InboxFilter, FilterQuery<NotificationRow>> = {
  ALL: {},
  UNREAD: { isRead: false },
  READ: { isRead: true },
  SUPPORT: { type: /^SUPPORT/ },
};

/** The list query: scope, filter and a literal, case-insensitive `q` over title and body. */
export function inboxQuery(scope: InboxScope): FilterQuery<NotificationRow> {
  const query: FilterQuery<NotificationRow> = { ...scopeQuery(scope), ...FILTERS[scope.filter] };
  if (scope.q) {
    const re = new RegExp(escapeRegex(scope.q), 'i');
    query.$or = [{ title: re }, { body: re }];
  }
  return query;
}

export async function listInbox(
  m: NotificationModels,
  scope: InboxScope,
  page: { skip: number; limit: number },
): Promise<InboxPage> {
  const query = inboxQuery(scope);
  const [items, total, unreadCount] = await Promise.all([
    m.Notification.find(query).sort({ createdAt: -1, _id: -1 }).skip(page.skip).limit(page.limit).lean().exec(),
    m.Notification.countDocuments(query).exec(),
    m.Notification.countDocuments({ ...scopeQuery(scope), isRead: false }).exec(),
  ]);
  return { items: items as NotificationRow[], total, unreadCount };
}

export async function findNotification(m: NotificationModels, id: string): Promise<NotificationRow | null> {
  return m.Notification.findById(id).lean<NotificationRow>().exec();
}

/** Marks read once: `readAt` keeps the first read's time. */
export async function markRead(
  m: NotificationModels,
  query: FilterQuery<NotificationRow>,
  now: Date,
): Promise<NotificationRow | null> {
  await m.Notification.updateOne({ ...query, isRead: false }, { $set: { isRead: true, readAt: now, updatedAt: now } });
  return m.Notification.findOne(query).lean<NotificationRow>().exec();
}

export async function markAllRead(m: NotificationModels, query: FilterQuery<NotificationRow>, now: Date) {
  const r = await m.Notification.updateMany(
    { ...query, isRead: false },
    { $set: { isRead: true, readAt: now, updatedAt: now } },
  );
  return r.modifiedCount;
}

export async function removeOne(m: NotificationModels, query: FilterQuery<NotificationRow>): Promise<boolean> {
  return (await m.Notification.deleteOne(query)).deletedCount === 1;
}

export async function removeAll(m: NotificationModels, query: FilterQuery<NotificationRow>): Promise<number> {
  return (await m.Notification.deleteMany(query)).deletedCount;
}

interface BulkWriteFailure {
  writeErrors?: Array<{ code?: number }> | { code?: number };
}

/**
 * Inserts complete rows in chunks, unordered: a row whose (sourceKey, userId) already exists is
 * counted as existing (a replay), any other failure is thrown.
 */
export async function insertRows(m: NotificationModels, rows: NotificationRow[]) {
  let created = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    try {
      created += (
        await m.Notification.collection.insertMany(chunk as unknown as Record<string, unknown>[], { ordered: false })
      ).insertedCount;
    } catch (err) {
      created += chunk.length - onlyDuplicates(err as BulkWriteFailure);
    }
  }
  return { created, existing: rows.length - created };
}

/**
 * The number of rows refused as duplicates; throws on any other failure. Counted from the write
 * errors, not `insertedCount`: mongo-java-server reports every attempted row as inserted.
 */
function onlyDuplicates(err: BulkWriteFailure): number {
  const errors = Array.isArray(err.writeErrors) ? err.writeErrors : err.writeErrors ? [err.writeErrors] : [];
  if (errors.length === 0 || !errors.every((e) => e.code === 11000)) throw err;
  return errors.length;
}

/** Upserts a whole row by id (backfill); true when it did not exist before. */
export async function replaceRow(m: NotificationModels, row: NotificationRow): Promise<boolean> {
  const r = await m.Notification.replaceOne({ _id: row._id }, row, { upsert: true });
  return r.upsertedCount === 1;
}

export async function findPreferences(m: NotificationModels, userIds: string[]): Promise<PreferenceRow[]> {
  return m.Preference.find({ _id: { $in: userIds } })
    .lean<PreferenceRow[]>()
    .exec();
}

export async function findPreference(m: NotificationModels, userId: string): Promise<PreferenceRow | null> {
  return m.Preference.findById(userId).lean<PreferenceRow>().exec();
}

export async function savePreference(m: NotificationModels, row: PreferenceRow): Promise<void> {
  await m.Preference.replaceOne({ _id: row._id }, row, { upsert: true });
}

/** Inserts a row keyed by its id; false when that id is already there (a replay), other errors thrown. */
async function insertOnce(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Claims a batch key with its body's digest; false when the key was claimed before. */
export async function insertBatchKey(m: NotificationModels, row: BatchRow): Promise<boolean> {
  return insertOnce(() => m.Batch.create(row));
}

/** The digest of the body first sent with a batch key, null when the key is unknown. */
export async function findBatchDigest(m: NotificationModels, key: string): Promise<string | null> {
  const row = await m.Batch.findById(key).lean<BatchRow>().exec();
  return row?.digest ?? null;
}

/** Records an event row; false when an event with its id was recorded before. */
export async function insertEventRow(m: NotificationModels, row: NotificationEventRow): Promise<boolean> {
  return insertOnce(() => m.NotificationEvent.create(row));
}

/** An event row by id, null when none. */
export async function findEventRow(m: NotificationModels, id: string): Promise<NotificationEventRow | null> {
  return m.NotificationEvent.findById(id).lean<NotificationEventRow>().exec();
}

/** Remembers the parents last resolved for a student (replacing the earlier list). */
export async function saveParentLink(m: NotificationModels, row: ParentLinkRow): Promise<void> {
  await m.ParentLink.replaceOne({ _id: row._id }, row, { upsert: true });
}

/** The parents remembered for a student, none when no alert named them yet. */
export async function parentIdsOf(m: NotificationModels, studentId: string): Promise<string[]> {
  const link = await m.ParentLink.findById(studentId).lean<ParentLinkRow>().exec();
  return link?.parentIds ?? [];
}
