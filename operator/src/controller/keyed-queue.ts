import { backoffMs as kitBackoffMs, type BackoffSteps } from '../../../services/kit/src/core/timing.js';

/** Schedules a callback; injected so that tests drive retries without real time. */
export type Schedule = (fn: () => void, ms: number) => { cancel(): void };

export interface KeyedQueueOptions {
  /** Delay before retrying a key whose work failed `attempt` times in a row. */
  backoff?: (attempt: number) => number;
  schedule?: Schedule;
  onError?: (key: string, err: unknown, attempt: number) => void;
}

interface KeyState {
  running: boolean;
  /** Another enqueue arrived while running: run once more afterwards. */
  dirty: boolean;
  failures: number;
  retry?: { cancel(): void };
}

/** Exponential backoff from 250 ms, capped at 30 s (the kit's formula, the operator's numbers). */
const RETRY_STEPS: BackoffSteps = { initialMs: 250, maxMs: 30_000 };

export function backoffMs(attempt: number): number {
  return kitBackoffMs(RETRY_STEPS, attempt);
}

const realSchedule: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
};

/**
 * One reconcile at a time per key (Pepr's keyed queue): events for a key that is being reconciled
 * collapse into one more run, so a burst of watch events costs at most two reconciles and two
 * reconciles of one object never race. Different keys run concurrently.
 */
export class KeyedQueue {
  private readonly states = new Map<string, KeyState>();
  private readonly idle = new Set<() => void>();
  private stopped = false;
  private readonly backoff: (attempt: number) => number;
  private readonly schedule: Schedule;

  constructor(
    private readonly work: (key: string) => Promise<void>,
    private readonly opts: KeyedQueueOptions = {},
  ) {
    this.backoff = opts.backoff ?? backoffMs;
    this.schedule = opts.schedule ?? realSchedule;
  }

  enqueue(key: string): void {
    if (this.stopped) return;
    const state = this.states.get(key) ?? { running: false, dirty: false, failures: 0 };
    this.states.set(key, state);
    if (state.running) {
      state.dirty = true;
      return;
    }
    state.retry?.cancel();
    state.retry = undefined;
    void this.run(key, state);
  }

  /** Drops a key's retry and failure count (the object is gone). */
  forget(key: string): void {
    const state = this.states.get(key);
    state?.retry?.cancel();
    if (state && !state.running) this.states.delete(key);
  }

  isRunning(key: string): boolean {
    return this.states.get(key)?.running === true;
  }

  /** Resolves when no key is running; used on shutdown and leadership loss. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.states.values()) state.retry?.cancel();
    await this.whenIdle();
  }

  whenIdle(): Promise<void> {
    if (![...this.states.values()].some((s) => s.running)) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private async run(key: string, state: KeyState): Promise<void> {
    state.running = true;
    do {
      state.dirty = false;
      await this.attempt(key, state);
    } while (state.dirty && !this.stopped);
    state.running = false;
    if (state.failures === 0 && !state.retry) this.states.delete(key);
    this.notifyIdle();
  }

  private async attempt(key: string, state: KeyState): Promise<void> {
    try {
      await this.work(key);
      state.failures = 0;
      state.retry?.cancel();
      state.retry = undefined;
    } catch (err) {
      state.failures += 1;
      state.retry?.cancel();
      this.opts.onError?.(key, err, state.failures);
      // A newer event will run the key anyway; the retry covers a world that stays quiet.
      if (!this.stopped) state.retry = this.schedule(() => this.retryKey(key), this.backoff(state.failures));
    }
  }

  private retryKey(key: string): void {
    const state = this.states.get(key);
    if (state) state.retry = undefined;
    this.enqueue(key);
  }

  private notifyIdle(): void {
    if ([...this.states.values()].some((s) => s.running)) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }
}
