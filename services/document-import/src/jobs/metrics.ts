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
import type { JobContext } from './context.js';
import type { JobStatus } from './types.js';

export const JOB_STATUSES: readonly JobStatus[] = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'];
export const FAILED_RECENT_WINDOW_MS = 15 * 60_000;
/** Below Prometheus's default 10 s scrape timeout. */
export const METRICS_QUERY_MAX_MS = 5_000;

/** Jobs per status, every status present (0 when it has none). */
export async function countJobsByStatus(ctx: JobContext): Promise<Record<JobStatus, number>> {
  const rows = await ctx.models.ImportJob.aggregate<{ _id: string; n: number }>([
    { $match: { status: { $in: JOB_STATUSES } } },
    { $group: { _id: '$status', n: { $sum: 1 } } },
  ])
    .option({ maxTimeMS: METRICS_QUERY_MAX_MS })
    .exec();
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  for (const row of rows) counts[row._id as JobStatus] = row.n;
  return counts;
}

/** Jobs FAILED at or after `since` (and still FAILED: a reprocessed job no longer counts). */
export async function countFailedSince(ctx: JobContext, since: Date): Promise<number> {
  return ctx.models.ImportJob.countDocuments(
    { updatedAt: { $gte: since }, status: 'FAILED', failedAt: { $gte: since } },
    { hint: { updatedAt: 1 }, maxTimeMS: METRICS_QUERY_MAX_MS },
  ).exec();
}

/** Registers the job gauges on the API process's registry (the workers pass none). */
export function registerJobMetrics(ctx: JobContext, registry: Registry): void {
  const keepLast = (gauge: string) => (err: unknown) =>
    ctx.logger.debug({ err, gauge }, 'docx import job gauge not refreshed; last values kept');
  new Gauge({
    name: 'docx_import_jobs',
    help: 'DOCX import jobs per status, counted in MongoDB at scrape time (global: every API replica reports all jobs)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      await countJobsByStatus(ctx).then((counts) => {
        for (const status of JOB_STATUSES) this.set({ status }, counts[status]);
      }, keepLast('docx_import_jobs'));
    },
  });
  new Gauge({
    name: 'docx_import_jobs_failed_recent',
    help: 'DOCX import jobs that are FAILED and failed in the last 15 minutes (global, counted at scrape time)',
    registers: [registry],
    async collect() {
      const since = new Date(ctx.clock().getTime() - FAILED_RECENT_WINDOW_MS);
      await countFailedSince(ctx, since).then((n) => this.set(n), keepLast('docx_import_jobs_failed_recent'));
    },
  });
}
