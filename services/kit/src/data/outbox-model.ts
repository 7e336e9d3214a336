import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An event waiting inside its owner document (the `_outbox` array), written by the same
 * single-document update as the change it announces. `v` is the exact envelope that will be sent.
 */
export interface OutboxStampRow {
  /** The unit of work (one `outbox.transaction` call) that wrote it: coalescing is per unit and key. */
  u: string;
  /** The event id (the envelope's `id`). */
  id: string;
  topic: string;
  key: string;
  /** The serialized envelope, published byte for byte. */
  v: string;
  at: Date;
}

export type OutboxStatus = 'pending' | 'published' | 'dead';

/** One outbox entry: an event that left its owner document and waits for, or went to, Kafka. */
export interface OutboxEntryRow {
  /** The event id: a unique index makes moving the same stamp twice a no-op. */
  _id: string;
  topic: string;
  key: string;
  /** Creation order over the whole outbox; per key it is the order of the owner writes. */
  seq: number;
  envelope: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date;
  lease: string | null;
  leaseUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  publishedAt: Date | null;
}

export interface OutboxModels {
  /** Unfinished entries only (pending or dead), so every relay query stays as small as the backlog. */
  Entry: Model<OutboxEntryRow>;
  /** The published log: entries marked published move here, kept for `retentionMs`. */
  Published: Model<OutboxEntryRow>;
  Counter: Model<{ _id: string; value: number }>;
}

const entrySchema = new Schema<OutboxEntryRow>(
  {
    _id: { type: String, required: true },
    topic: { type: String, required: true },
    key: { type: String, required: true },
    seq: { type: Number, required: true },
    envelope: { type: String, required: true },
    status: { type: String, required: true, enum: ['pending', 'published', 'dead'] },
    attempts: { type: Number, required: true, default: 0 },
    nextAttemptAt: { type: Date, required: true },
    lease: { type: String, default: null },
    leaseUntil: { type: Date, default: null },
    lastError: { type: String, default: null },
    createdAt: { type: Date, required: true },
    publishedAt: { type: Date, default: null },
  },
  { collection: 'outbox', versionKey: false },
);
const publishedSchema = entrySchema.clone();
publishedSchema.set('collection', 'outbox_published');
// The relay's window: unfinished entries in creation order.
entrySchema.index({ status: 1, seq: 1 });
entrySchema.index({ key: 1, seq: 1 });
// A server with TTL support prunes the published log itself; the relay prunes where TTL is ignored.
publishedSchema.index({ publishedAt: 1 }, { expireAfterSeconds: 24 * 3600 });

const counterSchema = new Schema<{ _id: string; value: number }>(
  { _id: { type: String, required: true }, value: { type: Number, required: true } },
  { collection: 'outbox_counters', versionKey: false },
);

/** The outbox collections on a service's own connection (idempotent: reuses registered models). */
export function outboxModels(conn: Connection): OutboxModels {
  return {
    Entry: (conn.models.OutboxEntry as Model<OutboxEntryRow> | undefined) ?? conn.model('OutboxEntry', entrySchema),
    Published:
      (conn.models.OutboxPublished as Model<OutboxEntryRow> | undefined) ??
      conn.model('OutboxPublished', publishedSchema),
    Counter:
      (conn.models.OutboxCounter as Model<{ _id: string; value: number }> | undefined) ??
      conn.model('OutboxCounter', counterSchema),
  };
}

/**
 * A mongoose schema plugin for every owner model that carries outbox stamps: adds `_outbox` and
 * `_outboxClaim`, hidden from queries (`select: false`) so events never leak into API responses.
 * Without it mongoose's strict mode would silently drop the stamp from the owner write.
 */
export function outboxOwnerPlugin(schema: Schema): void {
  schema.add({
    _outbox: { type: [Schema.Types.Mixed], default: undefined, select: false },
    _outboxClaim: { type: Schema.Types.Mixed, default: undefined, select: false },
  });
}

/** True when the model's schema went through `outboxOwnerPlugin`. */
export function hasOutboxPaths(model: Model<never>): boolean {
  return model.schema.path('_outbox') !== undefined && model.schema.path('_outboxClaim') !== undefined;
}
