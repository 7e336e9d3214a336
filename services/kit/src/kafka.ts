import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Producer, type LogEntry } from 'kafkajs';
import type { Logger } from './logging.js';
import { PoisonMessageError, startConsumer, type RetryPolicy } from './kafka-consumer.js';

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
  /** The consumer group that received it (absent on messages not read through a subscription). */
  groupId?: string;
}

/**
 * The kit's event bus: services see this interface, never kafkajs, so the client can change
 * without touching a service.
 */
export interface EventBus {
  ensureTopics(topics: readonly TopicDeclaration[]): Promise<void>;
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** Raw records: the handler gets key, value and headers as strings. */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /**
   * Platform events: each value is parsed into the CloudEvents-named envelope before the handler
   * sees it; a value that is not an event goes to the dead-letter topic at once. Null values
   * (compaction tombstones, never published by the platform) are skipped.
   */
  consume<T = unknown>(opts: ConsumeOptions<T>): Promise<Subscription>;
  ping(): Promise<void>;
  /** Stops every subscription (in-flight handlers finish, offsets commit), then the producer. */
  close(): Promise<void>;
}

/** Consumer-group timing; kafkajs defaults (30 s, 60 s, 3 s, 5 s) when omitted. */
export interface SessionOptions {
  sessionTimeout?: number;
  rebalanceTimeout?: number;
  heartbeatInterval?: number;
  /** How long a fetch waits on the broker for new records; a stop waits for the fetch in flight. */
  fetchMaxWaitMs?: number;
}

export interface SubscribeOptions {
  topic: string;
  groupId: string;
  fromBeginning?: boolean;
  handle: (message: ReceivedMessage) => Promise<void>;
  /**
   * Partitions handled at once (default 1). Messages of one partition stay sequential, so the
   * events of one key keep their order whatever the concurrency.
   */
  concurrency?: number;
  /** Retries of a failing handler, in place (the partition waits, so order holds). */
  retry?: Partial<RetryPolicy>;
  /**
   * Where a message goes once its retries are spent (default `<topic>.dlq`, which must exist:
   * subscribing fails otherwise). `false` retries without bound instead.
   */
  deadLetterTopic?: string | false;
  session?: SessionOptions;
  /**
   * Commit after every handled message instead of once per fetched batch, so the group's lag is
   * exactly what is waiting or in hand (a work queue scaled on its lag needs that).
   */
  commitEachMessage?: boolean;
}

export type EventHandler<T = unknown> = (event: PlatformEvent<T>, message: ReceivedMessage) => Promise<void>;

export interface ConsumeOptions<T = unknown> extends Omit<SubscribeOptions, 'handle'> {
  handle: EventHandler<T>;
}

export interface Subscription {
  /** Lets in-flight handlers finish, commits their offsets and leaves the group; idempotent. */
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

/** Reads a record's value as a platform event; throws PoisonMessageError when it is not one. */
export function parseEvent<T = unknown>(value: string): PlatformEvent<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new PoisonMessageError('value is not JSON');
  }
  const e = parsed as Partial<PlatformEvent<T>> | null;
  if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || typeof e.type !== 'string')
    throw new PoisonMessageError('value is not a platform event (id and type are required)');
  return e as PlatformEvent<T>;
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
}

/** kafkajs behind the EventBus interface: one idempotent producer, one consumer per subscription. */
export function createKafkaBus(opts: KafkaBusOptions): EventBus {
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => logKafka(opts.logger, entry),
    retry: { retries: 5, initialRetryTime: 200 },
  });
  let producer: Promise<Producer> | undefined;
  let admin: Promise<Admin> | undefined;
  const subscriptions = new Set<Subscription>();

  // One connect shared by concurrent callers (several consumers may dead-letter at once); a
  // failed connect is forgotten so the next call tries again.
  function getProducer(): Promise<Producer> {
    if (!producer) {
      const p = connected(kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false }));
      producer = p;
      p.catch(() => producer === p && (producer = undefined));
    }
    return producer;
  }
  function getAdmin(): Promise<Admin> {
    if (!admin) {
      const a = connected(kafka.admin());
      admin = a;
      a.catch(() => admin === a && (admin = undefined));
    }
    return admin;
  }

  const bus: EventBus = {
    async ensureTopics(topics) {
      const a = await getAdmin();
      const existing = new Set(await a.listTopics());
      const missing = topics.filter((t) => !existing.has(t.name));
      if (missing.length === 0) return;
      // kafkajs's own waitForLeaders gives up on the UNKNOWN_TOPIC_OR_PARTITION a busy KRaft broker
      // answers just after creating a topic; waitForLeaders below polls past it instead.
      await a.createTopics({
        waitForLeaders: false,
        timeout: TOPIC_READY_MS,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          configEntries: [{ name: 'cleanup.policy', value: t.cleanupPolicy ?? 'delete' }],
        })),
      });
      await waitForLeaders(
        a,
        missing.map((t) => t.name),
      );
    },
    async publish(topic, messages) {
      const pending = getProducer();
      const record = {
        topic,
        acks: -1,
        messages: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      };
      try {
        await pending.then((p) => p.send(record));
      } catch (err) {
        // kafkajs's idempotent producer advances its sequence numbers for a send that failed (a
        // broker stopped mid-send), after which every send fails with OUT_OF_ORDER_SEQUENCE_NUMBER
        // for good. A fresh producer (new producer id) is the way out; callers resend in order.
        if (producer === pending) producer = undefined;
        void pending.then((c) => c.disconnect()).catch(() => undefined);
        opts.logger.warn({ err, topic }, 'kafka: send failed; the next send uses a new producer');
        throw err;
      }
    },
    async subscribe(sub) {
      await assertTopicsExist(await getAdmin(), sub);
      const s = await startConsumer(kafka, sub, { publish: bus.publish, logger: opts.logger });
      const tracked: Subscription = {
        async stop() {
          await s.stop();
          subscriptions.delete(tracked);
        },
      };
      subscriptions.add(tracked);
      return tracked;
    },
    consume(sub) {
      return bus.subscribe({
        ...sub,
        handle: async (m) => {
          if (m.value !== null) await sub.handle(parseEvent(m.value), m);
        },
      });
    },
    async ping() {
      const a = await getAdmin();
      await a.describeCluster();
    },
    async close() {
      // Consumers first: a handler finishing its retries may still dead-letter through the producer.
      await Promise.allSettled([...subscriptions].map((s) => s.stop()));
      const clients = [producer, admin];
      producer = undefined;
      admin = undefined;
      await Promise.allSettled(clients.map(async (c) => (await c)?.disconnect()));
    },
  };
  return bus;
}

const TOPIC_READY_MS = 30_000;

async function waitForLeaders(admin: Admin, names: string[]): Promise<void> {
  const deadline = Date.now() + TOPIC_READY_MS;
  for (;;) {
    const ready = await admin.fetchTopicMetadata({ topics: names }).then(
      ({ topics }) => topics.length === names.length && topics.every((t) => t.partitions.every((p) => p.leader >= 0)),
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline)
      throw new Error(`topics without a leader after ${TOPIC_READY_MS} ms: ${names.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function connected<C extends { connect(): Promise<void> }>(client: C): Promise<C> {
  await client.connect();
  return client;
}

// kafkajs answers a subscription to a missing topic with an unhandled rejection inside run(), which
// would crash the process; a clear error from subscribe() is what the caller can act on.
async function assertTopicsExist(admin: Admin, sub: SubscribeOptions): Promise<void> {
  const existing = new Set(await admin.listTopics());
  if (!existing.has(sub.topic))
    throw new Error(`topic ${sub.topic} does not exist: its producer creates it at start from kafka/topics.json`);
  if (sub.deadLetterTopic === false) return;
  const dlq = sub.deadLetterTopic ?? `${sub.topic}.dlq`;
  if (!existing.has(dlq))
    throw new Error(`dead-letter topic ${dlq} does not exist: declare it in kafka/topics.json and create it at start`);
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
