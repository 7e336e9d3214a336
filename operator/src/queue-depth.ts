import { Kafka, logLevel, type Admin, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import type { KafkaConnection } from '../../services/kit/src/core/index.js';
import { withTimeout } from '../../services/kit/src/core/timing.js';
import type { QueueSpec } from './api/docx-import-job.js';
import { ArrivalLogs, partitionLags, totalLag, type QueueReading } from './queue-lag.js';

export interface QueueDepthReader {
  /**
   * The lag of `queue` as seen for `owner` (a DocxImportJob key, which owns its arrival samples).
   * Never throws: a failure is a reading with a reason, so the decision can keep the workers.
   */
  read(owner: string, queue: QueueSpec): Promise<QueueReading>;
  /** Drops the owner's arrival samples (its DocxImportJob is gone). */
  forget(owner: string): void;
  close(): Promise<void>;
}

export interface QueueDepthOptions {
  brokers: string[];
  /** TLS and SASL (the kit's kafkaConnection(config)); none: plaintext. */
  connection?: KafkaConnection;
  logger: Logger;
  /** Upper bound on one reading, so a hung broker cannot stall a reconcile. */
  timeoutMs?: number;
  /** Clock for the oldest-waiting age (ms); tests pass their own. */
  now?: () => number;
}

/** Queue depth = the consumer group's lag on the topic, read with the kafkajs admin client. */
export function createQueueDepthReader(opts: QueueDepthOptions): QueueDepthReader {
  const kafka = new Kafka({
    clientId: 'docx-import-operator',
    brokers: opts.brokers,
    ...opts.connection,
    connectionTimeout: 3000,
    requestTimeout: 5000,
    // Few, short retries: the resync retries anyway, and a reading must end within the reconcile.
    retry: { retries: 1, initialRetryTime: 200, maxRetryTime: 1000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => opts.logger.debug({ kafka: entry.log }, entry.log.message),
  });
  const arrivals = new ArrivalLogs();
  const clock = opts.now ?? Date.now;
  let admin: Promise<Admin> | undefined;
  const timeoutMs = opts.timeoutMs ?? 8000;

  const connected = (): Promise<Admin> => {
    admin ??= (async () => {
      const a = kafka.admin();
      await a.connect();
      return a;
    })();
    return admin;
  };

  const reset = async (): Promise<void> => {
    const stale = admin;
    admin = undefined;
    await stale?.then((a) => a.disconnect()).catch(() => undefined);
  };

  async function measure(owner: string, queue: QueueSpec): Promise<QueueReading> {
    const a = await connected();
    const [topicOffsets, groupOffsets, deadLetters] = await Promise.all([
      a.fetchTopicOffsets(queue.topic),
      a.fetchOffsets({ groupId: queue.consumerGroup, topics: [queue.topic] }),
      deadLetterCount(a, `${queue.topic}.dlq`),
    ]);
    const committed = groupOffsets.find((t) => t.topic === queue.topic)?.partitions ?? [];
    const lags = partitionLags(topicOffsets, committed);
    const log = arrivals.for(owner, queue);
    const now = clock();
    log.record(lags, now);
    return {
      ok: true,
      totalPending: totalLag(lags),
      oldestWaitingSeconds: log.oldestPendingSeconds(lags, now),
      // fetchTopicOffsets answers one entry per partition of the topic's metadata: no second round trip.
      partitions: topicOffsets.length,
      ...(deadLetters === undefined ? {} : { deadLetters }),
    };
  }

  return {
    async read(owner, queue) {
      const attempt = async (): Promise<QueueReading> => {
        try {
          return await withTimeout(measure(owner, queue), timeoutMs, `no answer from Kafka within ${timeoutMs} ms`);
        } catch (err) {
          await reset();
          return failure(err, queue);
        }
      };
      const first = await attempt();
      // kafkajs's admin keeps every topic it was asked about in its metadata requests, so a topic
      // deleted since (another job's) fails this one's reading too: a fresh client settles it.
      return !first.ok && first.reason === 'TopicNotFound' ? attempt() : first;
    },
    forget: (owner) => arrivals.forget(owner),
    close: reset,
  };
}

/**
 * What the dead-letter topic holds, or undefined without one: a reading never fails for want of it.
 * Asked only of a listed topic (kafkajs keeps a topic it was asked about in its metadata requests,
 * and an unknown one there fails the readings that follow).
 */
async function deadLetterCount(admin: Admin, dlq: string): Promise<number | undefined> {
  const topics = await admin.listTopics().catch(() => [] as string[]);
  if (!topics.includes(dlq)) return undefined;
  return admin.fetchTopicOffsets(dlq).then(retained, () => undefined);
}

/** Messages a topic retains: the sum over partitions of high watermark minus log start. */
export function retained(partitions: ReadonlyArray<{ high: string; low: string }>): number {
  return partitions.reduce((n, p) => n + Math.max(0, Number(p.high) - Number(p.low)), 0);
}

function failure(err: unknown, queue: QueueSpec): QueueReading {
  const e = err as { type?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (e?.type === 'UNKNOWN_TOPIC_OR_PARTITION' || /does not host this topic-partition|unknown topic/i.test(message)) {
    return { ok: false, reason: 'TopicNotFound', message: `Topic ${queue.topic} does not exist: ${message}` };
  }
  return {
    ok: false,
    reason: 'KafkaUnavailable',
    message: `Could not read the lag of group ${queue.consumerGroup} on ${queue.topic}: ${message}`,
  };
}
