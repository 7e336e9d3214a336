// Service start: jobs left PENDING or PROCESSING get their work item again, or FAIL when their
// payload is gone. A re-enqueued run is the same run: a worker drops the copy of a run that ends.
import type { ImportJobRow } from '../store/job-models.js';
import { enqueueWork, writeJob, type JobContext } from './context.js';
import { jobFailed } from './events.js';
import type { JobFailure } from './types.js';
import { stateFields } from './view.js';

export const PAYLOAD_MISSING: JobFailure = {
  code: 'DOCX_IMPORT_PAYLOAD_MISSING',
  message: 'The spooled upload of this job is gone; upload the file again',
};

/** FAILED with `error`, payload released; null when the job moved on (another run, or it ended). */
export function failJob(ctx: JobContext, row: ImportJobRow, error: JobFailure, extra: Record<string, unknown> = {}) {
  const now = ctx.clock();
  return writeJob(
    ctx,
    { _id: row._id, run: row.run, status: { $in: ['PENDING', 'PROCESSING'] }, ...extra },
    {
      set: {
        status: 'FAILED',
        ...stateFields('FAILED'),
        errorSummary: error,
        failedAt: now,
        lease: null,
        payloadRef: null,
      },
    },
    jobFailed(row, error),
  );
}

export async function recoverJobs(ctx: JobContext): Promise<{ requeued: number; failed: number }> {
  const rows = await ctx.models.ImportJob.find({ status: { $in: ['PENDING', 'PROCESSING'] } })
    .select('+payloadRef')
    .sort({ queuedAt: 1 })
    .lean<ImportJobRow[]>()
    .exec();
  let requeued = 0;
  let failed = 0;
  for (const row of rows) {
    const ref = row.payloadRef;
    if (ref && ref.store === ctx.spool.store && (await ctx.spool.exists(ref))) {
      await enqueueWork(ctx, row, ref);
      requeued += 1;
    } else if (await failJob(ctx, row, PAYLOAD_MISSING)) {
      failed += 1;
    }
  }
  if (rows.length > 0) ctx.logger.info({ requeued, failed }, 'import jobs recovered at start');
  return { requeued, failed };
}
