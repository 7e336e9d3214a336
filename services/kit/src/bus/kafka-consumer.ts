import type { Consumer, ConsumerConfig, EachMessagePayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from '../core/index.js';
import { backoffMs } from '../core/index.js';
import type { BusMessage, ReceivedMessage, RetryPolicy, SubscribeOptions, Subscription } from './kafka-types.js';

export type { RetryPolicy } from './kafka-types.js';

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ attempts: 5, initialMs: 200, maxMs: 10_000 });

/**
 * Thrown by a handler (or by the kit for a value that is not an event) when retrying cannot help:
 * the message goes to the dead-letter topic at once.
 */
export class PoisonMessageError extends Error {
  override name = 'PoisonMessageError';
}

/** Thrown out of a handler's retries when the consumer stops: the offset stays uncommitted. */
class ConsumerStoppingError extends Error {
  override name = 'ConsumerStoppingError';
}

export const DLQ_HEADERS = {
  topic: 'x-dlq-original-topic',
  partition: 'x-dlq-original-partition',
  offset: 'x-dlq-original-offset',
  group: 'x-dlq-consumer-group',
  error: 'x-dlq-error',
  attempts: 'x-dlq-attempts',
  failedAt: 'x-dlq-failed-at',
} as const;

const MAX_ERROR_HEADER = 1000;

/** The dead-letter copy: the original key, value and headers, plus where it came from and why. */
export function deadLetterMessage(
  m: ReceivedMessage,
  failure: { error: Error; attempts: number; now: Date },
): BusMessage {
  return {
    key: m.key,
    value: m.value,
    headers: {
      ...m.headers,
      [DLQ_HEADERS.topic]: m.topic,
      [DLQ_HEADERS.partition]: String(m.partition),
      [DLQ_HEADERS.offset]: m.offset,
      [DLQ_HEADERS.group]: m.groupId ?? '',
      [DLQ_HEADERS.error]: `${failure.error.name}: ${failure.error.message}`.slice(0, MAX_ERROR_HEADER),
      [DLQ_HEADERS.attempts]: String(failure.attempts),
      [DLQ_HEADERS.failedAt]: failure.now.toISOString(),
    },
  };
}

/** Lets a stop cut a backoff wait short instead of sitting out the whole delay. */
class StopSignal {
  stopped = false;
  private readonly wakers = new Set<() => void>();

  stop(): void {
    this.stopped = true;
    for (const wake of this.wakers) wake();
  }

  /** Resolves true after `ms`, or false as soon as the consumer stops. */
  sleep(ms: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (full: boolean) => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve(full);
      };
      const wake = () => done(false);
      const timer = setTimeout(() => done(true), ms);
      this.wakers.add(wake);
    });
  }
}

export interface ConsumerDeps {
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  logger: Logger;
  /** A logical topic or group name as it is on the wire (the bus's topic prefix); identity when absent. */
  wire?: (name: string) => string;
  /** Told the (logical) dead-letter topic each time a message is dead-lettered (a metric). */
  onDeadLettered?: (dlq: string) => void;
}

interface Runtime extends ConsumerDeps {
  sub: SubscribeOptions;
  policy: RetryPolicy;
  dlq: string | undefined;
  heartbeatEveryMs: number;
  signal: StopSignal;
}

/**
 * kafkajs sends heartbeats only between messages; a handler longer than the session timeout
 * would otherwise be thrown out of the group and its partition handed to another member.
 */
async function withHeartbeats<T>(heartbeat: () => Promise<void>, everyMs: number, work: () => Promise<T>): Promise<T> {
  let pending = false;
  const timer = setInterval(() => {
    if (pending) return;
    pending = true;
    // A failed heartbeat (a rebalance under way) is kafkajs's to handle after this message.
    heartbeat()
      .catch(() => undefined)
      .finally(() => (pending = false));
  }, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

async function attemptOnce(rt: Runtime, m: ReceivedMessage, heartbeat: () => Promise<void>): Promise<Error | null> {
  try {
    await withHeartbeats(heartbeat, rt.heartbeatEveryMs, () => rt.sub.handle(m));
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function where(m: ReceivedMessage) {
  return { topic: m.topic, partition: m.partition, offset: m.offset, groupId: m.groupId };
}

async function pause(rt: Runtime, heartbeat: () => Promise<void>, ms: number): Promise<void> {
  const full = await withHeartbeats(heartbeat, rt.heartbeatEveryMs, () => rt.signal.sleep(ms));
  if (!full) throw new ConsumerStoppingError('consumer stopping: message left uncommitted for redelivery');
}

interface Delivery {
  m: ReceivedMessage;
  heartbeat: () => Promise<void>;
}

async function deadLetter(rt: Runtime, { m, heartbeat }: Delivery, error: Error, attempts: number) {
  const copy = deadLetterMessage(m, { error, attempts, now: new Date() });
  // A broker outage must not drop the message: keep trying until the DLQ has it or we stop.
  for (let tries = 1; ; tries++) {
    try {
      await rt.publish(rt.dlq!, [copy]);
      rt.onDeadLettered?.(rt.dlq!);
      rt.logger.error({ ...where(m), attempts, dlq: rt.dlq, err: error.message }, 'kafka: message dead-lettered');
      return;
    } catch (err) {
      rt.logger.error({ ...where(m), dlq: rt.dlq, err: (err as Error).message }, 'kafka: dead-letter publish failed');
      await pause(rt, heartbeat, backoffMs(rt.policy, tries));
    }
  }
}

async function handleWithRetries(rt: Runtime, payload: EachMessagePayload): Promise<void> {
  const m = toReceived(payload, rt.sub);
  for (let attempt = 1; ; attempt++) {
    const error = await attemptOnce(rt, m, payload.heartbeat);
    if (!error) return;
    if (rt.signal.stopped) throw new ConsumerStoppingError(`consumer stopping after a failure: ${error.message}`);
    const exhausted = attempt >= rt.policy.attempts || error instanceof PoisonMessageError;
    if (exhausted && rt.dlq) return deadLetter(rt, { m, heartbeat: payload.heartbeat }, error, attempt);
    rt.logger.warn({ ...where(m), attempt, err: error.message }, 'kafka: handler failed, retrying');
    await pause(rt, payload.heartbeat, backoffMs(rt.policy, attempt));
  }
}

// One topic per subscription: the handler gets the logical name it subscribed with, whatever the prefix.
function toReceived(p: EachMessagePayload, sub: SubscribeOptions): ReceivedMessage {
  const message: KafkaMessage = p.message;
  return {
    topic: sub.topic,
    partition: p.partition,
    offset: message.offset,
    groupId: sub.groupId,
    key: message.key ? message.key.toString('utf8') : null,
    value: message.value ? message.value.toString('utf8') : null,
    headers: decodeHeaders(message.headers),
  };
}

export function decodeHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v !== undefined && v !== null) out[k] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  }
  return out;
}

function runtimeFor(sub: SubscribeOptions, deps: ConsumerDeps, signal: StopSignal): Runtime {
  const heartbeatInterval = sub.session?.heartbeatInterval ?? 3000;
  return {
    ...deps,
    sub,
    signal,
    policy: { ...DEFAULT_RETRY, ...sub.retry },
    dlq: sub.deadLetterTopic === false ? undefined : (sub.deadLetterTopic ?? `${sub.topic}.dlq`),
    // kafkajs sends at most one heartbeat per heartbeatInterval; asking twice as often keeps the gap at one interval.
    heartbeatEveryMs: Math.max(100, Math.floor(heartbeatInterval / 2)),
  };
}

function consumerConfig(sub: SubscribeOptions, wire: (name: string) => string): ConsumerConfig {
  const s = sub.session ?? {};
  return {
    groupId: wire(sub.groupId),
    allowAutoTopicCreation: false,
    sessionTimeout: s.sessionTimeout ?? 30_000,
    rebalanceTimeout: s.rebalanceTimeout ?? 60_000,
    heartbeatInterval: s.heartbeatInterval ?? 3000,
    maxWaitTimeInMs: s.fetchMaxWaitMs ?? 5000,
  };
}

function reportState(consumer: Consumer, sub: SubscribeOptions): void {
  const report = sub.onState;
  if (!report) return;
  consumer.on(consumer.events.GROUP_JOIN, () => report({ phase: 'joined' }));
  consumer.on(consumer.events.CRASH, (e) =>
    report({ phase: 'crashed', error: e.payload.error.message, restarting: e.payload.restart }),
  );
}

/** Joins the group and runs the handler; stop() lets in-flight messages finish, commits and leaves. */
export async function startConsumer(kafka: Kafka, sub: SubscribeOptions, deps: ConsumerDeps): Promise<Subscription> {
  const signal = new StopSignal();
  const rt = runtimeFor(sub, deps, signal);
  const wire = deps.wire ?? ((name: string) => name);
  const consumer: Consumer = kafka.consumer(consumerConfig(sub, wire));
  reportState(consumer, sub);
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: wire(sub.topic), fromBeginning: sub.fromBeginning ?? false });
    await consumer.run({
      partitionsConsumedConcurrently: Math.max(1, sub.concurrency ?? 1),
      ...(sub.commitEachMessage ? { autoCommitThreshold: 1 } : {}),
      eachMessage: (payload) => handleWithRetries(rt, payload),
    });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        signal.stop();
        // kafkajs waits for the batch in hand, commits what was handled and leaves the group.
        await consumer.disconnect();
      })();
      return stopped;
    },
  };
}
