// The bus's message and subscription shapes, apart from the code that uses them, so the bus
// (kafka.ts) and its consumer loop (kafka-consumer.ts) both import them without importing each other.

/** A message as the kit publishes it: the key orders one aggregate's events. */
export interface BusMessage {
  key: string | null;
  value: string | null;
  headers?: Record<string, string>;
}

/** A message as a subscription hands it over. */
export interface ReceivedMessage extends BusMessage {
  /** The logical topic name the subscription named (the bus's topic prefix is not part of it). */
  topic: string;
  partition: number;
  offset: string;
  /** The consumer group that received it (absent on messages not read through a subscription). */
  groupId?: string;
}

/** Consumer-group timing; kafkajs defaults (30 s, 60 s, 3 s, 5 s) when omitted. */
export interface SessionOptions {
  sessionTimeout?: number;
  rebalanceTimeout?: number;
  heartbeatInterval?: number;
  /** How long a fetch waits on the broker for new records; a stop waits for the fetch in flight. */
  fetchMaxWaitMs?: number;
}

/** What a raw-record subscription reads and how it handles, retries and dead-letters it. */
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
  /**
   * Told when the consumer joins (or rejoins) its group and when it crashes: `restarting` true
   * when kafkajs restarts it on its own (a retriable error), false when it has stopped for good.
   * A worker's probes read it: a consumer that stopped is a worker that must be restarted.
   */
  onState?: (state: ConsumerState) => void;
}

/** A consumer's state as its `onState` callback hears it. */
export type ConsumerState = { phase: 'joined' } | { phase: 'crashed'; error: string; restarting: boolean };

/** A running subscription. */
export interface Subscription {
  /** Lets in-flight handlers finish, commits their offsets and leaves the group; idempotent. */
  stop(): Promise<void>;
}

/** How a failing handler is retried before its message goes to the dead-letter topic. */
export interface RetryPolicy {
  /** Attempts in all, the first one included (default 5). */
  attempts: number;
  /** Wait after the first failure; doubles per failure up to `maxMs` (defaults 200 ms and 10 s). */
  initialMs: number;
  maxMs: number;
}
