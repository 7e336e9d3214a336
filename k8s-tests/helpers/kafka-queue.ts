import { Kafka, logLevel, type Admin, type Consumer, type Producer } from 'kafkajs';
import { TOPICS } from '../../kafka/topics.js';
import { uniqueSuffix } from './kube.js';
import { sleep } from './wait.js';

/** The brokers the suite's root hook exported (given, or the local test Kafka it started). */
export function kafkaBrokers(): string {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) throw new Error('KAFKA_BROKERS is not set: run the suite with k8s-tests/.mocharc.json');
  return brokers;
}

/**
 * A private copy of the jobs queue: the catalogue's topic name with a unique suffix, and its own
 * consumer group, so tests sharing the broker never see each other's jobs.
 */
export class TestQueue {
  readonly topic = `${TOPICS.docxImportJobs}.test-${uniqueSuffix()}`;
  readonly group = `docx-parsers-test-${uniqueSuffix()}`;
  private readonly kafka = new Kafka({
    clientId: 'k8s-tests',
    brokers: kafkaBrokers().split(','),
    logLevel: logLevel.NOTHING,
  });
  private admin: Admin | undefined;
  private producer: Producer | undefined;
  private consumer: Consumer | undefined;
  private sent = 0;

  async create(partitions = 3): Promise<void> {
    this.admin = this.kafka.admin();
    await this.admin.connect();
    await this.createTopic(partitions);
    this.producer = this.kafka.producer();
    await this.producer.connect();
  }

  /** Resolves true once the topic exists with its leaders elected. */
  async createTopic(partitions = 3): Promise<boolean> {
    await this.requireAdmin().createTopics({
      topics: [{ topic: this.topic, numPartitions: partitions }],
      waitForLeaders: true,
    });
    return (await this.requireAdmin().listTopics()).includes(this.topic);
  }

  /** Enqueues `count` jobs, keyed by job id as the real producer does. */
  async push(count: number): Promise<void> {
    const messages = Array.from({ length: count }, () => {
      const jobId = `job-${++this.sent}`;
      return { key: jobId, value: JSON.stringify({ jobId }) };
    });
    await this.producer?.send({ topic: this.topic, messages });
  }

  /** Pending jobs as Kafka itself counts them (for cross-checking the operator's status). */
  async lag(): Promise<number> {
    const admin = this.requireAdmin();
    const [high, committed] = await Promise.all([
      admin.fetchTopicOffsets(this.topic),
      admin.fetchOffsets({ groupId: this.group, topics: [this.topic] }),
    ]);
    const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    return high.reduce((sum, p) => sum + Number(p.high) - Math.max(done.get(p.partition) ?? -1, Number(p.low)), 0);
  }

  /** Joins the workers' group as a worker would and commits after every job, until told to stop. */
  async startConsuming(onJob?: (jobId: string) => void): Promise<void> {
    this.consumer = this.kafka.consumer({ groupId: this.group, sessionTimeout: 10_000, heartbeatInterval: 1000 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      eachMessage: async ({ message }) => onJob?.(message.key?.toString() ?? ''),
    });
  }

  /**
   * A worker of the group that fetches jobs as they come but commits one at a time, one every
   * `everyMs`, round-robin over its partitions: the queue shrinks at a steady pace, one commit at a
   * time, as with a busy fleet. `stop()` leaves the group and resolves with the number of commits.
   */
  async commitSteadily(everyMs: number): Promise<{ stop(): Promise<number> }> {
    const consumer = this.kafka.consumer({ groupId: this.group, sessionTimeout: 10_000, heartbeatInterval: 1000 });
    const fetched = new Map<number, number>(); // partition -> offset after the last fetched job
    const committed = new Map<number, number>();
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        fetched.set(partition, Number(message.offset) + 1);
      },
    });
    let running = true;
    let commits = 0;
    const loop = (async () => {
      for (let i = 0; running; i++) {
        // The test topics are new: nothing committed means the group starts at offset 0.
        const ready = [...fetched].filter(([p, upTo]) => (committed.get(p) ?? 0) < upTo);
        const pick = ready[i % Math.max(1, ready.length)];
        if (pick) {
          const [partition] = pick;
          const offset = (committed.get(partition) ?? 0) + 1;
          await consumer.commitOffsets([{ topic: this.topic, partition, offset: String(offset) }]);
          committed.set(partition, offset);
          commits += 1;
        }
        await sleep(everyMs); // the workload's pace, not a wait for anything to settle
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
        await consumer.disconnect();
        return commits;
      },
    };
  }

  async stopConsuming(): Promise<void> {
    await this.consumer?.disconnect();
    this.consumer = undefined;
  }

  async deleteTopic(): Promise<void> {
    await this.requireAdmin().deleteTopics({ topics: [this.topic] });
  }

  async close(): Promise<void> {
    await this.stopConsuming().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.deleteTopics({ topics: [this.topic] }).catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
  }

  private requireAdmin(): Admin {
    if (!this.admin) throw new Error('TestQueue.create() first');
    return this.admin;
  }
}
