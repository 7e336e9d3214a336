// Service start: jobs left PENDING or PROCESSING get their work item again, or FAIL when their
// payload is gone. A re-enqueued run is the same run: a worker drops the copy of a run that ends.
import { unfinishedJobs, type JobMatch } from '../../store/job-store.js';
import type { ImportJobRow } from '../../store/job-models.js';
import { jobFailed } from './events.js';
import type { JobDeps, JobFailure } from './types.js';
import { stateFields } from './view.js';
import { enqueueWork, writeJob } from './write.js';

/** A run whose spooled upload is gone. */
export const PAYLOAD_MISSING: JobFailure = {
  code: 'DOCX_IMPORT_PAYLOAD_MISSING',
  message: 'The spooled upload of this job is gone; upload the file again',
};

/** FAILED with `error`, payload released; null when the job moved on (another run, or it ended). */
export function failJob(
  deps: JobDeps,
  row: ImportJobRow,
  error: JobFailure,
  extra: Omit<JobMatch, 'id' | 'run'> = {},
): Promise<ImportJobRow | null> {
  const now = deps.clock();
  return writeJob(
    deps,
    { statuses: ['PENDING', 'PROCESSING'], ...extra, id: row._id, run: row.run },
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

/**
 * Service start: PENDING/PROCESSING jobs whose payload exists are re-enqueued (same run: a worker
 * drops a duplicate of a finished run); the others are FAILED with DOCX_IMPORT_PAYLOAD_MISSING.
 */
export async function recoverJobs(deps: JobDeps): Promise<{ requeued: number; failed: number }> {
  const { spool } = deps.store;
  const rows = await unfinishedJobs(deps.store);
  let requeued = 0;
  let failed = 0;
  for (const row of rows) {
    const ref = row.payloadRef;
    if (ref && ref.store === spool.store && (await spool.exists(ref))) {
      await enqueueWork(deps, row, ref);
      requeued += 1;
    } else if (await failJob(deps, row, PAYLOAD_MISSING)) {
      failed += 1;
    }
  }
  if (rows.length > 0) deps.logger.info({ requeued, failed }, 'import jobs recovered at start');
  return { requeued, failed };
}
