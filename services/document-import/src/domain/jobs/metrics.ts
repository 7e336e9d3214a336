// Job gauges for the API process's /metrics, computed from MongoDB at scrape time. The workers
// write the job rows but are not scraped; every API replica reports the same (global) numbers, so
// alerts aggregate with max(), not sum().
//
//   docx_import_jobs{status}          jobs per status (PENDING, PROCESSING, COMPLETED, FAILED), 0 when none
//   docx_import_jobs_failed_recent    jobs that are FAILED and failed in the last 15 minutes
//
// Cost: the status counts are one aggregation whose $match on `status` lets it run on the
// { status: 1, queuedAt: 1 } index and read only index keys (covered: no job document, with its
// events and parse output, is fetched); it still walks one key per job. The recent failures read
// the { updatedAt: 1 } index (hinted): a FAILED write sets updatedAt with failedAt, and updatedAt
// only moves forward, so only the jobs changed in the window are looked at.
// A failed query (MongoDB down, slow past METRICS_QUERY_MAX_MS) leaves the last values and logs at
// debug: /metrics never fails because of these gauges.
import { Gauge, type Registry } from 'prom-client';
import { countByStatus, countFailedSince } from '../../store/job-store.js';
import type { JobDeps, JobStatus } from './types.js';

/** Every job status, in the gauge's label order. */
export const JOB_STATUSES: readonly JobStatus[] = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'];
/** The window of docx_import_jobs_failed_recent. */
export const FAILED_RECENT_WINDOW_MS = 15 * 60_000;

/** Jobs per status, every status present (0 when it has none). */
export async function countJobsByStatus(deps: JobDeps): Promise<Record<JobStatus, number>> {
  const found = await countByStatus(deps.store, JOB_STATUSES);
  return Object.fromEntries(JOB_STATUSES.map((s) => [s, found.get(s) ?? 0])) as Record<JobStatus, number>;
}

/** Registers the job gauges on the API process's registry (the workers pass none). */
export function registerJobMetrics(deps: JobDeps, registry: Registry): void {
  const keepLast = (gauge: string) => (err: unknown) =>
    deps.logger.debug({ err, gauge }, 'docx import job gauge not refreshed; last values kept');
  new Gauge({
    name: 'docx_import_jobs',
    help: 'DOCX import jobs per status, counted in MongoDB at scrape time (global: every API replica reports all jobs)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      await countJobsByStatus(deps).then((counts) => {
        for (const status of JOB_STATUSES) this.set({ status }, counts[status]);
      }, keepLast('docx_import_jobs'));
    },
  });
  new Gauge({
    name: 'docx_import_jobs_failed_recent',
    help: 'DOCX import jobs that are FAILED and failed in the last 15 minutes (global, counted at scrape time)',
    registers: [registry],
    async collect() {
      const since = new Date(deps.clock().getTime() - FAILED_RECENT_WINDOW_MS);
      await countFailedSince(deps.store, since).then((n) => this.set(n), keepLast('docx_import_jobs_failed_recent'));
    },
  });
}
