import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer, type Producer, type LogEntry } from 'kafkajs';
import type { Logger } from './logging.js';

/** A message as the kit publishes it: the key orders one aggregate's events. */
export interface BusMessage {
  key: string | null;
  value: string | null;
  headers?: Record<string, string>;
}

export interface TopicDeclaration {
  name: string;
  partitions: number;
  cleanupPolicy?: 'delete' | 'compact';
}

export interface ReceivedMessage extends BusMessage {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * The kit's event bus: services see this interface, never kafkajs, so the client can change
 * without touching a service.
 */
export interface EventBus {
  ensureTopics(topics: readonly TopicDeclaration[]): Promise<void>;
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  topic: string;
  groupId: string;
  fromBeginning?: boolean;
  handle: (message: ReceivedMessage) => Promise<void>;
}

export interface Subscription {
  stop(): Promise<void>;
}

/** CloudEvents-named envelope of DESIGN.md. */
export interface PlatformEvent<T = unknown> {
  id: string;
  type: string;
  source: string;
  subject: string;
  time: string;
  specversion: '1.0';
  datacontenttype: 'application/json';
  data: T;
}

export interface EventSpec<T> {
  source: string;
  type: string;
  subject: string;
  data: T;
}

/** Builds the CloudEvents-named envelope; time and id are arguments so builders stay pure in tests. */
export function buildEvent<T>(spec: EventSpec<T>, now: Date, id: string = randomUUID()): PlatformEvent<T> {
  return { id, ...spec, time: now.toISOString(), specversion: '1.0', datacontenttype: 'application/json' };
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
}

/** kafkajs behind the EventBus interface: one idempotent producer, consumers per subscription. */
export function createKafkaBus(opts: KafkaBusOptions): EventBus {
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => logKafka(opts.logger, entry),
    retry: { retries: 5, initialRetryTime: 200 },
  });
  let producer: Producer | undefined;
  let admin: Admin | undefined;
  const consumers = new Set<Consumer>();

  async function getProducer(): Promise<Producer> {
    if (!producer) {
      const p = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await p.connect();
      producer = p;
    }
    return producer;
  }
  async function getAdmin(): Promise<Admin> {
    if (!admin) {
      const a = kafka.admin();
      await a.connect();
      admin = a;
    }
    return admin;
  }

  return {
    async ensureTopics(topics) {
      const a = await getAdmin();
      const existing = new Set(await a.listTopics());
      const missing = topics.filter((t) => !existing.has(t.name));
      if (missing.length === 0) return;
      await a.createTopics({
        waitForLeaders: true,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          configEntries: [{ name: 'cleanup.policy', value: t.cleanupPolicy ?? 'delete' }],
        })),
      });
    },
    async publish(topic, messages) {
      const p = await getProducer();
      await p.send({
        topic,
        acks: -1,
        messages: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      });
    },
    async subscribe(sub) {
      const consumer = kafka.consumer({ groupId: sub.groupId, allowAutoTopicCreation: false });
      await consumer.connect();
      await consumer.subscribe({ topic: sub.topic, fromBeginning: sub.fromBeginning ?? false });
      consumers.add(consumer);
      await consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          await sub.handle({
            topic,
            partition,
            offset: message.offset,
            key: message.key ? message.key.toString('utf8') : null,
            value: message.value ? message.value.toString('utf8') : null,
            headers: decodeHeaders(message.headers),
          });
        },
      });
      return {
        async stop() {
          consumers.delete(consumer);
          await consumer.disconnect();
        },
      };
    },
    async ping() {
      const a = await getAdmin();
      await a.describeCluster();
    },
    async close() {
      await Promise.allSettled([...consumers].map((c) => c.disconnect()));
      consumers.clear();
      await Promise.allSettled([producer?.disconnect(), admin?.disconnect()]);
      producer = undefined;
      admin = undefined;
    },
  };
}

function decodeHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v !== undefined && v !== null) out[k] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  }
  return out;
}

function logKafka(logger: Logger, entry: LogEntry): void {
  const { message, ...rest } = entry.log;
  const fields = { kafka: entry.namespace, ...rest };
  if (entry.level <= logLevel.ERROR) logger.error(fields, `kafka: ${message}`);
  else if (entry.level === logLevel.WARN) logger.warn(fields, `kafka: ${message}`);
  else logger.debug(fields, `kafka: ${message}`);
}

export function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
}
