// Reads: one job (scoped to its organization), lists, counters, the queue object and stored events.
import { AppError } from '../../../../kit/src/core/index.js';
import { workerConcurrency } from '../../config.js';
import { findJob, listJobRows, queueCounts, type JobFields } from '../../store/job-store.js';
import type { ImportJobRow } from '../../store/job-models.js';
import type {
  JobDeps,
  JobDetail,
  JobFilters,
  JobPage,
  JobScope,
  JobStatusView,
  JobSummary,
  Paging,
  QueueInfo,
  StoredJobEvent,
} from './types.js';
import { queueInfo, toDetail, toSummary, ZERO_COUNTERS } from './view.js';

/** The message of IMPORT_JOB_NOT_FOUND. */
export const JOB_NOT_FOUND = 'Import job not found';

/** The row of a job the scope may see; IMPORT_JOB_NOT_FOUND otherwise (another organization's too). */
export async function findScoped(
  deps: JobDeps,
  scope: JobScope,
  id: string,
  fields: JobFields = 'summary',
): Promise<ImportJobRow> {
  const row = await findJob(deps.store, { id, organizationId: scope.organizationId }, fields);
  if (!row) throw new AppError('IMPORT_JOB_NOT_FOUND', JOB_NOT_FOUND, { details: { id } });
  return row;
}

/** The queue object of a PENDING or PROCESSING job (counts of the whole queue); undefined otherwise. */
export async function queueOf(
  deps: JobDeps,
  job: Pick<JobSummary, 'id' | 'status' | 'queuedAt'>,
): Promise<QueueInfo | undefined> {
  if (job.status !== 'PENDING' && job.status !== 'PROCESSING') return undefined;
  const counts = await queueCounts(deps.store, { id: job.id, status: job.status, queuedAt: new Date(job.queuedAt) });
  return queueInfo(job, { ...counts, workerConcurrency: workerConcurrency(deps.config) });
}

/** The summary of a row, with its queue object while it waits or runs. */
export async function summaryOf(deps: JobDeps, row: ImportJobRow): Promise<JobSummary> {
  const summary = toSummary(row);
  const queue = await queueOf(deps, summary);
  return queue ? { ...summary, queue } : summary;
}

/** One job's detail in its organization. */
export async function getJob(deps: JobDeps, scope: JobScope, id: string): Promise<JobDetail> {
  const row = await findScoped(deps, scope, id, 'detail');
  const detail = toDetail(row);
  const queue = await queueOf(deps, detail);
  return queue ? { ...detail, queue } : detail;
}

/**
 * A job that asks for auto-approval, with its creator's stored role (null on rows older than that
 * field); null when the job is gone or does not ask for it.
 */
export async function autoApprovalOf(
  deps: JobDeps,
  id: string,
): Promise<{ job: JobDetail; creatorRole: string | null; grant: string | null } | null> {
  const row = await findJob(deps.store, { id });
  if (!row?.autoApproveToQuestionBank) return null;
  const job = await getJob(deps, { organizationId: row.organizationId, actorId: row.createdBy }, id);
  return { job, creatorRole: row.createdByRole ?? null, grant: row.ingestGrant ?? null };
}

/** One job's status and counters. */
export async function jobStatus(deps: JobDeps, scope: JobScope, id: string): Promise<JobStatusView> {
  const row = await findScoped(deps, scope, id);
  return { status: row.status, ...ZERO_COUNTERS, ...row.counters };
}

/** A page of the organization's jobs, newest first. */
export async function listJobs(deps: JobDeps, scope: JobScope, f: JobFilters, paging: Paging): Promise<JobPage> {
  const { rows, total } = await listJobRows(deps.store, scope.organizationId, f, paging);
  return { items: await Promise.all(rows.map((r) => summaryOf(deps, r))), total };
}

/** The stored per-job events, oldest first. */
export async function jobEvents(deps: JobDeps, scope: JobScope, id: string): Promise<StoredJobEvent[]> {
  const row = await findScoped(deps, scope, id, 'events');
  return (row.events ?? []).map((e) => ({
    id: e.id,
    type: e.type,
    data: e.data,
    time: new Date(e.time).toISOString(),
  }));
}
