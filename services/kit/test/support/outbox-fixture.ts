// Shared pieces of the outbox tests: an owner model, a write through the outbox, a topic reader.
import { randomUUID } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import { createLogger } from '../../src/core/index.js';
import {
  buildEvent,
  createKafkaBus,
  type EventBus,
  type PlatformEvent,
  type ReceivedMessage,
} from '../../src/bus/index.js';
import {
  connectMongo,
  outboxModels,
  outboxOwnerPlugin,
  syncIndexes,
  type MongoHandle,
  type Outbox,
} from '../../src/data/index.js';

export interface ThingRow {
  _id: string;
  version: number;
}

export interface ThingEvent {
  version: number;
}

export const silent = createLogger({ name: 'outbox-test', level: 'silent' });

export function thingModel(db: MongoHandle): Model<ThingRow> {
  if (db.conn.models.Thing) return db.conn.models.Thing as Model<ThingRow>;
  const schema = new Schema<ThingRow>(
    { _id: { type: String, required: true }, version: Number },
    { versionKey: false },
  );
  schema.plugin(outboxOwnerPlugin);
  return db.conn.model<ThingRow>('Thing', schema);
}

export async function openDb(uri: string, dbName: string): Promise<MongoHandle> {
  const db = await connectMongo({ uri, dbName, logger: silent });
  thingModel(db);
  outboxModels(db.conn);
  await syncIndexes(db.conn);
  return db;
}

export function thingEvent(key: string, version: number): PlatformEvent<ThingEvent> {
  return buildEvent({ source: 'kit-test', type: 'thing.changed', subject: key, data: { version } }, new Date());
}

/** One owner write announcing its new version; resolves when the write (and the move) is done. */
export async function writeThing(outbox: Outbox, topic: string, key: string, version: number): Promise<string> {
  const Thing = outbox.owners[0] as unknown as Model<ThingRow>;
  return outbox.transaction(async (unit, session) => {
    const event = thingEvent(key, version);
    const stamp = unit.enqueue({ topic, event, owner: outbox.owners[0]!, ownerId: key });
    await Thing.updateOne({ _id: key }, { $set: { version }, ...stamp.update }, { session, upsert: true });
    return event.id;
  });
}

export function testBus(brokers: string[]): EventBus {
  return createKafkaBus({ brokers, clientId: `outbox-test-${process.pid}`, logger: silent });
}

export interface Arrival {
  id: string;
  key: string;
  version: number;
  partition: number;
}

/** Reads a topic from the beginning into `arrivals` until stopped. */
export async function readTopic(
  bus: EventBus,
  topic: string,
): Promise<{ arrivals: Arrival[]; stop: () => Promise<void> }> {
  const arrivals: Arrival[] = [];
  // A tombstone first: the producer retries until the new topic's metadata is everywhere, which a
  // consumer subscribing to a topic created a moment ago does not.
  await bus.publish(topic, [{ key: 'warm-up', value: null }]);
  const sub = await bus.subscribe({
    topic,
    groupId: `outbox-test-${randomUUID()}`,
    fromBeginning: true,
    deadLetterTopic: false,
    handle: async (m: ReceivedMessage) => {
      if (m.value === null) return;
      const e = JSON.parse(m.value ?? '{}') as PlatformEvent<ThingEvent>;
      arrivals.push({ id: e.id, key: m.key ?? '', version: e.data.version, partition: m.partition });
    },
  });
  return { arrivals, stop: () => sub.stop() };
}

/** Polls `cond` until it holds or the deadline passes (then fails with `what`). */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Per key, the versions in arrival order. */
export function versionsByKey(arrivals: readonly Arrival[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const a of arrivals) out.set(a.key, [...(out.get(a.key) ?? []), a.version]);
  return out;
}
