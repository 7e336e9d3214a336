// Kafka in the background of a process's start: the process serves with MongoDB alone while Kafka
// does not answer yet, instead of failing its start and waiting for Kubernetes to restart it.
import type { ConsumeOptions, EventBus, Subscription } from './kafka.js';
import type { Logger } from '../core/index.js';
import { backoffMs, type BackoffSteps } from '../core/index.js';

/** The waits between attempts while Kafka does not answer (default 1 s doubling to 30 s). */
export const KAFKA_START_BACKOFF: BackoffSteps = Object.freeze({ initialMs: 1000, maxMs: 30_000 });

/** A bus whose topic checks and subscriptions wait for Kafka in the background. */
export interface BackgroundKafka {
  /**
   * The bus to build with: `ensureTopics`, `subscribe` and `consume` queue their work and return at
   * once (a subscription's `stop` stops it whenever it starts); the queue runs in order, each step
   * retried with backoff until Kafka answers. Publishes, pings and reads go straight to the bus
   * (the outbox relay retries its publishes).
   */
  bus: EventBus;
  /**
   * Resolves once the queue's first pass ended, all done or at the first failure to answer (it then
   * goes on in the background); rejects when Kafka answered with a refusal (a wrong password, a
   * missing topic in verify mode): a start waiting on it fails, as it did before.
   */
  firstPass(): Promise<void>;
  /** Stops retrying and waits for the step in hand; what it started, `bus.close()` stops. */
  stop(): Promise<void>;
}

interface Step {
  what: string;
  run(): Promise<void>;
}

/** Wraps `bus` so a start neither fails nor hangs while Kafka does not answer; see BackgroundKafka. */
export function startKafkaInBackground(
  bus: EventBus,
  logger: Logger,
  backoff: BackoffSteps = KAFKA_START_BACKOFF,
): BackgroundKafka {
  const runner = new StepRunner(logger, backoff);
  const label = (opts: { groupId: string; topic: string }) => `consumer ${opts.groupId} on ${opts.topic}`;
  const background: EventBus = {
    ...bus,
    async ensureTopics(topics) {
      runner.add({ what: `topics ${topics.map((t) => t.name).join(', ')}`, run: () => bus.ensureTopics(topics) });
    },
    async subscribe(opts) {
      return deferredSubscription(runner, label(opts), () => bus.subscribe(opts));
    },
    async consume<T>(opts: ConsumeOptions<T>) {
      return deferredSubscription(runner, label(opts), () => bus.consume(opts));
    },
  };
  return { bus: background, firstPass: () => runner.firstPass(), stop: () => runner.stop() };
}

/** A subscription that starts when its step runs; stopped before, it never starts. */
function deferredSubscription(runner: StepRunner, what: string, start: () => Promise<Subscription>): Subscription {
  let real: Subscription | undefined;
  let stopped = false;
  let started: Promise<void> | undefined;
  runner.add({
    what,
    run: () => {
      if (stopped) return Promise.resolve();
      started = start().then((s) => void (real = s));
      return started;
    },
  });
  return {
    async stop() {
      stopped = true;
      await started?.catch(() => undefined);
      await real?.stop();
    },
  };
}

/** Runs steps one after another, each retried with backoff until it succeeds or the runner stops. */
class StepRunner {
  private readonly queue: Step[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  private firstPassOver = false;
  /** What failed the first pass for good (Kafka answered, and refused: a wrong password, a missing topic). */
  private fatal: Error | undefined;
  private endFirstPass!: () => void;
  private readonly firstPassEnded = new Promise<void>((resolve) => (this.endFirstPass = resolve));

  constructor(
    private readonly logger: Logger,
    private readonly backoff: BackoffSteps,
  ) {}

  /**
   * Resolves once the first pass ended (at once when nothing was ever queued); rejects when Kafka
   * answered it with a refusal, which fails the start as before.
   */
  async firstPass(): Promise<void> {
    if (this.running) await this.firstPassEnded;
    if (this.fatal) throw this.fatal;
  }

  add(step: Step): void {
    this.queue.push(step);
    this.running ??= this.drain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    this.reportFirstPassOver();
  }

  private async drain(): Promise<void> {
    // Steps added in the same tick (a service's build) run as one queue, in the order added.
    await Promise.resolve();
    for (let step = this.queue.shift(); step && !this.stopped; step = this.queue.shift()) {
      await this.attempt(step);
    }
    this.running = undefined;
    this.reportFirstPassOver();
  }

  private async attempt(step: Step): Promise<void> {
    for (let failures = 1; !this.stopped; failures++) {
      try {
        await step.run();
        if (failures > 1) this.logger.info({ step: step.what }, 'kafka: answered; started');
        return;
      } catch (err) {
        if (!this.firstPassOver && !unanswered(err)) return this.failFirstPass(err as Error);
        const waitMs = backoffMs(this.backoff, failures);
        this.logger.warn(
          { err, step: step.what, failures, waitMs },
          'kafka: not answering; retrying in the background',
        );
        this.reportFirstPassOver();
        await this.sleep(waitMs);
      }
    }
  }

  private reportFirstPassOver(): void {
    this.firstPassOver = true;
    this.endFirstPass();
  }

  private failFirstPass(err: Error): void {
    this.fatal = err;
    this.stopped = true;
    this.reportFirstPassOver();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/**
 * Whether an error means Kafka did not answer (yet): kafkajs marks what is worth retrying (a refused
 * or dropped connection, a broker still electing leaders) retriable, possibly as the cause of its
 * "retries exceeded"; an authentication failure or a missing topic is not.
 */
export function unanswered(err: unknown): boolean {
  for (let e = err as { retriable?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.retriable === true) return true;
  }
  return false;
}
