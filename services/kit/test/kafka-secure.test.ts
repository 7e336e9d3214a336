// The kit's Kafka clients through the secure local profile (SASL_SSL, SCRAM-SHA-512, a generated
// CA): configured only from KAFKA_* variables, as every service, worker and the CLI are.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Router, type Express } from 'express';
import Joi from 'joi';
import { ConfigResourceTypes, Kafka, logLevel, type Admin } from 'kafkajs';
import { TOPICS, topicSpec } from '../../../kafka/topics.js';
import {
  commonConfig,
  createLogger,
  kafkaBusOptions,
  kafkaConfig,
  kafkaConnection,
  loadConfig,
  type CommonConfig,
  type KafkaClientConfig,
} from '../src/core/index.js';
import {
  createKafkaBus,
  DLQ_HEADERS,
  topicPartitionCount,
  type EventBus,
  type ReceivedMessage,
} from '../src/bus/index.js';
import { createOutbox, createOutboxRelay, type MongoHandle } from '../src/data/index.js';
import { createApp } from '../src/http/index.js';
import { startService, type ServiceDefinition } from '../src/service/index.js';
import { LogCapture } from './support/log-capture.js';
import { openDb, silent, thingModel, waitFor, writeThing, type ThingEvent } from './support/outbox-fixture.js';
import { startSecureInfra } from './support/secure-infra.js';
import { testDbName, testMongoUri } from './support/servers.js';

const kafkaOnly = Joi.object<KafkaClientConfig>(kafkaConfig);

describe('kit Kafka through SASL_SSL with SCRAM-SHA-512 and a private CA (secure profile)', function () {
  this.timeout(180000);
  let env: Record<string, string>;
  let db: MongoHandle;
  let admin: Admin;
  const buses: EventBus[] = [];
  // Each run has its own prefix, so the catalogue's real names can be created and checked here.
  const prefix = `kit-secure-${process.pid}-${randomUUID().slice(0, 8)}.`;

  /** The secure profile's KAFKA_* lines (SCRAM-SHA-512 pinned) plus `extra`, validated like a service's. */
  function secureConfig(extra: Record<string, string> = {}): KafkaClientConfig {
    return loadConfig(kafkaOnly, { ...env, KAFKA_SASL_MECHANISM: 'scram-sha-512', ...extra });
  }

  function secureBus(extra: Record<string, string> = {}, logger = silent): EventBus {
    const bus = createKafkaBus(kafkaBusOptions(secureConfig(extra), `kit-secure-${process.pid}`, logger));
    buses.push(bus);
    return bus;
  }

  before(async () => {
    env = await startSecureInfra();
    db = await openDb(testMongoUri(), testDbName('kit', 'kafka-secure'));
    const config = secureConfig();
    admin = new Kafka({
      clientId: 'kit-secure-admin',
      brokers: env.KAFKA_BROKERS!.split(','),
      ...kafkaConnection(config),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
  });
  after(async () => {
    await Promise.allSettled(buses.map((b) => b.close()));
    await admin?.disconnect();
    await db?.conn.dropDatabase();
    await db?.conn.close();
  });

  async function topicConfig(topic: string): Promise<Map<string, { value: string; isDefault: boolean }>> {
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }],
    });
    return new Map(
      resources[0]!.configEntries.map((e) => [e.configName, { value: String(e.configValue), isDefault: e.isDefault }]),
    );
  }

  it('creates the declared topics under the prefix with the replication, min.insync.replicas and retention policy', async () => {
    const bus = secureBus({
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '1',
      KAFKA_TOPIC_RETENTION_MS: '3600000',
      KAFKA_TOPICS_JSON: JSON.stringify({ [TOPICS.docxImportJobs]: { partitions: 8, retentionMs: 7200000 } }),
    });
    const declared = [TOPICS.docxImportJobs, TOPICS.docxImportJobsDlq, TOPICS.identityUserChanged].map(topicSpec);
    await bus.ensureTopics(declared);

    const names = new Set(await admin.listTopics());
    for (const t of declared) {
      expect(names.has(`${prefix}${t.name}`), `${prefix}${t.name} exists`).to.equal(true);
      expect(names.has(t.name) && !t.name.startsWith(prefix), `no unprefixed ${t.name} created`).to.equal(false);
    }
    expect(await topicPartitionCount(admin, `${prefix}${TOPICS.docxImportJobs}`)).to.equal(8);
    expect(await bus.partitionCount(TOPICS.docxImportJobs)).to.equal(8);
    expect(await bus.partitionCount(TOPICS.docxImportJobsDlq)).to.equal(1);
    expect(await bus.partitionCount('no-such-topic.v1')).to.equal(undefined);

    const jobs = await topicConfig(`${prefix}${TOPICS.docxImportJobs}`);
    expect(jobs.get('min.insync.replicas')).to.include({ value: '1', isDefault: false });
    expect(jobs.get('retention.ms')).to.include({ value: '7200000', isDefault: false });
    expect(jobs.get('cleanup.policy')).to.include({ value: 'delete' });
    const dlq = await topicConfig(`${prefix}${TOPICS.docxImportJobsDlq}`);
    expect(dlq.get('retention.ms')).to.include({ value: '3600000', isDefault: false });
    const users = await topicConfig(`${prefix}${TOPICS.identityUserChanged}`);
    expect(users.get('cleanup.policy')).to.include({ value: 'compact' });
    expect(users.get('retention.ms')?.isDefault, 'a compacted topic keeps the broker retention').to.equal(true);
  });

  it('delivers a committed outbox event to a consumer and dead-letters a failing one, prefixed on the wire only', async () => {
    const bus = secureBus({ KAFKA_TOPIC_PREFIX: prefix });
    const topic = `kit-secure.${randomUUID()}`;
    const groupId = `kit-secure-${randomUUID()}`;
    await bus.ensureTopics([
      { name: topic, partitions: 2 },
      { name: `${topic}.dlq`, partitions: 1 },
    ]);
    const outbox = createOutbox({ db, owners: [thingModel(db)], logger: silent });
    const relay = createOutboxRelay({ outbox, publish: bus.publish, pollMs: 100 });
    relay.start();
    const received: ReceivedMessage[] = [];
    const dead: ReceivedMessage[] = [];
    try {
      await bus.consume<ThingEvent>({
        topic,
        groupId,
        fromBeginning: true,
        retry: { attempts: 2, initialMs: 50, maxMs: 100 },
        handle: async (e, m) => {
          received.push(m);
          if (e.data.version === 2) throw new Error('version 2 is refused');
        },
      });
      await bus.subscribe({
        topic: `${topic}.dlq`,
        groupId: `${groupId}-dlq`,
        fromBeginning: true,
        deadLetterTopic: false,
        handle: async (m) => void dead.push(m),
      });
      const good = await writeThing(outbox, topic, 'thing-1', 1);
      const bad = await writeThing(outbox, topic, 'thing-2', 2);

      await waitFor(() => received.some((m) => m.value?.includes(good)), 'the committed event at the consumer', 60000);
      const arrived = received.find((m) => m.value?.includes(good))!;
      expect(arrived).to.include({ topic, groupId, key: 'thing-1' });
      await waitFor(
        () => dead.some((m) => m.value?.includes(bad)),
        'the refused event on the dead-letter topic',
        60000,
      );
      const copy = dead.find((m) => m.value?.includes(bad))!;
      expect(copy.topic).to.equal(`${topic}.dlq`);
      expect(copy.headers).to.include({ [DLQ_HEADERS.topic]: topic, [DLQ_HEADERS.group]: groupId });
      expect(copy.headers![DLQ_HEADERS.error]).to.include('version 2 is refused');

      // On the wire, topics and the group carry the prefix; the bare names exist nowhere.
      const names = new Set(await admin.listTopics());
      expect([names.has(`${prefix}${topic}`), names.has(`${prefix}${topic}.dlq`), names.has(topic)]).to.deep.equal([
        true,
        true,
        false,
      ]);
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId);
      expect(groups).to.include(`${prefix}${groupId}`);
      expect(groups).to.not.include(groupId);
    } finally {
      await relay.stop();
    }
  });

  it('verify mode creates nothing, names every missing or short topic in one error, and passes once they exist', async () => {
    const own = `kit-verify-${process.pid}-${randomUUID().slice(0, 8)}.`;
    const bus = secureBus({ KAFKA_TOPIC_PREFIX: own, KAFKA_TOPIC_CREATION: 'verify' });
    const declared = [TOPICS.docxImportJobs, TOPICS.docxImportJobsDlq, TOPICS.identityUserChanged].map(topicSpec);
    const failure = async () =>
      bus.ensureTopics(declared).then(
        () => 'passed',
        (err: Error) => err.message,
      );

    expect(await failure()).to.equal(
      `kafka: KAFKA_TOPIC_CREATION=verify and topics are missing or short: ` +
        `${own}docx-import.jobs.v1 (missing; needs 6 partitions, cleanup.policy=delete), ` +
        `${own}docx-import.jobs.v1.dlq (missing; needs 1 partitions, cleanup.policy=delete), ` +
        `${own}identity.user-changed.v1 (missing; needs 3 partitions, cleanup.policy=compact)`,
    );
    expect((await admin.listTopics()).filter((t) => t.startsWith(own))).to.deep.equal([]);

    // The platform team creates them, one with too few partitions.
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: `${own}docx-import.jobs.v1`, numPartitions: 2 },
        { topic: `${own}docx-import.jobs.v1.dlq`, numPartitions: 1 },
        {
          topic: `${own}identity.user-changed.v1`,
          numPartitions: 3,
          configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
        },
      ],
    });
    expect(await failure()).to.equal(
      `kafka: KAFKA_TOPIC_CREATION=verify and topics are missing or short: ${own}docx-import.jobs.v1 (has 2 partitions; needs 6)`,
    );
    // Create mode never alters an existing topic: it warns about the short one and leaves it as it is.
    const logs = new LogCapture();
    const creating = secureBus({ KAFKA_TOPIC_PREFIX: own }, createLogger({ name: 'kit-secure', destination: logs }));
    await creating.ensureTopics(declared);
    expect(await topicPartitionCount(admin, `${own}docx-import.jobs.v1`)).to.equal(2);
    const warning = logs.records().find((r) => String(r.msg).includes('fewer partitions than declared'));
    expect(warning?.topics).to.deep.equal([`${own}docx-import.jobs.v1 (has 2 partitions; needs 6)`]);

    await admin.createPartitions({ topicPartitions: [{ topic: `${own}docx-import.jobs.v1`, count: 6 }] });
    await waitFor(async () => (await failure()) === 'passed', 'verify to pass once the topic has its partitions');
    expect(await topicPartitionCount(admin, `${own}docx-import.jobs.v1`)).to.equal(6);
  });

  it('a service with wrong credentials fails start clearly, and no password reaches its log', async () => {
    const wrong = `wrong-${randomUUID()}`;
    const logs = new LogCapture();
    const def: ServiceDefinition<CommonConfig, { app: Express }> = {
      name: 'kit-secure-tiny',
      configSchema: Joi.object<CommonConfig>(commonConfig),
      dbName: testDbName('kit', 'kafka-secure-tiny'),
      async build({ bus, logger, metrics, readiness, checks }) {
        // As a real service does: its topics first, which is where Kafka is first dialled.
        await bus!.ensureTopics([{ name: `kit-secure-tiny.${randomUUID()}`, partitions: 1 }]);
        const app = createApp({
          name: 'tiny',
          version: '0',
          routes: Router(),
          checks,
          logger,
          metrics,
          openapi: {},
          readiness,
        });
        return { app };
      },
    };
    const start = (password: string) =>
      startService(def, {
        env: {
          ...env,
          NODE_ENV: 'test',
          PORT: '0',
          LOG_LEVEL: 'debug',
          MONGODB_URI: testMongoUri(),
          MONGODB_TLS: '',
          MONGODB_TLS_CA_FILE: '',
          KAFKA_SASL_MECHANISM: 'scram-sha-512',
          KAFKA_SASL_PASSWORD: password,
          KAFKA_TOPIC_PREFIX: prefix,
        },
        host: '127.0.0.1',
        logDestination: logs,
        handleSignals: false,
      });

    const err = await start(wrong).then(
      () => new Error('started with a wrong password'),
      (e: Error) => e,
    );
    expect(err.message).to.match(/SASL SCRAM SHA512 authentication failed/);
    expect(err.message).to.not.include(wrong);
    expect(logs.text).to.not.include(wrong);

    // The right password starts it; its log names the protocol and user, never the password.
    const running = await start(env.KAFKA_SASL_PASSWORD!);
    await running.shutdown('test over');
    const listening = logs.records().find((r) => r.msg === 'kit-secure-tiny service listening');
    expect(listening?.kafka).to.deep.include({ topicPrefix: prefix, topicCreation: 'create' });
    expect((listening?.kafka as { connection: string }).connection).to.match(/^SASL_SSL scram-sha-512 as \S+ \(CA /);
    expect(logs.text).to.not.include(env.KAFKA_SASL_PASSWORD!);
  });
});
