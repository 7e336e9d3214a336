// The one write path of a job: a change to its row together with its stored event and outbox stamp
// (one single-document write, store/job-store.ts), and the run's work item. Each tells this
// process's live listeners that the job changed.
import { EVENT_TYPES } from '../../../../../kafka/topics.js';
import { buildEvent } from '../../../../kit/src/bus/index.js';
import {
  insertJob as insertRow,
  stampJob,
  updateJob,
  type JobChange,
  type JobMatch,
  type OutboundEvent,
} from '../../store/job-store.js';
import type { ImportJobRow, PayloadRef } from '../../store/job-models.js';
import { JOB_EVENT_TYPES, SOURCE, jobRequested, type JobEventSpec } from './events.js';
import type { JobDeps } from './types.js';

function outbound(deps: JobDeps, spec: JobEventSpec, jobId: string, now: Date): OutboundEvent {
  const type = JOB_EVENT_TYPES[spec.name];
  const event = buildEvent({ source: SOURCE, type, subject: jobId, data: spec.data }, now, deps.newId());
  return { topic: deps.topics.events, event, stored: { id: event.id, type: spec.name, data: spec.data, time: now } };
}

/**
 * Changes the job `match` names and, in the same write, stores `spec` in its event list and stamps
 * it for the outbox. The row after the change, or null when nothing matched (and then no event exists).
 */
export async function writeJob(
  deps: JobDeps,
  match: JobMatch,
  change: JobChange,
  spec?: JobEventSpec,
): Promise<ImportJobRow | null> {
  const now = deps.clock();
  const out = spec ? outbound(deps, spec, match.id, now) : undefined;
  const row = await updateJob(deps.store, match, { ...change, now }, out);
  if (row) deps.live.changed(row._id);
  return row;
}

/** Stores a new job with its first event inside the insert. */
export async function insertJob(deps: JobDeps, row: ImportJobRow, spec: JobEventSpec): Promise<void> {
  await insertRow(deps.store, row, outbound(deps, spec, row._id, row.createdAt));
  deps.live.changed(row._id);
}

/** Puts the run's work item on the queue (through the outbox, owned by the job row). */
export async function enqueueWork(deps: JobDeps, job: ImportJobRow, payload: PayloadRef): Promise<void> {
  const event = buildEvent(
    { source: SOURCE, type: EVENT_TYPES.docxImportJobRequested, subject: job._id, data: jobRequested(job, payload) },
    deps.clock(),
    deps.newId(),
  );
  await stampJob(deps.store, { id: job._id, run: job.run }, { topic: deps.topics.jobs, event });
}
