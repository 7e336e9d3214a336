import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Model } from 'mongoose';
import { Registry } from 'prom-client';
import type { BusMessage, EventBus, ReceivedMessage } from '../src/bus/index.js';
import { createOutbox, createOutboxRelay, startOutboxRelay, type MongoHandle, type Outbox } from '../src/data/index.js';
import {
  openDb,
  readTopic,
  silent,
  testBus,
  thingEvent,
  thingModel,
  versionsByKey,
  waitFor,
  writeThing,
  type ThingRow,
} from './support/outbox-fixture.js';
import { testDbName, testKafkaBrokers, testMongoUri } from './support/servers.js';
import { CLOUDEVENTS_CONTENT_TYPE } from '../src/bus/index.js';

describe('kit outbox (real Kafka and MongoDB)', function () {
  this.timeout(60000);
  let db: MongoHandle;
  let bus: EventBus;
  let Thing: Model<ThingRow>;
  let registry: Registry;
  let outbox: Outbox;
  let topic: string;

  before(async () => {
    db = await openDb(testMongoUri(), testDbName('kit', 'outbox'));
    Thing = thingModel(db);
    bus = testBus(testKafkaBrokers());
  });
  after(async () => {
    await db.conn.dropDatabase();
    await db.conn.close();
    await bus.close();
  });
  beforeEach(async () => {
    await Promise.all(Object.values(db.conn.models).map((m) => m.deleteMany({})));
    registry = new Registry();
    outbox = createOutbox({ db, owners: [Thing], logger: silent, registry });
    topic = `kit-outbox.${randomUUID()}`;
    await bus.ensureTopics([{ name: topic, partitions: 3 }]);
  });

  it('1,000 events over 50 keys arrive once each and in per-key order', async () => {
    const reader = await readTopic(bus, topic);
    const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m), batchSize: 100 });
    relay.start();
    try {
      const keys = Array.from({ length: 50 }, (_, i) => `thing-${i}-${randomUUID()}`);
      const ids = new Set<string>();
      // Keys in parallel, each key's versions one after another (as an aggregate is written).
      await Promise.all(
        keys.map(async (key) => {
          for (let v = 1; v <= 20; v += 1) ids.add(await writeThing(outbox, topic, key, v));
        }),
      );
      await waitFor(() => reader.arrivals.length >= 1000, '1,000 arrivals', 45000);
      expect(new Set(reader.arrivals.map((a) => a.id))).to.deep.equal(ids);
      expect(reader.arrivals).to.have.length(1000);
      const byKey = versionsByKey(reader.arrivals);
      const expected = Array.from({ length: 20 }, (_, i) => i + 1);
      for (const key of keys) expect(byKey.get(key), key).to.deep.equal(expected);
      expect(await outbox.models.Published.countDocuments({})).to.equal(1000);
    } finally {
      await reader.stop();
      await relay.stop();
    }
  });

  it('publishes the exact stored envelope, keyed by the aggregate id', async () => {
    const key = `thing-${randomUUID()}`;
    const received: BusMessage[] = [];
    const relay = createOutboxRelay({ outbox, publish: async (t, m) => void received.push(...m) });
    const id = await writeThing(outbox, topic, key, 7);
    const entry = await outbox.models.Entry.findById(id).lean();
    expect(await relay.runOnce()).to.equal(1);
    expect(received).to.have.length(1);
    expect(received[0]!.key).to.equal(key);
    expect(received[0]!.value).to.equal(entry!.envelope);
    const event = JSON.parse(received[0]!.value!) as Record<string, unknown>;
    expect(event).to.include({ id, type: 'thing.changed', subject: key, specversion: '1.0' });
    expect(event.data).to.deep.equal({ version: 7 });
    // The stamp left the owner document, which never shows it to ordinary queries.
    expect(await Thing.findById(key).lean()).to.deep.equal({ _id: key, version: 7 });
    expect((await Thing.collection.findOne({ _id: key } as never))?._outbox).to.deep.equal([]);
  });

  it('publishes CloudEvents Kafka binding headers (structured mode) that a raw consumer reads', async () => {
    const key = `thing-${randomUUID()}`;
    const got: ReceivedMessage[] = [];
    const sub = await bus.subscribe({
      topic,
      groupId: `outbox-headers-${randomUUID()}`,
      fromBeginning: true,
      deadLetterTopic: false,
      handle: async (m) => void got.push(m),
    });
    const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m) });
    try {
      const id = await writeThing(outbox, topic, key, 3);
      expect(await relay.runOnce()).to.equal(1);
      await waitFor(() => got.some((m) => m.key === key), 'the record');
      const record = got.find((m) => m.key === key)!;
      const event = JSON.parse(record.value!) as Record<string, string>;
      expect(record.headers).to.deep.equal({
        'content-type': CLOUDEVENTS_CONTENT_TYPE,
        ce_id: id,
        ce_type: 'thing.changed',
        ce_source: 'kit-test',
        ce_specversion: '1.0',
        ce_subject: key,
        ce_time: event.time,
      });
      expect(event.id).to.equal(id);
    } finally {
      await sub.stop();
    }
  });

  it('coalesces one unit\u2019s events for one aggregate into one entry carrying the final state', async () => {
    const key = `thing-${randomUUID()}`;
    const owner = outbox.owners[0]!;
    const last = await outbox.transaction(async (unit, session) => {
      let id = '';
      for (const v of [1, 2, 3]) {
        const event = thingEvent(key, v);
        id = event.id;
        const stamp = unit.enqueue({ topic, event, owner, ownerId: key });
        await Thing.updateOne({ _id: key }, { $set: { version: v }, ...stamp.update }, { session, upsert: true });
      }
      return id;
    });
    const entries = await outbox.models.Entry.find({ key }).lean();
    expect(entries.map((e) => e._id)).to.deep.equal([last]);
    expect((JSON.parse(entries[0]!.envelope) as { data: unknown }).data).to.deep.equal({ version: 3 });
  });

  it('a unit touching many owners moves them together: each entry once, in write order, skipping one already moved and one held elsewhere', async () => {
    const owner = outbox.owners[0]!;
    const keys = Array.from({ length: 30 }, (_, i) => `many-${i}-${randomUUID()}`);
    const held = `held-${randomUUID()}`;
    await Thing.collection.insertOne({
      _id: held,
      _outboxClaim: { by: 'another mover', until: new Date(Date.now() + 600_000) },
    } as never);
    let movedBefore = '';
    await outbox.transaction(async (unit, session) => {
      for (const [i, key] of [...keys, held].entries()) {
        const stamp = unit.enqueue({ topic, event: thingEvent(key, 1), owner, ownerId: key });
        await Thing.updateOne({ _id: key }, { $set: { version: 1 }, ...stamp.update }, { session, upsert: true });
        // A mover that died after inserting this entry, before pulling its stamp.
        if (i === 10) {
          movedBefore = (stamp.fields._outbox as Array<{ id: string }>)[0]!.id;
          await outbox.models.Entry.collection.insertOne({ _id: movedBefore, key, marker: true } as never);
        }
      }
    });
    const entries = await outbox.models.Entry.find({ key: { $in: [...keys, held] } })
      .sort({ seq: 1 })
      .lean<Array<{ _id: string; key: string; marker?: boolean }>>();
    // The pre-inserted entry has no seq, so it sorts first; the moved ones follow in write order.
    expect(entries.map((e) => e.key)).to.deep.equal([keys[10], ...keys.filter((_, i) => i !== 10)]);
    expect(entries.find((e) => e._id === movedBefore)?.marker).to.equal(true);
    const left = await Thing.collection.find({ _id: { $in: keys } } as never).toArray();
    expect(left.every((d) => (d._outbox as unknown[]).length === 0 && d._outboxClaim === undefined)).to.equal(true);
    const heldDoc = await Thing.collection.findOne({ _id: held } as never);
    expect(heldDoc?._outbox).to.have.length(1);
  });

  it('no transaction: an event whose owner write never happened is never stored or published', async () => {
    const key = `thing-${randomUUID()}`;
    const owner = outbox.owners[0]!;
    await Thing.create({ _id: key, version: 5 });
    // A crash before the owner write: the stamp existed only in memory.
    const err = await outbox
      .transaction(async (unit) => {
        unit.enqueue({ topic, event: thingEvent(key, 6), owner, ownerId: key });
        throw new Error('crashed before the owner write');
      })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    // An owner write that did not apply (a version conflict): its stamp went nowhere either.
    await outbox.transaction(async (unit, session) => {
      const stamp = unit.enqueue({ topic, event: thingEvent(key, 6), owner, ownerId: key });
      await Thing.updateOne({ _id: key, version: 4 }, { $set: { version: 6 }, ...stamp.update }, { session });
    });
    expect(await outbox.sweep(new Date(Date.now() + 60000))).to.equal(0);
    const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m) });
    expect(await relay.runOnce()).to.equal(0);
    expect(await outbox.models.Entry.countDocuments({})).to.equal(0);
    // The topic holds only a later write of that key, proving nothing was sent before it.
    const reader = await readTopic(bus, topic);
    try {
      const id = await writeThing(outbox, topic, key, 7);
      expect(await relay.runOnce()).to.equal(1);
      await waitFor(() => reader.arrivals.length >= 1, 'the later event');
      expect(reader.arrivals.map((a) => a.id)).to.deep.equal([id]);
    } finally {
      await reader.stop();
    }
  });

  it('no transaction: an owner write whose unit failed after it is still published', async () => {
    const key = `thing-${randomUUID()}`;
    const owner = outbox.owners[0]!;
    const event = thingEvent(key, 1);
    await outbox
      .transaction(async (unit, session) => {
        const stamp = unit.enqueue({ topic, event, owner, ownerId: key });
        await Thing.updateOne({ _id: key }, { $set: { version: 1 }, ...stamp.update }, { session, upsert: true });
        throw new Error('a later write of the unit failed');
      })
      .catch(() => undefined);
    expect(await Thing.findById(key).lean()).to.deep.equal({ _id: key, version: 1 });
    const entry = await outbox.models.Entry.findById(event.id).lean();
    expect(entry?.status).to.equal('pending');
  });

  it('a failing publish backs off exponentially, then goes dead with its error kept, blocking its key', async () => {
    const key = `thing-${randomUUID()}`;
    let now = new Date('2026-01-01T00:00:00Z');
    const clocked = createOutbox({ db, owners: [Thing], logger: silent, now: () => now });
    let calls = 0;
    const relay = createOutboxRelay({
      outbox: clocked,
      publish: async () => {
        calls += 1;
        throw new Error('broker said no');
      },
      backoff: { baseMs: 1000, capMs: 4000, maxAttempts: 4 },
    });
    const id = await writeThing(clocked, topic, key, 1);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect(await relay.runOnce()).to.equal(0);
      const e = await clocked.models.Entry.findById(id).lean();
      expect(e!.attempts).to.equal(attempt);
      expect(e!.lastError).to.equal('broker said no');
      if (e!.status === 'dead') break;
      delays.push(e!.nextAttemptAt.getTime() - now.getTime());
      // Not due yet: nothing is attempted.
      expect(await relay.runOnce()).to.equal(0);
      now = e!.nextAttemptAt;
    }
    expect(delays).to.deep.equal([1000, 2000, 4000]);
    expect(calls).to.equal(4);
    const dead = await clocked.models.Entry.findById(id).lean();
    expect(dead).to.include({ status: 'dead', attempts: 4, lastError: 'broker said no' });
    // A later entry of the same key waits behind the dead one; a fresh key is not blocked.
    now = new Date(now.getTime() + 3600000);
    const later = await writeThing(clocked, topic, key, 2);
    const other = await writeThing(clocked, topic, `thing-${randomUUID()}`, 1);
    const sent: string[] = [];
    const healthy = createOutboxRelay({
      outbox: clocked,
      publish: async (_t, m) => void sent.push(...m.map((x) => x.headers!.ce_id!)),
    });
    expect(await healthy.runOnce()).to.equal(1);
    expect(sent).to.deep.equal([other]);
    expect((await clocked.models.Entry.findById(later).lean())!.status).to.equal('pending');
  });

  it('two relays at once never publish one entry twice inside a lease', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `thing-${i}-${randomUUID()}`);
    for (let v = 1; v <= 15; v += 1) await Promise.all(keys.map((k) => writeThing(outbox, topic, k, v)));
    const sentBy = new Map<string, string[]>();
    const relays = ['a', 'b'].map((name) =>
      createOutboxRelay({
        outbox,
        batchSize: 7,
        leaseMs: 60000,
        publish: async (t, m) => {
          await bus.publish(t, m);
          for (const x of m) sentBy.set(x.headers!.ce_id!, [...(sentBy.get(x.headers!.ce_id!) ?? []), name]);
        },
      }),
    );
    const reader = await readTopic(bus, topic);
    try {
      // Both relays race round after round until everything is out.
      const drain = async (r: (typeof relays)[number]) => {
        while ((await outbox.models.Entry.countDocuments({ status: 'pending' })) > 0) await r.runOnce();
      };
      await Promise.all([drain(relays[0]!), drain(relays[1]!), drain(relays[0]!), drain(relays[1]!)]);
      await waitFor(() => reader.arrivals.length >= 300, '300 arrivals');
      const twice = [...sentBy].filter(([, by]) => by.length > 1);
      expect(twice).to.deep.equal([]);
      expect(sentBy.size).to.equal(300);
      expect(new Set([...sentBy.values()].flat())).to.deep.equal(new Set(['a', 'b']));
      const byKey = versionsByKey(reader.arrivals);
      for (const k of keys) expect(byKey.get(k)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
    } finally {
      await reader.stop();
    }
  });

  it('metrics: pending count and oldest age while waiting, then the published total', async () => {
    await writeThing(outbox, topic, `thing-${randomUUID()}`, 1);
    await writeThing(outbox, topic, `thing-${randomUUID()}`, 1);
    const before = await registry.getMetricsAsJSON();
    const value = (ms: typeof before, name: string) => ms.find((m) => m.name === name)?.values[0]?.value;
    expect(value(before, 'outbox_pending_entries')).to.equal(2);
    expect(value(before, 'outbox_oldest_pending_age_seconds')).to.be.at.least(0);
    const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m) });
    expect(await relay.runOnce()).to.equal(2);
    const afterRun = await registry.getMetricsAsJSON();
    expect(value(afterRun, 'outbox_pending_entries')).to.equal(0);
    expect(value(afterRun, 'outbox_oldest_pending_age_seconds')).to.equal(0);
    expect(value(afterRun, 'outbox_published_total')).to.equal(2);
    expect(value(afterRun, 'outbox_dead_total')).to.equal(0);
  });

  it('OUTBOX_PUBLISHER: none starts no relay, kafka starts one', async () => {
    const publish = (t: string, m: BusMessage[]) => bus.publish(t, m);
    expect(startOutboxRelay('none', { outbox, publish })).to.equal(undefined);
    const relay = startOutboxRelay('kafka', { outbox, publish });
    expect(relay).to.not.equal(undefined);
    const reader = await readTopic(bus, topic);
    try {
      const id = await writeThing(outbox, topic, `thing-${randomUUID()}`, 1);
      await waitFor(() => reader.arrivals.some((a) => a.id === id), 'the event');
    } finally {
      await reader.stop();
      await relay!.stop();
    }
  });
});
