interface Waiter {
  /** Hands the waiter a slot (true) or turns it away (false). */
  settle: (admitted: boolean) => void;
  timer?: NodeJS.Timeout;
}

/**
 * Bounds CPU-heavy work (bcrypt): at most `concurrency` run at once and at most `queue` wait, each
 * for at most `maxWaitMs`. The next caller, or one that waited too long, is refused rather than
 * kept in a line that would only end in the caller's (or the gateway's) timeout.
 */
export class WorkLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
    private readonly maxWaitMs = Number.POSITIVE_INFINITY,
  ) {}

  /** Runs `fn` when a slot frees; returns null without running it when the queue is full or the wait too long. */
  async run<T>(fn: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue || !(await this.waitForSlot())) return null;
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

  private waitForSlot(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = { settle: resolve };
      if (Number.isFinite(this.maxWaitMs)) {
        waiter.timer = setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve(false);
        }, this.maxWaitMs);
        waiter.timer.unref();
      }
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next) {
      clearTimeout(next.timer);
      next.settle(true);
    } else {
      this.running -= 1;
    }
  }
}
