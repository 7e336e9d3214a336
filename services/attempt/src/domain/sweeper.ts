import type { AttemptDeps } from './deps.js';
import { SYSTEM, submitAttempt } from './submit.js';

export interface Sweeper {
  /** One pass: submits every attempt past its deadline (up to the batch); returns how many it tried. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Grades abandoned attempts (deadline passed, nobody called again) with source TIMEOUT. Every
 * replica may run it: the submit is a compare-and-set on IN_PROGRESS, so a second replica finding
 * the same attempt only reads it back GRADED.
 */
export function startSweeper(deps: AttemptDeps, intervalMs: number, batch: number): Sweeper {
  let running: Promise<number> | undefined;
  let stopped = false;
  const sweep = async () => {
    const due = await deps.store.due(deps.clock(), batch);
    for (const id of due) {
      if (stopped) break;
      await submitAttempt(deps, id, { source: 'TIMEOUT', by: SYSTEM }).catch((err: unknown) =>
        deps.logger.warn({ err, attemptId: id }, 'sweeper: timeout submit failed; next pass retries'),
      );
    }
    return due.length;
  };
  const tick = () => {
    if (running || stopped) return;
    running = sweep()
      .catch((err: unknown) => {
        deps.logger.warn({ err }, 'sweeper: pass failed');
        return 0;
      })
      .finally(() => (running = undefined));
  };
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
