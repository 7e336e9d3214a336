// The operator's lag reader through the secure profile's SASL_SSL listener (SCRAM, a private CA):
// the connection the operator builds from KAFKA_SSL* / KAFKA_SASL* with the kit's kafkaConnection.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import Joi from 'joi';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { pino } from 'pino';
import { loadConfig, kafkaConfig, kafkaConnection, type KafkaClientConfig } from '../../services/kit/src/core/index.js';
import { startSecureInfra } from '../../services/kit/test/support/secure-infra.js';
import { createQueueDepthReader, type QueueDepthReader } from '../src/queue-depth.js';

describe('queue-depth reader through SASL_SSL (SCRAM, private CA)', function () {
  this.timeout(180_000);
  const topic = `docx-import.jobs.v1.secure-${randomUUID()}`;
  const consumerGroup = `docx-parser-secure-${randomUUID()}`;
  let config: KafkaClientConfig & { KAFKA_BROKERS: string };
  let admin: Admin;
  let reader: QueueDepthReader;
  const silent = pino({ level: 'silent' });

  before(async () => {
    const env = await startSecureInfra();
    config = loadConfig(Joi.object(kafkaConfig), env) as typeof config;
    const kafka = new Kafka({
      clientId: 'operator-secure-test',
      brokers: config.KAFKA_BROKERS.split(','),
      ...kafkaConnection(config),
      logLevel: logLevel.NOTHING,
    });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [0, 1, 2, 0].map((partition) => ({ partition, value: '{}' })) });
    await producer.disconnect();
    await admin.setOffsets({ groupId: consumerGroup, topic, partitions: [{ partition: 0, offset: '1' }] });
    reader = createQueueDepthReader({
      brokers: config.KAFKA_BROKERS.split(','),
      connection: kafkaConnection(config),
      logger: silent,
    });
  });

  after(async () => {
    await reader?.close();
    await admin?.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin?.disconnect();
  });

  it('reads the lag and the partition count with the SCRAM credentials and the CA', async () => {
    expect(config.KAFKA_SASL_MECHANISM).to.match(/^scram-sha-(256|512)$/);
    expect(config.KAFKA_SSL_CA_FILE).to.be.a('string');
    expect(await reader.read('ns/secure', { topic, consumerGroup })).to.deep.include({
      ok: true,
      totalPending: 3,
      partitions: 3,
    });
  });

  it('cannot read the same listener without them: the security is in the path, not beside it', async () => {
    const plain = createQueueDepthReader({ brokers: config.KAFKA_BROKERS.split(','), logger: silent, timeoutMs: 5000 });
    try {
      expect(await plain.read('ns/plain', { topic, consumerGroup })).to.include({
        ok: false,
        reason: 'KafkaUnavailable',
      });
    } finally {
      await plain.close();
    }
  });
});
