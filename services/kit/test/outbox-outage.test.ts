import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { EventBus } from '../src/bus/index.js';
import { createOutbox, createOutboxRelay, type MongoHandle } from '../src/data/index.js';
import {
  openDb,
  readTopic,
  silent,
  testBus,
  thingModel,
  versionsByKey,
  waitFor,
  writeThing,
} from './support/outbox-fixture.js';
import { PrivateKafka } from './support/private-kafka.js';
import { testDbName, testMongoUri } from './support/servers.js';

const OUTAGE_MS = 20000;

describe('kit outbox across a broker outage (a private Kafka, real MongoDB)', function () {
  this.timeout(180000);
  let kafka: PrivateKafka | undefined;
  let db: MongoHandle;
  const buses: EventBus[] = [];

  before(async () => {
    db = await openDb(testMongoUri(), testDbName('kit', 'outbox-outage'));
    kafka = await PrivateKafka.start();
  });
  after(async () => {
    await Promise.allSettled(buses.map((b) => b.close()));
    await kafka?.dispose();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  it('a broker stopped for 20 s while writes go on loses nothing, and each key keeps its order', async () => {
    const bus = testBus(kafka!.brokers);
    buses.push(bus);
    const topic = `kit-outbox-outage.${randomUUID()}`;
    await bus.ensureTopics([{ name: topic, partitions: 3 }]);
    const outbox = createOutbox({ db, owners: [thingModel(db)], logger: silent });
    const relay = createOutboxRelay({
      outbox,
      publish: (t, m) => bus.publish(t, m),
      batchSize: 50,
      pollMs: 100,
      // Retry often and never give up during the test's outage.
      backoff: { baseMs: 200, capMs: 1000, maxAttempts: 10000 },
    });
    relay.start();
    const keys = Array.from({ length: 10 }, (_, i) => `thing-${i}-${randomUUID()}`);
    const ids = new Set<string>();
    const versions = new Map(keys.map((k) => [k, 0]));
    let writing = true;
    // Each key is written in turn, one version after another, until told to stop.
    const writer = (async () => {
      while (writing) {
        for (const key of keys) {
          const v = versions.get(key)! + 1;
          ids.add(await writeThing(outbox, topic, key, v));
          versions.set(key, v);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const published = () => outbox.models.Published.countDocuments({});
    try {
      await waitFor(async () => (await published()) >= 50, 'events published before the outage');
      await kafka!.stop();
      const writtenAtStop = ids.size;
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      const writtenDuringOutage = ids.size - writtenAtStop;
      await kafka!.restart();
      await waitFor(async () => (await published()) >= writtenAtStop + writtenDuringOutage, 'the backlog', 60000);
      writing = false;
      await writer;
      await waitFor(async () => (await published()) === ids.size, 'every entry published', 60000);
      expect(writtenDuringOutage).to.be.above(0);
    } finally {
      writing = false;
      await writer.catch(() => undefined);
      await relay.stop();
    }
    const reader = await readTopic(bus, topic);
    try {
      await waitFor(() => new Set(reader.arrivals.map((a) => a.id)).size >= ids.size, 'every event read back', 60000);
      expect(new Set(reader.arrivals.map((a) => a.id))).to.deep.equal(ids);
      // Redeliveries repeat, they never reorder: each key's first arrivals are 1, 2, 3, ...
      const firsts = versionsByKey(reader.arrivals.filter((a, i, all) => all.findIndex((b) => b.id === a.id) === i));
      for (const key of keys) {
        expect(firsts.get(key), key).to.deep.equal(Array.from({ length: versions.get(key)! }, (_, i) => i + 1));
      }
    } finally {
      await reader.stop();
    }
  });
});
