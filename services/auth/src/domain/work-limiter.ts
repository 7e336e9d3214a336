/**
 * Bounds CPU-heavy work (bcrypt): at most `concurrency` run at once and at most `queue` wait; the
 * next caller is refused at once rather than joining an unbounded line that would only time out.
 */
export class WorkLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  /** Runs `fn` when a slot frees; returns null without running it when the queue is full. */
  async run<T>(fn: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return { value: await fn() };
    } finally {
      this.release();
    }
  }

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next) next();
    else this.running -= 1;
  }
}
