import { expect } from 'chai';
import type { Admin } from 'kafkajs';
import {
  deadLetterMessage,
  DLQ_HEADERS,
  PoisonMessageError,
  buildEvent,
  type EventBus,
  type ReceivedMessage,
} from '../src/bus/index.js';
import {
  committedOffset,
  FAST_SESSION,
  testAdmin,
  testBus,
  uniqueGroup,
  uniqueTopic,
  waitFor,
} from './support/kafka-helpers.js';

const event = (subject: string, n: number) =>
  buildEvent({ source: 'kit-test', type: 'thing.changed.v1', subject, data: { n } }, new Date());

describe('kit consumer: pure parts', () => {
  it('deadLetterMessage keeps key, value and headers and names the origin, error and attempts', () => {
    const m: ReceivedMessage = {
      topic: 't',
      partition: 2,
      offset: '41',
      groupId: 'g',
      key: 'k',
      value: 'v',
      headers: { 'ce-type': 'x' },
    };
    const copy = deadLetterMessage(m, { error: new Error('x'.repeat(5000)), attempts: 5, now: new Date(0) });
    expect(copy.key).to.equal('k');
    expect(copy.value).to.equal('v');
    expect(copy.headers).to.include({
      'ce-type': 'x',
      [DLQ_HEADERS.topic]: 't',
      [DLQ_HEADERS.partition]: '2',
      [DLQ_HEADERS.offset]: '41',
      [DLQ_HEADERS.group]: 'g',
      [DLQ_HEADERS.attempts]: '5',
      [DLQ_HEADERS.failedAt]: '1970-01-01T00:00:00.000Z',
    });
    expect(copy.headers![DLQ_HEADERS.error]).to.have.length(1000);
  });
});

describe('kit consumer (real broker)', function () {
  this.timeout(120000);
  let bus: EventBus;
  let admin: Admin;
  before(async () => {
    bus = testBus('kit-consumer-test');
    admin = await testAdmin();
  });
  after(async () => {
    await bus.close();
    await admin.disconnect();
  });

  it('keeps per-key order across partitions while handling partitions concurrently (1,000 events, 50 keys)', async () => {
    const topic = uniqueTopic('kit-order');
    await bus.ensureTopics([
      { name: topic, partitions: 4 },
      { name: `${topic}.dlq`, partitions: 1 },
    ]);
    const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
    const sent = Array.from({ length: 1000 }, (_, i) => event(keys[i % 50]!, Math.floor(i / 50)));
    for (let i = 0; i < sent.length; i += 200)
      await bus.publish(
        topic,
        sent.slice(i, i + 200).map((e) => ({ key: e.subject, value: JSON.stringify(e) })),
      );
    const seen = new Map<string, number[]>();
    const inFlight = new Set<number>();
    let maxInFlight = 0;
    let received = 0;
    const sub = await bus.consume<{ n: number }>({
      topic,
      groupId: uniqueGroup('kit-order'),
      fromBeginning: true,
      concurrency: 4,
      session: FAST_SESSION,
      handle: async (e, m) => {
        inFlight.add(m.partition);
        maxInFlight = Math.max(maxInFlight, inFlight.size);
        // The first messages wait for a second partition to be in flight: sequential consumption
        // never gets there, and the assertion on maxInFlight below then fails.
        if (received < 4) await waitFor('a second partition in flight', () => inFlight.size > 1, 15000).catch(() => 0);
        await new Promise((r) => setImmediate(r));
        seen.set(e.subject, [...(seen.get(e.subject) ?? []), e.data.n]);
        received += 1;
        inFlight.delete(m.partition);
      },
    });
    await waitFor('1,000 events', () => received >= 1000, 90000);
    await sub.stop();
    expect(maxInFlight).to.be.greaterThan(1);
    for (const key of keys) expect(seen.get(key), key).to.deep.equal(Array.from({ length: 20 }, (_, n) => n));
  });

  it('sends a message that fails five times to <topic>.dlq with its origin, then goes on; poison goes at once', async () => {
    const topic = uniqueTopic('kit-dlq');
    const dlq = `${topic}.dlq`;
    await bus.ensureTopics([
      { name: topic, partitions: 1 },
      { name: dlq, partitions: 1 },
    ]);
    const [good1, bad, good2] = [event('k', 1), event('k', 2), event('k', 3)];
    await bus.publish(topic, [
      { key: 'k', value: JSON.stringify(good1) },
      { key: 'k', value: JSON.stringify(bad), headers: { 'ce-type': bad!.type } },
      { key: 'k', value: 'not json' },
      { key: 'k', value: JSON.stringify(good2) },
    ]);
    const handled: string[] = [];
    let badAttempts = 0;
    const groupId = uniqueGroup('kit-dlq');
    const sub = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      retry: { attempts: 5, initialMs: 10, maxMs: 50 },
      session: FAST_SESSION,
      handle: async (e) => {
        if (e.id === bad!.id) throw new Error(`boom ${++badAttempts}`);
        handled.push(e.id);
      },
    });
    await waitFor('the message after the failing one', () => handled.includes(good2!.id));
    await sub.stop();
    expect(handled).to.deep.equal([good1!.id, good2!.id]);
    expect(badAttempts).to.equal(5);
    expect(await committedOffset(admin, groupId, topic)).to.equal(4);

    const dead: ReceivedMessage[] = [];
    const reader = await bus.subscribe({
      topic: dlq,
      groupId: uniqueGroup('kit-dlq-reader'),
      fromBeginning: true,
      deadLetterTopic: false,
      session: FAST_SESSION,
      handle: async (m) => void dead.push(m),
    });
    await waitFor('two dead letters', () => dead.length >= 2);
    await reader.stop();
    expect(dead.map((m) => [m.key, m.value])).to.deep.equal([
      ['k', JSON.stringify(bad)],
      ['k', 'not json'],
    ]);
    expect(dead[0]!.headers).to.include({
      'ce-type': bad!.type,
      [DLQ_HEADERS.topic]: topic,
      [DLQ_HEADERS.partition]: '0',
      [DLQ_HEADERS.offset]: '1',
      [DLQ_HEADERS.group]: groupId,
      [DLQ_HEADERS.attempts]: '5',
      [DLQ_HEADERS.error]: 'Error: boom 5',
    });
    expect(dead[1]!.headers).to.include({ [DLQ_HEADERS.offset]: '2', [DLQ_HEADERS.attempts]: '1' });
    expect(dead[1]!.headers![DLQ_HEADERS.error]).to.match(/^PoisonMessageError: value is not JSON/);
  });

  it('a handler may throw PoisonMessageError to skip the retries', async () => {
    const topic = uniqueTopic('kit-poison');
    await bus.ensureTopics([
      { name: topic, partitions: 1 },
      { name: `${topic}.dlq`, partitions: 1 },
    ]);
    await bus.publish(topic, [{ key: 'k', value: JSON.stringify(event('k', 1)) }]);
    let calls = 0;
    const groupId = uniqueGroup('kit-poison');
    const sub = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async () => {
        calls += 1;
        throw new PoisonMessageError('unknown event version');
      },
    });
    await waitFor(
      'the commit past the poison message',
      async () => (await committedOffset(admin, groupId, topic)) === 1,
    );
    await sub.stop();
    expect(calls).to.equal(1);
  });

  it('subscribing without the dead-letter topic fails at once, naming it', async () => {
    const topic = uniqueTopic('kit-nodlq');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const err = await bus
      .subscribe({ topic, groupId: uniqueGroup('g'), handle: async () => undefined })
      .catch((e: unknown) => e as Error);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.include(`${topic}.dlq does not exist`);
  });

  it('subscribing to a topic nobody created fails at once, naming it (no crash inside kafkajs)', async () => {
    const topic = uniqueTopic('kit-missing');
    const err = await bus
      .subscribe({ topic, groupId: uniqueGroup('g'), deadLetterTopic: false, handle: async () => undefined })
      .catch((e: unknown) => e as Error);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.include(`topic ${topic} does not exist`);
  });
});
