// Each queued run gets its ingest grant (issue 33, 5): the API process signs with the key of its
// INTERNAL_API_TOKEN which organization and author the job's questions may be ingested for, until
// DOCX_IMPORT_INGEST_GRANT_TTL_MS after queueing; the workers' auto-approval passes it to the question
// bank, which refuses their credential without it. Without an internal token (development) no grant.
import { importGrantKey, signImportGrant } from '../../../../kit/src/core/index.js';
import type { JobDeps } from './types.js';

export function ingestGrantFor(
  deps: Pick<JobDeps, 'config'>,
  job: { id: string; organizationId: string; createdBy: string },
  now: Date,
): string | null {
  const token = deps.config.INTERNAL_API_TOKEN;
  if (!token) return null;
  const exp = Math.floor((now.getTime() + deps.config.DOCX_IMPORT_INGEST_GRANT_TTL_MS) / 1000);
  return signImportGrant(importGrantKey(token), {
    jobId: job.id,
    organizationId: job.organizationId,
    userId: job.createdBy,
    exp,
  });
}
