// consumeTopic (issue 24): the one way services consume a topic. Against the real broker and
// MongoDB: it creates the topic and its dead-letter topic, handles an event once per id, sends poison
// to `<topic>.dlq`, and works through the bus that waits for Kafka in the background.
import { expect } from 'chai';
import type { Admin } from 'kafkajs';
import { processedEventModel, consumeTopic, connectMongo, type MongoHandle } from '../src/data/index.js';
import {
  DLQ_HEADERS,
  PoisonMessageError,
  startKafkaInBackground,
  buildEvent,
  type EventBus,
  type PlatformEvent,
  type ReceivedMessage,
} from '../src/bus/index.js';
import { createLogger } from '../src/core/index.js';
import { FAST_SESSION, testAdmin, testBus, uniqueGroup, uniqueTopic, waitFor } from './support/kafka-helpers.js';
import { testDbName, testMongoUri } from './support/servers.js';

const logger = createLogger({ name: 'kit-consume-topic', level: 'silent' });

const event = (type: string, n: number): PlatformEvent =>
  buildEvent({ source: 's', type, subject: 'same-key', data: { n } }, new Date());

const record = (e: PlatformEvent) => ({ key: e.subject, value: JSON.stringify(e) });

describe('kit consumeTopic (real broker and MongoDB)', function () {
  this.timeout(90000);
  let db: MongoHandle;
  let bus: EventBus;
  let admin: Admin;
  before(async () => {
    db = await connectMongo({ uri: testMongoUri(), dbName: testDbName('kit', 'kafka-consume-topic'), logger });
    bus = testBus('kit-consume-topic');
    admin = await testAdmin();
  });
  after(async () => {
    await admin.disconnect();
    await bus.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  const partitionsOf = async (topic: string) =>
    (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions.length;
  const processed = (groupId: string) => processedEventModel(db.conn).find({ consumer: groupId }).lean();

  it('creates the topic with its shape and its dead-letter topic, and handles a redelivered event once', async () => {
    const topic = uniqueTopic('kit-consume');
    const groupId = uniqueGroup('kit-consume');
    const handled: string[] = [];
    const sub = await consumeTopic(bus, db, {
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      ensure: { partitions: 2 },
      handle: async (e) => void handled.push(e.id),
    });
    expect(await partitionsOf(topic)).to.equal(2);
    expect(await partitionsOf(`${topic}.dlq`)).to.equal(1);
    const [once, other] = [event('thing.changed.v1', 1), event('thing.changed.v1', 2)];
    // One key, one partition: once `other` is handled, both copies of `once` were delivered before it.
    await bus.publish(topic, [once, once, other].map(record));
    await waitFor('the last event handled', () => handled.includes(other.id));
    await sub.stop();
    expect(handled).to.deep.equal([once.id, other.id]);
    expect((await processed(groupId)).map((r) => r.eventId)).to.have.members([once.id, other.id]);
  });

  it('sends what is not an event, or what its handler calls poison, to `<topic>.dlq` and remembers neither', async () => {
    const topic = uniqueTopic('kit-consume-poison');
    const groupId = uniqueGroup('kit-consume-poison');
    // Its producer created the topic; consumeTopic adds only the dead-letter topic.
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const [poison, good] = [event('thing.broken.v1', 1), event('thing.changed.v1', 2)];
    await bus.publish(topic, [{ key: 'same-key', value: 'not json' }, record(poison), record(good)]);
    const handled: string[] = [];
    const sub = await consumeTopic(bus, db, {
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async (e) => {
        if (e.type === 'thing.broken.v1') throw new PoisonMessageError('no retry can fix this');
        handled.push(e.id);
      },
    });
    const dead: ReceivedMessage[] = [];
    const reader = await bus.subscribe({
      topic: `${topic}.dlq`,
      groupId: uniqueGroup('kit-consume-dlq'),
      fromBeginning: true,
      deadLetterTopic: false,
      session: FAST_SESSION,
      handle: async (m) => void dead.push(m),
    });
    await waitFor('two dead letters and the good event', () => dead.length >= 2 && handled.length >= 1);
    await Promise.all([sub.stop(), reader.stop()]);
    expect(dead.map((m) => m.value)).to.deep.equal(['not json', JSON.stringify(poison)]);
    expect(dead.map((m) => m.headers?.[DLQ_HEADERS.error])[1]).to.match(/^PoisonMessageError: no retry can fix this/);
    expect(handled).to.deep.equal([good.id]);
    expect((await processed(groupId)).map((r) => r.eventId)).to.deep.equal([good.id]);
  });

  it('queues the topics and the subscription in order on a bus that waits for Kafka in the background', async () => {
    const topic = uniqueTopic('kit-consume-background');
    const background = startKafkaInBackground(bus, logger);
    const handled: string[] = [];
    const sub = await consumeTopic(background.bus, db, {
      topic,
      groupId: uniqueGroup('kit-consume-background'),
      fromBeginning: true,
      session: FAST_SESSION,
      ensure: { partitions: 1 },
      handle: async (e) => void handled.push(e.id),
    });
    await background.firstPass();
    const e = event('thing.changed.v1', 1);
    await bus.publish(topic, [record(e)]);
    await waitFor('the event handled', () => handled.includes(e.id));
    await sub.stop();
    await background.stop();
    expect(await partitionsOf(`${topic}.dlq`)).to.equal(1);
  });
});
