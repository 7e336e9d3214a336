// Pure timing helpers shared by the kit's loops, the services and the operator (no express, no kafkajs).

/** The two numbers of an exponential backoff: the first wait and the cap. */
export interface BackoffSteps {
  initialMs: number;
  maxMs: number;
}

/** The wait before attempt `failures + 1`: `initialMs` doubling per failure, capped at `maxMs`. */
export function backoffMs(steps: BackoffSteps, failures: number): number {
  return Math.min(steps.maxMs, steps.initialMs * 2 ** Math.max(0, failures - 1));
}

/**
 * `work`, or a rejection with `message` once `ms` have passed first. The timer is cleared either
 * way, and a later rejection of the losing `work` is swallowed, never an unhandled rejection.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
