// Reads: one job (scoped to its organization), lists, counters, the queue object and stored events.
import type { FilterQuery } from 'mongoose';
import { AppError } from '../../../kit/src/core/index.js';
import { workerConcurrency } from '../config.js';
import type { ImportJobRow } from '../store/job-models.js';
import type { JobContext } from './context.js';
import type {
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

export const JOB_NOT_FOUND = 'Import job not found';
const DETAIL_FIELDS = '+packagingJson +parseResultJson +reviewedResultJson +approvals';

/** The row of a job the scope may see; IMPORT_JOB_NOT_FOUND otherwise (another organization's too). */
export async function findScoped(ctx: JobContext, scope: JobScope, id: string, select = ''): Promise<ImportJobRow> {
  const row = await ctx.models.ImportJob.findOne({ _id: id, organizationId: scope.organizationId })
    .select(select)
    .lean<ImportJobRow>()
    .exec();
  if (!row) throw new AppError('IMPORT_JOB_NOT_FOUND', JOB_NOT_FOUND, { details: { id } });
  return row;
}

export async function queueOf(
  ctx: JobContext,
  job: Pick<JobSummary, 'id' | 'status' | 'queuedAt'>,
): Promise<QueueInfo | undefined> {
  if (job.status !== 'PENDING' && job.status !== 'PROCESSING') return undefined;
  const { ImportJob } = ctx.models;
  const queuedAt = new Date(job.queuedAt);
  const [waiting, active, ahead] = await Promise.all([
    ImportJob.countDocuments({ status: 'PENDING' }).exec(),
    ImportJob.countDocuments({ status: 'PROCESSING' }).exec(),
    job.status === 'PENDING'
      ? ImportJob.countDocuments({
          status: 'PENDING',
          $or: [{ queuedAt: { $lt: queuedAt } }, { queuedAt, _id: { $lt: job.id } }],
        }).exec()
      : Promise.resolve(0),
  ]);
  return queueInfo(job, { waiting, active, ahead, workerConcurrency: workerConcurrency(ctx.config) });
}

export async function summaryOf(ctx: JobContext, row: ImportJobRow): Promise<JobSummary> {
  const summary = toSummary(row);
  const queue = await queueOf(ctx, summary);
  return queue ? { ...summary, queue } : summary;
}

export async function getJob(ctx: JobContext, scope: JobScope, id: string): Promise<JobDetail> {
  const row = await findScoped(ctx, scope, id, DETAIL_FIELDS);
  const detail = toDetail(row);
  const queue = await queueOf(ctx, detail);
  return queue ? { ...detail, queue } : detail;
}

export async function jobStatus(ctx: JobContext, scope: JobScope, id: string): Promise<JobStatusView> {
  const row = await findScoped(ctx, scope, id);
  return { status: row.status, ...ZERO_COUNTERS, ...row.counters };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function listFilter(scope: JobScope, f: JobFilters): FilterQuery<ImportJobRow> {
  const filter: FilterQuery<ImportJobRow> = { organizationId: scope.organizationId };
  if (f.status) filter.status = f.status;
  if (f.jobKind) filter.jobKind = f.jobKind;
  if (f.source) filter.source = f.source;
  if (f.createdBy) filter.createdBy = f.createdBy;
  if (f.createdFrom || f.createdTo) {
    filter.createdAt = {
      ...(f.createdFrom ? { $gte: f.createdFrom } : {}),
      ...(f.createdTo ? { $lte: f.createdTo } : {}),
    };
  }
  if (f.q) {
    const re = new RegExp(escapeRegex(f.q), 'i');
    filter.$or = [{ title: re }, { fileName: re }];
  }
  return filter;
}

export async function listJobs(ctx: JobContext, scope: JobScope, f: JobFilters, paging: Paging): Promise<JobPage> {
  const filter = listFilter(scope, f);
  const [rows, total] = await Promise.all([
    ctx.models.ImportJob.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((paging.page - 1) * paging.limit)
      .limit(paging.limit)
      .lean<ImportJobRow[]>()
      .exec(),
    ctx.models.ImportJob.countDocuments(filter).exec(),
  ]);
  return { items: await Promise.all(rows.map((r) => summaryOf(ctx, r))), total };
}

export async function jobEvents(ctx: JobContext, scope: JobScope, id: string): Promise<StoredJobEvent[]> {
  const row = await findScoped(ctx, scope, id, '+events');
  return (row.events ?? []).map((e) => ({
    id: e.id,
    type: e.type,
    data: e.data,
    time: new Date(e.time).toISOString(),
  }));
}
