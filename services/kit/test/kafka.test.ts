import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { TOPIC_CATALOGUE, TOPICS } from '../../../kafka/topics.js';
import { ConfigResourceTypes, type Admin } from 'kafkajs';
import { buildEvent, createKafkaBus, type EventBus, type ReceivedMessage } from '../src/bus/index.js';
import { createLogger } from '../src/core/index.js';
import { testAdmin, uniqueTopic } from './support/kafka-helpers.js';
import { testKafkaBrokers } from './support/servers.js';

async function describeTopic(admin: Admin, name: string): Promise<{ partitions: number; cleanupPolicy?: string }> {
  const { topics } = await admin.fetchTopicMetadata({ topics: [name] });
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name, configNames: ['cleanup.policy'] }],
  });
  const policy = resources[0]?.configEntries.find((c) => c.configName === 'cleanup.policy')?.configValue;
  return { partitions: topics[0]?.partitions.length ?? 0, cleanupPolicy: policy };
}

describe('kit kafka bus (real broker)', function () {
  this.timeout(60000);
  let bus: EventBus;
  before(() => {
    bus = createKafkaBus({
      brokers: testKafkaBrokers(),
      clientId: 'kit-test',
      logger: createLogger({ name: 'kit', level: 'silent' }),
    });
  });
  after(() => bus.close());

  it('ensureTopics: creates topics with the declared partitions and cleanup.policy, and is idempotent', async () => {
    const compact = { name: uniqueTopic('kit-ensure'), partitions: 3, cleanupPolicy: 'compact' as const };
    const plain = { name: uniqueTopic('kit-ensure'), partitions: 2 };
    await bus.ensureTopics([compact, plain]);
    await bus.ensureTopics([compact, plain]);
    const admin = await testAdmin();
    try {
      expect(await describeTopic(admin, compact.name)).to.deep.equal({ partitions: 3, cleanupPolicy: 'compact' });
      expect(await describeTopic(admin, plain.name)).to.deep.equal({ partitions: 2, cleanupPolicy: 'delete' });
    } finally {
      await admin.disconnect();
    }
  });

  it('ensureTopics: creates every catalogue topic as kafka/topics.json declares it', async () => {
    await bus.ensureTopics(TOPIC_CATALOGUE);
    const admin = await testAdmin();
    try {
      for (const t of TOPIC_CATALOGUE)
        expect(await describeTopic(admin, t.name), t.name).to.deep.equal({
          partitions: t.partitions,
          cleanupPolicy: t.cleanupPolicy,
        });
    } finally {
      await admin.disconnect();
    }
    await bus.ping();
  });

  it('publishes keyed events and a consumer group receives them in order per key', async () => {
    const topic = `kit-test.${randomUUID()}`;
    await bus.ensureTopics([{ name: topic, partitions: 3 }]);
    const subject = `question-${randomUUID()}`;
    const sent = [1, 2, 3].map((n) =>
      buildEvent({ source: 'kit-test', type: 'thing.changed', subject, data: { n } }, new Date()),
    );
    const received: ReceivedMessage[] = [];
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const sub = await bus.subscribe({
      topic,
      groupId: `kit-test-${randomUUID()}`,
      fromBeginning: true,
      deadLetterTopic: false,
      handle: async (m) => {
        received.push(m);
        if (received.length === sent.length) done();
      },
    });
    await bus.publish(
      topic,
      sent.map((e) => ({ key: e.subject, value: JSON.stringify(e), headers: { 'ce-type': e.type } })),
    );
    await all;
    await sub.stop();
    expect(received.map((m) => (JSON.parse(m.value!) as { data: { n: number } }).data.n)).to.deep.equal([1, 2, 3]);
    expect(new Set(received.map((m) => m.partition)).size).to.equal(1);
    expect(received[0]!.headers).to.deep.equal({ 'ce-type': 'thing.changed' });
    expect(received[0]!.key).to.equal(subject);
  });

  it('publish to a topic that was never created fails instead of auto-creating it', async () => {
    const err = await bus.publish(`never-created.${randomUUID()}`, [{ key: 'k', value: 'v' }]).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
  });

  it('the typed topic names are all in the catalogue', () => {
    const names = TOPIC_CATALOGUE.map((t) => t.name);
    for (const name of Object.values(TOPICS)) expect(names).to.include(name);
  });
});
