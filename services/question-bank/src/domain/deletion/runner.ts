// The permanent-delete job runner: one per service instance, any number of instances per database.
// A job row is its own lease: claimed atomically, renewed by a heartbeat, released on stop; every
// progress write is filtered by the holder, and every status change is a compare-and-set.
import { randomUUID } from 'node:crypto';
import type { DeletionJobRow } from '../../store/deletion-models.js';
import * as jobs from '../../store/deletion-store.js';
import type { DeletionRunner, QuestionBankDeps } from '../deps.js';
import { jobFilter, runBatch } from './batch.js';
import { MAX_JOB_ATTEMPTS, resumedWarning } from './plan.js';

export interface DeletionRunnerOptions {
  /** How long a claim holds without a heartbeat (a crashed holder's job is resumed after it). */
  leaseMs?: number;
  heartbeatMs?: number;
  /** How often an idle runner looks for jobs (other replicas' new jobs, lapsed leases). */
  pollMs?: number;
  maxAttempts?: number;
}

export const DEFAULT_RUNNER = { leaseMs: 10_000, heartbeatMs: 2_500, pollMs: 1_000, maxAttempts: MAX_JOB_ATTEMPTS };

function listeners() {
  const byJob = new Map<string, Set<() => void>>();
  return {
    subscribe(jobId: string, listener: () => void) {
      const set = byJob.get(jobId) ?? new Set();
      set.add(listener);
      byJob.set(jobId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) byJob.delete(jobId);
      };
    },
    notify(jobId: string) {
      for (const l of byJob.get(jobId) ?? []) l();
    },
  };
}

export function createDeletionRunner(deps: QuestionBankDeps, options: DeletionRunnerOptions = {}): DeletionRunner {
  const opts = { ...DEFAULT_RUNNER, ...options };
  const owner = `${process.pid}-${randomUUID()}`;
  const bus = listeners();
  const m = deps.models;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const later = (ms: number) => new Date(deps.clock().getTime() + ms);
  const held = { extra: { leaseOwner: owner } };
  const free = { leaseOwner: null, leaseUntil: null };

  async function finish(job: DeletionJobRow, set: Partial<DeletionJobRow>) {
    const now = deps.clock();
    const done = await jobs.transitionJob(
      m,
      { id: job._id, from: ['running'], ...held },
      { ...set, ...free, updatedAt: now },
    );
    // Lost the race (cancelled meanwhile): that terminal state stands; only the lease is let go.
    if (!done) await jobs.updateHeld(m, job._id, owner, { $set: free });
    bus.notify(job._id);
  }

  async function begin(job: DeletionJobRow): Promise<DeletionJobRow | null> {
    const now = deps.clock();
    let total = job.totalQuestions;
    if (total === null) total = await jobs.countQuestions(m, jobFilter(job));
    const set = { phase: 'deleting' as const, totalQuestions: total, startedAt: job.startedAt ?? now, updatedAt: now };
    const started = await jobs.transitionJob(m, { id: job._id, from: ['running'], ...held }, set);
    if (started && job.attempts > 1) {
      const warning = resumedWarning(job.attempts, job.currentBatch);
      await jobs.updateHeld(m, job._id, owner, { $push: { warnings: warning } });
      started.warnings.push(warning);
    }
    return started;
  }

  async function drive(first: DeletionJobRow): Promise<void> {
    let job = await begin(first);
    bus.notify(first._id);
    while (job && job.status === 'running' && !stopping) {
      const step = await runBatch(deps, job, owner);
      bus.notify(first._id);
      if (step.done) {
        const total = job.mode === 'all' ? job.processedQuestions : job.totalQuestions;
        return finish(job, {
          status: 'completed',
          phase: 'completed',
          totalQuestions: total,
          finishedAt: deps.clock(),
        });
      }
      job = step.job;
    }
    if (job?.status === 'running') return finish(job, { status: 'pending', phase: 'interrupted' });
    // Cancelled under us (even before it began): the counts are recorded; let the lease go.
    await jobs.updateHeld(m, first._id, owner, { $set: free });
  }

  async function runJob(job: DeletionJobRow): Promise<void> {
    const beat = setInterval(() => {
      jobs.renewLease(m, job._id, owner, later(opts.leaseMs)).catch((err: unknown) => {
        deps.logger.warn({ err, jobId: job._id }, 'permanent-delete job: heartbeat failed');
      });
    }, opts.heartbeatMs);
    beat.unref();
    try {
      await drive(job);
    } catch (err) {
      deps.logger.error({ err, jobId: job._id }, 'permanent-delete job: batch failed; the job is handed back');
      await finish(job, { status: 'pending', phase: 'interrupted' }).catch(() => undefined);
      await idle(opts.pollMs);
    } finally {
      clearInterval(beat);
    }
  }

  async function claim(): Promise<DeletionJobRow | null> {
    const now = deps.clock();
    const job = await jobs.claimJob(m, { owner, now, until: later(opts.leaseMs) });
    if (!job || job.attempts <= opts.maxAttempts) return job;
    const error = { code: 'JOB_ATTEMPTS_EXHAUSTED', message: `The job was interrupted ${job.attempts - 1} times` };
    await finish(job, { status: 'failed', phase: 'failed', error, finishedAt: now });
    return null;
  }

  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function run(): Promise<void> {
    while (!stopping) {
      const job = await claim().catch((err: unknown) => {
        deps.logger.warn({ err }, 'permanent-delete runner: claim failed');
        return null;
      });
      if (job) await runJob(job);
      else if (!stopping) await idle(opts.pollMs);
    }
  }

  return {
    owner,
    start() {
      loop ??= run();
    },
    kick: () => wake?.(),
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
    subscribe: bus.subscribe,
    notify: bus.notify,
  };
}
