import { Schema, type Connection, type Model } from 'mongoose';
import type { EventHandler, PlatformEvent, ReceivedMessage } from '../bus/index.js';
import { isDuplicateKey, isNamespaceExists, type MongoHandle } from './mongo.js';

export interface ProcessedEventRow {
  consumer: string;
  eventId: string;
  type: string;
  processedAt: Date;
}

/** Remembered long past Kafka's default 7-day retention, so a reset to the earliest offset stays a no-op. */
const REMEMBER_SECONDS = 30 * 24 * 3600;

const processedEventSchema = new Schema<ProcessedEventRow>(
  {
    consumer: { type: String, required: true },
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  { collection: 'processed_events', versionKey: false },
);
processedEventSchema.index({ consumer: 1, eventId: 1 }, { unique: true });
processedEventSchema.index({ processedAt: 1 }, { expireAfterSeconds: REMEMBER_SECONDS });

/**
 * The processed-event ids of one service, in its own database. Register it with the service's
 * other models (so syncIndexes builds its unique index at start); idempotent() also builds the
 * indexes on first use.
 */
export function processedEventModel(conn: Connection): Model<ProcessedEventRow> {
  return (
    (conn.models.ProcessedEvent as Model<ProcessedEventRow> | undefined) ??
    conn.model('ProcessedEvent', processedEventSchema)
  );
}

/** Where the processed ids live: a connection, the kit's MongoHandle, or a service's models object. */
export type IdempotencyStore = Connection | MongoHandle | object;

function connectionOf(store: IdempotencyStore): Connection {
  const s = store as Partial<Connection> & Partial<MongoHandle>;
  if (typeof s.model === 'function' && typeof s.collection === 'function') return store as Connection;
  if (s.conn && typeof s.conn.model === 'function') return s.conn;
  const model = Object.values(store).find((m: unknown) => typeof (m as Model<unknown>)?.db?.model === 'function');
  if (!model) throw new Error('idempotent(): expected a mongoose Connection, a MongoHandle or an object of models');
  return (model as Model<unknown>).db;
}

const indexed = new WeakMap<Connection, Promise<void>>();

function ensureIndexes(conn: Connection): Promise<void> {
  let ready = indexed.get(conn);
  if (!ready) {
    const model = processedEventModel(conn);
    ready = model
      .createCollection()
      .catch((err: unknown) => {
        // A concurrent creator won (the dev profile's stand-in says so without a code): it exists.
        if (!isNamespaceExists(err)) throw err;
      })
      .then(() => model.createIndexes());
    indexed.set(conn, ready);
    ready.catch(() => indexed.delete(conn));
  }
  return ready;
}

export interface IdempotentOptions {
  /** Names whose processing is remembered (default: the consumer group), so two consumers of one event each run once. */
  consumer?: string;
}

/**
 * Wraps an event handler so a redelivered event (same id, same consumer) is a no-op. The id is
 * recorded after the handler succeeds: a crash in between runs the handler again on redelivery,
 * so the handler's own write must be safe to repeat (an upsert or a unique key), as rule 16 asks.
 */
export function idempotent<T>(
  store: IdempotencyStore,
  handler: EventHandler<T>,
  opts: IdempotentOptions = {},
): EventHandler<T> {
  const conn = connectionOf(store);
  return async (event: PlatformEvent<T>, message: ReceivedMessage) => {
    await ensureIndexes(conn);
    const Processed = processedEventModel(conn);
    const consumer = opts.consumer ?? message.groupId ?? 'default';
    if (await Processed.exists({ consumer, eventId: event.id })) return;
    await handler(event, message);
    try {
      await Processed.create({ consumer, eventId: event.id, type: event.type, processedAt: new Date() });
    } catch (err) {
      // Another delivery of the same event finished first: it is remembered either way.
      if (!isDuplicateKey(err)) throw err;
    }
  };
}
