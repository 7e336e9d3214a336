// Live `job.updated` for the event streams. Workers are other processes, so changes are found by
// polling `updatedAt` (indexed) while someone listens; a change made in this process triggers a
// poll at once. Each (job, updatedAt) is delivered once; a window of overlap covers writers whose
// clocks or commits lag a little behind.
import type { Logger } from '../../../../kit/src/core/index.js';
import type { ImportJobRow } from '../../store/job-models.js';
import type { JobListener, JobSummary, LiveFeed } from './types.js';

const OVERLAP_MS = 2000;
const BATCH = 500;

interface Listening {
  jobId: string | null;
  listener: JobListener;
}

/** What the feed polls with: the rows changed since a time, their summaries, a clock and a logger. */
export interface LiveSource {
  changedSince(since: Date, limit: number): Promise<ImportJobRow[]>;
  summarize(row: ImportJobRow): Promise<JobSummary>;
  clock: () => Date;
  logger: Logger;
}

/** The feed: polls every `pollMs` while someone listens. */
export function createLiveFeed(src: LiveSource, pollMs: number): LiveFeed {
  const listeners = new Set<Listening>();
  const delivered = new Map<string, number>();
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let again = false;

  async function deliver(row: ImportJobRow): Promise<void> {
    const at = new Date(row.updatedAt).getTime();
    if (delivered.get(row._id) === at) return;
    delivered.set(row._id, at);
    const targets = [...listeners].filter((l) => l.jobId === null || l.jobId === row._id);
    if (targets.length === 0) return;
    const update = { type: 'job.updated' as const, job: await src.summarize(row) };
    for (const t of targets) t.listener(update);
  }

  async function pollOnce(): Promise<void> {
    const rows = await src.changedSince(new Date(since), BATCH);
    for (const row of rows) await deliver(row);
    const newest = rows.length > 0 ? new Date(rows[rows.length - 1]!.updatedAt).getTime() : src.clock().getTime();
    since = Math.max(since, newest - OVERLAP_MS);
    for (const [id, at] of delivered) if (at < since) delivered.delete(id);
  }

  function poll(): void {
    if (polling) {
      again = true;
      return;
    }
    polling = pollOnce()
      .catch((err: unknown) => src.logger.warn({ err }, 'live job updates: poll failed'))
      .finally(() => {
        polling = undefined;
        if (again && listeners.size > 0) {
          again = false;
          poll();
        }
      });
  }

  function start(): void {
    since = src.clock().getTime() - OVERLAP_MS;
    timer = setInterval(poll, pollMs);
    timer.unref();
  }

  function stop(): void {
    if (timer) clearInterval(timer);
    timer = undefined;
    delivered.clear();
  }

  return {
    subscribe(jobId, listener) {
      const entry = { jobId, listener };
      if (listeners.size === 0) start();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0) stop();
      };
    },
    changed() {
      if (listeners.size > 0) poll();
    },
    close() {
      listeners.clear();
      stop();
    },
  };
}
