import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Producer, type LogEntry } from 'kafkajs';
import type { KafkaBusOptions, TopicDeclaration, Logger } from '../core/index.js';
import { PoisonMessageError, startConsumer } from './kafka-consumer.js';
import {
  assertTopicsExist,
  createMissingTopics,
  partitionCounts,
  physicalName,
  verifyTopics,
  type TopicNaming,
} from './kafka-topics.js';
import { Counter, type Registry } from 'prom-client';
import type { BusMessage, ReceivedMessage, SubscribeOptions, Subscription } from './kafka-types.js';

export type {
  BusMessage,
  ConsumerState,
  ReceivedMessage,
  SessionOptions,
  SubscribeOptions,
  Subscription,
} from './kafka-types.js';

/**
 * The kit's event bus: services see this interface, never kafkajs, so the client can change
 * without touching a service.
 */
export interface EventBus {
  /**
   * Creates the missing topics under the topic policy (`topicCreation: 'create'`), or only checks
   * that they exist with enough partitions and throws one error naming every missing or short one
   * (`'verify'`).
   */
  ensureTopics(topics: readonly TopicDeclaration[]): Promise<void>;
  /** A topic's partition count, undefined when it does not exist (logical name). */
  partitionCount(topic: string): Promise<number | undefined>;
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

export type EventHandler<T = unknown> = (event: PlatformEvent<T>, message: ReceivedMessage) => Promise<void>;

export interface ConsumeOptions<T = unknown> extends Omit<SubscribeOptions, 'handle'> {
  handle: EventHandler<T>;
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

/** kafkajs behind the EventBus interface: one idempotent producer, one consumer per subscription. */
export function createKafkaBus(opts: KafkaBusOptions): EventBus {
  const secret = opts.connection?.sasl && 'password' in opts.connection.sasl ? opts.connection.sasl.password : '';
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    ...opts.connection,
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => logKafka(opts.logger, entry, secret),
    retry: { retries: 5, initialRetryTime: 200 },
  });
  const naming: TopicNaming = { prefix: opts.topicPrefix ?? '' };
  const onDeadLettered = deadLetterCounter(opts.metrics);
  const wire = (name: string) => physicalName(naming, name);
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
      if (opts.topicCreation === 'verify') return verifyTopics(a, topics, naming, opts.topicPolicy);
      await createMissingTopics(a, topics, { naming, policy: opts.topicPolicy, logger: opts.logger });
    },
    async partitionCount(topic) {
      return (await partitionCounts(await getAdmin(), [wire(topic)])).get(wire(topic));
    },
    async publish(topic, messages) {
      const pending = getProducer();
      const record = {
        topic: wire(topic),
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
      const dlq = sub.deadLetterTopic === false ? undefined : (sub.deadLetterTopic ?? `${sub.topic}.dlq`);
      await assertTopicsExist(await getAdmin(), wire(sub.topic), dlq === undefined ? undefined : wire(dlq));
      const s = await startConsumer(kafka, sub, { publish: bus.publish, logger: opts.logger, wire, onDeadLettered });
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

async function connected<C extends { connect(): Promise<void> }>(client: C): Promise<C> {
  await client.connect();
  return client;
}

// kafkajs does not log credentials, but a line is scrubbed of the SASL password anyway: a future
// client version or a broker's error text must not carry it into the logs.
function logKafka(logger: Logger, entry: LogEntry, secret: string): void {
  const { message: raw, ...rest } = entry.log;
  const scrub = (text: string) => (secret ? text.replaceAll(secret, '[REDACTED]') : text);
  const message = scrub(raw);
  const fields: Record<string, unknown> = { kafka: entry.namespace };
  for (const [k, v] of Object.entries(rest)) fields[k] = typeof v === 'string' ? scrub(v) : v;
  if (entry.level <= logLevel.ERROR) logger.error(fields, `kafka: ${message}`);
  else if (entry.level === logLevel.WARN) logger.warn(fields, `kafka: ${message}`);
  else logger.debug(fields, `kafka: ${message}`);
}

/** Counts dead-lettered messages by (logical) dead-letter topic in the service's registry, if any. */
function deadLetterCounter(registry: Registry | undefined): ((dlq: string) => void) | undefined {
  if (!registry) return undefined;
  const counter = new Counter({
    name: 'kafka_dead_lettered_total',
    help: 'Messages this process moved to a dead-letter topic after their retries, by dead-letter topic',
    labelNames: ['topic'],
    registers: [registry],
  });
  return (dlq) => counter.inc({ topic: dlq });
}
