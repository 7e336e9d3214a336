// The document-import job engine: what the routes (API processes) call. One engine per process.
//
//   const engine = await createJobEngine({ config, db, bus, logger, metrics });
//   const { job, replayed } = await engine.submitUpload(scope, { source: { filePath }, fileName, jobKind: 'QAS', jobSource: 'UPLOAD' });
//
// - submitUpload: spools the bytes (directory or GridFS, DOCX_IMPORT_PAYLOAD_STORE), stores a PENDING
//   job with `job.queued`, then enqueues the work item `docx-import.job.requested.v1` on
//   `docx-import.jobs.v1`; both go out through the kit outbox (owner = the job row), so a crash never
//   leaves a job without its item. With an idempotencyKey (fast jobs) an equal request of the same
//   organization and actor for the same storage key within 15 minutes returns that job (replayed).
// - findReplay: the same lookup without submitting (the route calls it before fetching bytes).
// - reprocess: refused with IMPORT_JOB_ACTIVE while PENDING or PROCESSING; otherwise a fresh payload
//   under the same id, run + 1, old output (parse result, review, packaging, counters, error) cleared.
// - get / list / status / queueOf: reads; summaries carry `queue` only while PENDING or PROCESSING.
//   Unknown id, or another organization's job: IMPORT_JOB_NOT_FOUND.
// - saveReview: COMPLETED jobs only (IMPORT_JOB_NOT_COMPLETED), stored verbatim, `review.updated`.
// - findApproval / recordApproval / recordAutoApprovalFailure: approvals stored on the job by key with
//   `approval.completed` (or `auto_approval.completed`) / `auto_approval.failed`.
// - events(id): the stored per-job events, oldest first.
// - subscribe(jobId | null, listener): live `job.updated` (summary only) for one job or all jobs of
//   the listener's choosing; changes made by any process (the workers) arrive by polling
//   `updatedAt` while someone listens (DOCX_IMPORT_LIVE_POLL_MS). Returns the unsubscribe function.
// - recover(): service start. PENDING/PROCESSING jobs whose payload exists are re-enqueued (same run:
//   a worker drops a duplicate of a finished run); the others are FAILED with DOCX_IMPORT_PAYLOAD_MISSING.
// - onCompleted(hook): the auto-approval seam. Called in the process that completes a job (the worker)
//   for COMPLETED jobs with autoApproveToQuestionBank; see worker/main.ts.
// - close(): stops the relay and the live poller (the bus and MongoDB belong to the caller).
// Every event is validated by kafka/schemas and never carries the parse body, bytes or payload ref.
import { buildEngine } from './engine-impl.js';
import type { JobEngine, JobEngineOptions } from './engine-types.js';

export type * from './types.js';
export type * from './engine-types.js';

export async function createJobEngine(opts: JobEngineOptions): Promise<JobEngine> {
  return buildEngine(opts);
}
