// The worker's probes, decided purely: what the process reports (consumer phase, jobs in hand and
// since when) and a clock go in, the answer of /healthz and /readyz comes out.

/**
 * starting: connecting and joining the group; consuming: a member of the group; draining: a
 * graceful stop under way; failed: the consumer stopped on its own (a crash it will not restart from).
 */
export type ConsumerPhase = 'starting' | 'consuming' | 'draining' | 'failed';

export interface HealthSnapshot {
  phase: ConsumerPhase;
  /** Why the consumer failed (phase failed). */
  failure?: string;
  /** The jobs in hand and since when (ms). */
  jobs: ReadonlyArray<{ jobId: string; since: number }>;
}

export interface ProbeAnswer {
  ok: boolean;
  message: string;
}

/**
 * Liveness: the consumer has not failed and no job has been in hand longer than `stuckAfterMs`.
 * A worker that is starting or draining is alive (a restart would not help either).
 */
export function liveness(s: HealthSnapshot, now: number, stuckAfterMs: number): ProbeAnswer {
  if (s.phase === 'failed') return { ok: false, message: `consumer stopped: ${s.failure ?? 'unknown reason'}` };
  const oldest = s.jobs.reduce<(typeof s.jobs)[number] | undefined>(
    (o, j) => (!o || j.since < o.since ? j : o),
    undefined,
  );
  if (oldest && now - oldest.since > stuckAfterMs) {
    const seconds = Math.floor((now - oldest.since) / 1000);
    return {
      ok: false,
      message: `job ${oldest.jobId} in hand for ${seconds} s (bound ${Math.floor(stuckAfterMs / 1000)} s)`,
    };
  }
  return { ok: true, message: `${s.phase}, ${s.jobs.length} job(s) in hand` };
}

/** Readiness: a member of the consumer group, consuming (not starting, draining or failed). */
export function readiness(s: HealthSnapshot): ProbeAnswer {
  if (s.phase === 'consuming') return { ok: true, message: 'consuming' };
  return { ok: false, message: s.phase === 'failed' ? `consumer stopped: ${s.failure ?? 'unknown reason'}` : s.phase };
}

/** The inputs of the stuck bound (the worker's config). */
export interface StuckBoundInputs {
  DOCX_PARSER_TIME_LIMIT_MS: number;
  DOCX_PARSER_THREADS: number;
  DOCX_PARSER_URL?: string;
  DOCUMENT_SERVICE_URL?: string;
  /** An explicit bound; the derived one otherwise. */
  DOCX_WORKER_STUCK_MS?: number;
}

/** ExternalParserClient's request timeout (integrations/parser-client.ts). */
export const EXTERNAL_PARSER_MS = 120_000;
/** Media uploads: 60 s transfer timeout per picture, a few at a time; ten minutes for a picture-heavy file. */
export const MEDIA_ALLOWANCE_MS = 600_000;
/** MongoDB reads and writes, the spool, the completion hook. */
export const SLACK_MS = 60_000;

/**
 * How long one job may stay in hand before the worker counts as stuck: its parse may wait for the
 * others in hand (ceil(concurrency / parse threads) parses of DOCX_PARSER_TIME_LIMIT_MS each), then
 * the external parser's timeout and the media uploads when configured, plus a minute of slack.
 */
export function stuckAfterMs(config: StuckBoundInputs, concurrency: number): number {
  if (config.DOCX_WORKER_STUCK_MS !== undefined) return config.DOCX_WORKER_STUCK_MS;
  const parses = Math.ceil(concurrency / Math.max(1, config.DOCX_PARSER_THREADS));
  return (
    parses * config.DOCX_PARSER_TIME_LIMIT_MS +
    (config.DOCX_PARSER_URL ? EXTERNAL_PARSER_MS : 0) +
    (config.DOCUMENT_SERVICE_URL ? MEDIA_ALLOWANCE_MS : 0) +
    SLACK_MS
  );
}

/** The live state behind the probes; the clock is injected. */
export class WorkerHealth {
  private phase: ConsumerPhase = 'starting';
  private failure: string | undefined;
  private readonly jobs = new Map<number, { jobId: string; since: number }>();
  private seq = 0;

  constructor(
    private readonly clock: () => number,
    readonly stuckAfterMs: number,
  ) {}

  /** Joined (or rejoined) the group (a later failure is not undone by it). */
  consuming(): void {
    if (this.phase === 'starting') this.phase = 'consuming';
  }

  /** The consumer crashed and kafkajs restarts it: alive, not ready until it has joined again. */
  rejoining(): void {
    if (this.phase === 'consuming') this.phase = 'starting';
  }

  draining(): void {
    if (this.phase !== 'failed') this.phase = 'draining';
  }

  failed(reason: string): void {
    this.phase = 'failed';
    this.failure = reason;
  }

  /** Marks a job in hand from now; call the returned function when it ends (however it ends). */
  jobStarted(jobId: string): () => void {
    const key = this.seq++;
    this.jobs.set(key, { jobId, since: this.clock() });
    return () => void this.jobs.delete(key);
  }

  snapshot(): HealthSnapshot {
    return { phase: this.phase, failure: this.failure, jobs: [...this.jobs.values()] };
  }

  liveness(): ProbeAnswer {
    return liveness(this.snapshot(), this.clock(), this.stuckAfterMs);
  }

  readiness(): ProbeAnswer {
    return readiness(this.snapshot());
  }
}
