import { jobEvents, listJobs } from './jobs/queries.js';
import type { JobSummary, JobUpdate } from './jobs/types.js';
import type { ImportDeps } from './deps.js';
import { canSee, jobScope, visibleJob, type Scope } from './scope.js';

/**
 * Where a job stream's events go: the route hands its server-sent-events stream, so the domain
 * sends events without holding HTTP. `send` is false once the stream closed (the event is dropped).
 */
export interface JobEventSink {
  send(event: string, data: unknown, id?: string): boolean;
}

/** Stored jobs replayed by the all-jobs stream: the newest this many the actor may see. */
export const REPLAY_LIMIT = 100;

/**
 * Live updates that arrive while the replay is still being read wait, then follow it in order:
 * subscribing first and holding back means no change falls between the replay and the live part.
 */
function liveAfterReplay(stream: JobEventSink, visible: (job: JobSummary) => boolean) {
  let held: JobUpdate[] | null = [];
  const send = (u: JobUpdate) => stream.send('job.updated', u.job, `${u.job.id}:${u.job.updatedAt}`);
  return {
    listener: (u: JobUpdate) => {
      if (!visible(u.job)) return;
      if (held) held.push(u);
      else send(u);
    },
    release: () => {
      const pending = held ?? [];
      held = null;
      pending.forEach(send);
    },
  };
}

/** One job: its stored events oldest first, its current summary, then live `job.updated`. */
export async function streamJob(deps: ImportDeps, s: Scope, id: string, stream: JobEventSink): Promise<() => void> {
  const job = await visibleJob(deps.jobs, s, id);
  const live = liveAfterReplay(stream, (j) => j.id === job.id);
  const unsubscribe = deps.jobs.live.subscribe(job.id, live.listener);
  try {
    for (const e of await jobEvents(deps.jobs, jobScope(s), job.id))
      stream.send(e.type, { ...e.data, time: e.time }, e.id);
    const { packagingJson: _p, parseResultJson: _r, originalParseResultJson: _o, approvals: _a, ...summary } = job;
    stream.send('job.snapshot', summary);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  live.release();
  return unsubscribe;
}

/** Every job the actor may see: the newest stored ones as `job.snapshot`, `ready`, then live `job.updated`. */
export async function streamAllJobs(deps: ImportDeps, s: Scope, stream: JobEventSink): Promise<() => void> {
  const live = liveAfterReplay(stream, (j) => canSee(s, j));
  const unsubscribe = deps.jobs.live.subscribe(null, live.listener);
  try {
    const filters = s.role === 'ADMIN' ? {} : { createdBy: s.userId };
    const page = await listJobs(deps.jobs, jobScope(s), filters, { page: 1, limit: REPLAY_LIMIT });
    const jobs = page.items.filter((j) => canSee(s, j));
    for (const job of jobs) stream.send('job.snapshot', job, `${job.id}:${job.updatedAt}`);
    stream.send('ready', { replayed: jobs.length, total: page.total });
  } catch (err) {
    unsubscribe();
    throw err;
  }
  live.release();
  return unsubscribe;
}
