import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Schema, type Model } from 'mongoose';
import { idempotent, processedEventModel, connectMongo, type MongoHandle } from '../src/data/index.js';
import { buildEvent, type EventBus, type PlatformEvent, type ReceivedMessage } from '../src/bus/index.js';
import { createLogger } from '../src/core/index.js';
import { FAST_SESSION, testBus, uniqueGroup, uniqueTopic, waitFor } from './support/kafka-helpers.js';
import { testDbName, testMongoUri } from './support/servers.js';

interface EffectRow {
  _id: string;
  eventId: string;
}

// A service's models object, as rule 16 passes it: idempotent(deps.models, handler).
interface Models {
  Effect: Model<EffectRow>;
}

const message = (groupId: string): ReceivedMessage => ({
  topic: 't',
  partition: 0,
  offset: '0',
  groupId,
  key: 'k',
  value: null,
  headers: {},
});

describe('kit idempotent() consumer handler (real MongoDB)', function () {
  this.timeout(60000);
  let db: MongoHandle;
  let models: Models;
  before(async () => {
    db = await connectMongo({
      uri: testMongoUri(),
      dbName: testDbName('kit', 'kafka-idempotent'),
      logger: createLogger({ name: 'kit', level: 'silent' }),
    });
    models = {
      Effect: db.conn.model<EffectRow>(
        'Effect',
        new Schema<EffectRow>({ _id: String, eventId: String }, { versionKey: false }),
      ),
    };
  });
  after(async () => {
    await db.conn.dropDatabase();
    await db.conn.close();
  });
  beforeEach(async () => {
    await models.Effect.deleteMany({});
    await processedEventModel(db.conn).deleteMany({});
  });

  // Each run inserts a fresh row, so running twice is visible as two rows.
  const recordEffect = (e: PlatformEvent) =>
    models.Effect.create({ _id: randomUUID(), eventId: e.id }).then(() => undefined);
  const effects = async (id: string) => models.Effect.countDocuments({ eventId: id });

  it('runs a handler once per event id and consumer; another consumer of the same event runs once too', async () => {
    const e = buildEvent({ source: 's', type: 'thing.changed.v1', subject: 'x', data: {} }, new Date());
    const handle = idempotent(models, recordEffect);
    await handle(e, message('g1'));
    await handle(e, message('g1'));
    await handle(e, message('g2'));
    expect(await effects(e.id)).to.equal(2);
    expect(await processedEventModel(db.conn).countDocuments({ eventId: e.id })).to.equal(2);
  });

  it('does not remember an event whose handler failed, so the retry runs it', async () => {
    const e = buildEvent({ source: 's', type: 'thing.changed.v1', subject: 'x', data: {} }, new Date());
    let calls = 0;
    const handle = idempotent(db, async (ev) => {
      calls += 1;
      if (calls === 1) throw new Error('transient');
      await recordEffect(ev);
    });
    const err = await handle(e, message('g')).catch((x: unknown) => x);
    expect(err).to.be.instanceOf(Error);
    expect(await processedEventModel(db.conn).countDocuments({})).to.equal(0);
    await handle(e, message('g'));
    await handle(e, message('g'));
    expect(calls).to.equal(2);
    expect(await effects(e.id)).to.equal(1);
  });

  it('keeps processed ids under a unique index on (consumer, eventId)', async () => {
    await idempotent(db.conn, async () => undefined)(
      buildEvent({ source: 's', type: 't', subject: 'x', data: {} }, new Date()),
      message('g'),
    );
    const indexes = await processedEventModel(db.conn).collection.indexes();
    const unique = indexes.find((i) => i.unique === true);
    expect(unique?.key).to.deep.equal({ consumer: 1, eventId: 1 });
  });

  describe('through the bus (real broker)', () => {
    let bus: EventBus;
    before(() => (bus = testBus('kit-idempotent-test')));
    after(() => bus.close());

    it('a redelivered event (same id) is handled once', async () => {
      const topic = uniqueTopic('kit-idem');
      await bus.ensureTopics([
        { name: topic, partitions: 2 },
        { name: `${topic}.dlq`, partitions: 1 },
      ]);
      const once = buildEvent({ source: 's', type: 'thing.changed.v1', subject: 'q-1', data: { n: 1 } }, new Date());
      const other = buildEvent({ source: 's', type: 'thing.changed.v1', subject: 'q-1', data: { n: 2 } }, new Date());
      await bus.publish(
        topic,
        [once, once, other].map((e) => ({ key: e.subject, value: JSON.stringify(e) })),
      );
      let deliveries = 0;
      const inner = idempotent(models, recordEffect);
      const sub = await bus.consume({
        topic,
        groupId: uniqueGroup('kit-idem'),
        fromBeginning: true,
        session: FAST_SESSION,
        handle: async (e, m) => {
          await inner(e, m);
          deliveries += 1;
        },
      });
      await waitFor('three deliveries', () => deliveries >= 3);
      await sub.stop();
      expect(await effects(once.id)).to.equal(1);
      expect(await effects(other.id)).to.equal(1);
    });
  });
});
