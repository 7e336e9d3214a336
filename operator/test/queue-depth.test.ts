// The operator's queue-depth reader against the real test Kafka; only the clock is the test's.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel, type Admin, type Producer } from 'kafkajs';
import { pino } from 'pino';
import { createQueueDepthReader, type QueueDepthReader } from '../src/queue-depth.js';

// Given, or exported by the unit suite's global hooks when they started the test Kafka.
function testKafkaBrokers(): string[] {
  const brokers = process.env.KAFKA_BROKERS ?? process.env.EDU_TEST_KAFKA_BROKERS;
  if (!brokers) throw new Error('KAFKA_BROKERS is not set: run through the unit suite or scripts/test-one.sh');
  return brokers.split(',');
}

describe('queue-depth reader on a real Kafka topic', function () {
  this.timeout(60_000);
  const topic = `docx-import.jobs.v1.test-${randomUUID()}`;
  let admin: Admin;
  let producer: Producer;
  let reader: QueueDepthReader;
  let now = Date.parse('2026-01-01T00:00:00Z');

  before(async () => {
    // Read here, not at load time: the global hooks may provide the brokers after the files load.
    const kafka = new Kafka({ clientId: 'operator-test', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    producer = kafka.producer();
    await producer.connect();
    reader = createQueueDepthReader({ brokers: testKafkaBrokers(), logger: pino({ level: 'silent' }), now: () => now });
  });

  after(async () => {
    await reader.close();
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  const push = (n: number) =>
    producer.send({ topic, messages: Array.from({ length: n }, (_, i) => ({ key: `j${i}`, value: '{}' })) });
  const commit = (groupId: string, offset: number) =>
    admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: String(offset) }] });

  it('ages the oldest waiting job per DocxImportJob: two jobs on one topic with their own groups', async () => {
    const fast = { topic, consumerGroup: `fast-${randomUUID()}` };
    const slow = { topic, consumerGroup: `slow-${randomUUID()}` };
    const both = () => Promise.all([reader.read('ns/fast', fast), reader.read('ns/slow', slow)]);
    await push(5);
    await both();
    now += 20_000;
    await push(5);
    await both();
    // The fast group is done with the first five and one more; the slow one with only one.
    await commit(fast.consumerGroup, 6);
    await commit(slow.consumerGroup, 1);
    now += 10_000;
    // Fast first: with a log shared by topic, its reading would prune what dates the slow group's backlog.
    const fastReading = await reader.read('ns/fast', fast);
    const slowReading = await reader.read('ns/slow', slow);
    expect(fastReading).to.deep.equal({ ok: true, totalPending: 4, oldestWaitingSeconds: 10, partitions: 1 });
    expect(slowReading).to.deep.equal({ ok: true, totalPending: 9, oldestWaitingSeconds: 30, partitions: 1 });
  });

  // A producer of its own: a client that targeted a deleted topic fails its next sends.
  const sendOnce = async (to: string, partitions: number) => {
    const own = new Kafka({ clientId: 'operator-test', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    const p = own.producer();
    await p.connect();
    try {
      await p.send({
        topic: to,
        messages: Array.from({ length: partitions }, (_, i) => ({ partition: i, value: '{}' })),
      });
    } finally {
      await p.disconnect();
    }
  };

  it('reads the partition count of the topic with the lag (the workers’ ceiling)', async () => {
    const wide = `docx-import.jobs.v1.test-${randomUUID()}`;
    await admin.createTopics({ topics: [{ topic: wide, numPartitions: 6 }], waitForLeaders: true });
    try {
      await sendOnce(wide, 3);
      const reading = await reader.read('ns/wide', { topic: wide, consumerGroup: `wide-${randomUUID()}` });
      expect(reading).to.deep.include({ ok: true, totalPending: 3, partitions: 6 });
    } finally {
      await admin.deleteTopics({ topics: [wide] }).catch(() => undefined);
    }
  });

  it("reads what the queue's dead-letter topic holds (the work items the workers gave up on), and no figure without one", async () => {
    const queue = `docx-import.jobs.v1.test-${randomUUID()}`;
    await admin.createTopics({
      topics: [
        { topic: queue, numPartitions: 1 },
        { topic: `${queue}.dlq`, numPartitions: 2 },
      ],
      waitForLeaders: true,
    });
    try {
      await sendOnce(`${queue}.dlq`, 2);
      const reading = await reader.read('ns/dlq', { topic: queue, consumerGroup: `dlq-${randomUUID()}` });
      expect(reading).to.deep.include({ ok: true, totalPending: 0, deadLetters: 2 });
      const bare = await reader.read('ns/bare', { topic, consumerGroup: `bare-${randomUUID()}` });
      expect(bare.ok).to.equal(true);
      expect(bare).to.not.have.property('deadLetters');
    } finally {
      await admin.deleteTopics({ topics: [queue, `${queue}.dlq`] }).catch(() => undefined);
    }
  });

  it('starts a forgotten job over: its backlog is dated from the next reading', async () => {
    const queue = { topic, consumerGroup: `gone-${randomUUID()}` };
    await reader.read('ns/gone', queue);
    now += 15_000;
    expect(await reader.read('ns/gone', queue)).to.include({ oldestWaitingSeconds: 15 });
    reader.forget('ns/gone');
    expect(await reader.read('ns/gone', queue)).to.include({ oldestWaitingSeconds: 0 });
  });
});
