import { Schema, type Connection, type Model } from 'mongoose';
import { processedEventModel, type ProcessedEventRow } from '../../../kit/src/data/index.js';

/**
 * One in-app notification. `sourceKey` names what produced it (`event:<id>`, `batch:<key>`,
 * `alert:<key>`, or the row's own id when nothing did): the unique (sourceKey, userId) index is
 * what makes a redelivered event or a replayed batch create nothing new.
 */
export interface NotificationRow {
  _id: string;
  userId: string;
  organizationId: string | null;
  type: string;
  title: string;
  body: string;
  /** JSON text: callers' keys may hold `$` or `.`, which a document field may not. */
  data: string;
  isRead: boolean;
  readAt: Date | null;
  sourceKey: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PreferenceRow {
  _id: string;
  enabledTypes: Record<string, boolean>;
  mutedUntil: Date | null;
  updatedAt: Date;
}

export interface NotificationEventRow {
  _id: string;
  type: string;
  actorId: string | null;
  targetUserId: string | null;
  entity: string;
  entityId: string;
  organizationId: string | null;
  /** JSON text, as on a notification. */
  data: string;
  notificationCount: number;
  createdAt: Date;
}

/** A batch key and the digest of the body first sent with it (a reuse with other content is 409). */
export interface BatchRow {
  _id: string;
  digest: string;
  createdAt: Date;
}

/** The parents a caller last resolved for a student (POST /v1/alerts/weak-topic); ids only. */
export interface ParentLinkRow {
  _id: string;
  parentIds: string[];
  updatedAt: Date;
}

const notificationSchema = new Schema<NotificationRow>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    organizationId: { type: String, default: null },
    type: { type: String, required: true },
    title: { type: String, required: true },
    body: { type: String, default: '' },
    data: { type: String, default: '{}' },
    isRead: { type: Boolean, default: false },
    readAt: { type: Date, default: null },
    sourceKey: { type: String, required: true },
    createdBy: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'notifications', versionKey: false, minimize: false },
);
notificationSchema.index({ sourceKey: 1, userId: 1 }, { unique: true });
// The inbox (newest first), its unread count, and the admin's all-users list.
notificationSchema.index({ userId: 1, createdAt: -1, _id: -1 });
notificationSchema.index({ userId: 1, isRead: 1 });
notificationSchema.index({ createdAt: -1, _id: -1 });

const preferenceSchema = new Schema<PreferenceRow>(
  {
    _id: { type: String, required: true },
    enabledTypes: { type: Schema.Types.Mixed, default: {} },
    mutedUntil: { type: Date, default: null },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'notification_preferences', versionKey: false, minimize: false },
);

const eventSchema = new Schema<NotificationEventRow>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    actorId: { type: String, default: null },
    targetUserId: { type: String, default: null },
    entity: { type: String, required: true },
    entityId: { type: String, required: true },
    organizationId: { type: String, default: null },
    data: { type: String, default: '{}' },
    notificationCount: { type: Number, default: 0 },
    createdAt: { type: Date, required: true },
  },
  { collection: 'notification_events', versionKey: false, minimize: false },
);

const batchSchema = new Schema<BatchRow>(
  {
    _id: { type: String, required: true },
    digest: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'notification_batches', versionKey: false },
);

const parentLinkSchema = new Schema<ParentLinkRow>(
  {
    _id: { type: String, required: true },
    parentIds: { type: [String], default: [] },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'parent_links', versionKey: false },
);

export interface NotificationModels {
  Notification: Model<NotificationRow>;
  Preference: Model<PreferenceRow>;
  NotificationEvent: Model<NotificationEventRow>;
  Batch: Model<BatchRow>;
  ParentLink: Model<ParentLinkRow>;
  ProcessedEvent: Model<ProcessedEventRow>;
}

function modelOf<T>(conn: Connection, name: string, schema: Schema<T>): Model<T> {
  return (conn.models[name] as Model<T> | undefined) ?? conn.model<T>(name, schema);
}

export function notificationModels(conn: Connection): NotificationModels {
  return {
    Notification: modelOf(conn, 'Notification', notificationSchema),
    Preference: modelOf(conn, 'Preference', preferenceSchema),
    NotificationEvent: modelOf(conn, 'NotificationEvent', eventSchema),
    Batch: modelOf(conn, 'Batch', batchSchema),
    ParentLink: modelOf(conn, 'ParentLink', parentLinkSchema),
    ProcessedEvent: processedEventModel(conn),
  };
}
