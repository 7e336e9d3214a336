import { AppError } from '../../../../kit/src/core/index.js';
import type { DeletionJobRow } from '../../store/deletion-models.js';
import * as jobs from '../../store/deletion-store.js';
import type { QuestionBankDeps } from '../deps.js';
import type { Writer } from '../questions/scope.js';
import { CANCELLABLE, isTerminal, jobView, newJobRow, type JobView, type NewJobInput } from './plan.js';

export const JOB_NOT_FOUND = 'DELETION_JOB_NOT_FOUND';
/** How often an open event stream re-reads its job (the runner may be another replica). */
export const STREAM_POLL_MS = 1_000;

// A job belongs to the organization and actor that created it; anyone else gets 404.
const scopeOf = (w: Writer) => ({ organizationId: w.organizationId, actorId: w.userId });

async function findScoped(deps: QuestionBankDeps, w: Writer, id: string): Promise<DeletionJobRow> {
  const row = await jobs.findJob(deps.models, { _id: id, ...scopeOf(w) });
  if (!row) throw new AppError(JOB_NOT_FOUND, 'Permanent-delete job not found', { details: { id } });
  return row;
}

export async function createJob(deps: QuestionBankDeps, w: Writer, input: NewJobInput): Promise<JobView> {
  const row = newJobRow(w, input, { id: deps.newId(), now: deps.clock() });
  await jobs.insertJob(deps.models, row);
  deps.deletion?.kick();
  return jobView(row);
}

export const getJob = async (deps: QuestionBankDeps, w: Writer, id: string) => jobView(await findScoped(deps, w, id));

/** pending or running becomes cancelled (compare-and-set); a finished job is returned unchanged. */
export async function cancelJob(deps: QuestionBankDeps, w: Writer, id: string): Promise<JobView> {
  await findScoped(deps, w, id);
  const now = deps.clock();
  const set = { status: 'cancelled' as const, phase: 'cancelled' as const, cancelledAt: now, finishedAt: now };
  const cancelled = await jobs.transitionJob(
    deps.models,
    { id, from: CANCELLABLE, extra: scopeOf(w) },
    { ...set, updatedAt: now },
  );
  if (cancelled) deps.deletion?.notify(id);
  return jobView(cancelled ?? (await findScoped(deps, w, id)));
}

/**
 * Where a job's events go: the route hands its server-sent-events stream, so the domain sends and
 * closes without holding HTTP. `send` is false once the stream closed.
 */
export interface JobEventSink {
  send(event: string, data: unknown, id?: string): boolean;
  close(): void;
  readonly closed: boolean;
}

/**
 * The job's event stream: `snapshot` first, then `job.updated` whenever its revision moved, and
 * the stream closes after the event that shows a finished job (at once if it already was).
 */
export async function streamJob(deps: QuestionBankDeps, w: Writer, id: string, stream: JobEventSink) {
  const first = await findScoped(deps, w, id);
  stream.send('snapshot', jobView(first), String(first.revision));
  if (isTerminal(first.status)) {
    stream.close();
    return undefined;
  }
  let last = first.revision;
  let reading: Promise<void> | undefined;
  let again = false;
  const readOnce = async () => {
    const row = await jobs.findJob(deps.models, { _id: id, ...scopeOf(w) });
    if (row && row.revision > last) {
      last = row.revision;
      stream.send('job.updated', jobView(row), String(row.revision));
    }
    if (!row || isTerminal(row.status)) stream.close();
  };
  const refresh = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = readOnce()
      .catch((err: unknown) => {
        deps.logger.warn({ err, jobId: id }, 'permanent-delete job stream: read failed');
        stream.close();
      })
      .finally(() => {
        reading = undefined;
        if (again && !stream.closed) {
          again = false;
          refresh();
        }
      });
  };
  const unsubscribe = deps.deletion?.subscribe(id, refresh);
  const timer = setInterval(refresh, STREAM_POLL_MS);
  timer.unref();
  refresh();
  return () => {
    clearInterval(timer);
    unsubscribe?.();
  };
}
