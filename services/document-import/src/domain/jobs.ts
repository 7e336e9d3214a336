import { readFile } from 'node:fs/promises';
import type { UploadedFile } from '../../../kit/src/core/index.js';
import { listJobs as listJobPage } from './jobs/queries.js';
import { submitJob } from './jobs/submit.js';
import type { JobFilters, JobStatusView, JobSummary, Paging } from './jobs/types.js';
import type { ImportDeps } from './deps.js';
import { precheckPackage } from './docx-file.js';
import { canSee, jobScope, visibleJob, type Scope } from './scope.js';

export interface UploadJobInput {
  title?: string;
}

/**
 * An upload job: what the central directory can refuse is refused here (nothing spooled), then the
 * job is spooled and queued (submitJob); the answer is the PENDING summary.
 */
export async function submitUploadJob(
  deps: ImportDeps,
  s: Scope,
  file: UploadedFile,
  input: UploadJobInput,
): Promise<JobSummary> {
  await precheckPackage(new Uint8Array(await readFile(file.path)));
  const { job } = await submitJob(deps.jobs, jobScope(s), {
    source: { filePath: file.path },
    fileName: file.originalName,
    // A blank title is none: lists show the file name instead.
    title: input.title?.trim() || null,
    jobKind: 'QAS',
    jobSource: 'UPLOAD',
  });
  return job;
}

export interface ListQuery extends Omit<JobFilters, 'createdBy'> {
  createdBy?: string;
  page: number;
  limit: number;
}

/** Pure: an actor lists its own jobs; an ADMIN the whole organization, or one creator's with `createdBy`. */
export function listFilters(s: Scope, q: ListQuery, ownOnly: boolean): JobFilters {
  const { page: _p, limit: _l, createdBy, ...rest } = q;
  if (ownOnly || s.role !== 'ADMIN') return { ...rest, createdBy: s.userId };
  return createdBy ? { ...rest, createdBy } : rest;
}

export async function listJobs(deps: ImportDeps, s: Scope, q: ListQuery, ownOnly: boolean) {
  const paging: Paging = { page: q.page, limit: q.limit };
  const page = await listJobPage(deps.jobs, jobScope(s), listFilters(s, q, ownOnly), paging);
  return { items: page.items.filter((j) => canSee(s, j)), meta: { ...paging, total: page.total } };
}

export async function jobStatus(deps: ImportDeps, s: Scope, id: string): Promise<JobStatusView & { queue?: unknown }> {
  const job = await visibleJob(deps.jobs, s, id);
  return { status: job.status, ...job.counters, ...(job.queue ? { queue: job.queue } : {}) };
}

/** Detail without the worker's original output (the reviewed one, when saved, is parseResultJson). */
export async function jobDetail(deps: ImportDeps, s: Scope, id: string) {
  const { originalParseResultJson: _o, ...detail } = await visibleJob(deps.jobs, s, id);
  return detail;
}
