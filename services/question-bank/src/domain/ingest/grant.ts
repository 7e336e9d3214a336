// The DOCX workers ingest only for a live import job (issue 33, 5): their credential opens the ingest
// route, and the grant the document-import API signed for the job (kit grant.ts) must name the
// request's organization, author and job, unexpired. Pure given the key and the clock.
import { AppError, verifyImportGrant, type GrantRefusal } from '../../../../kit/src/core/index.js';
import type { Writer } from '../questions/scope.js';

export const GRANT_REFUSED = "The worker credential ingests only under a live import job's grant (X-Import-Grant)";

export type GrantProblem = GrantRefusal | 'missing' | 'mismatch' | 'unconfigured';

function refused(reason: GrantProblem): AppError {
  return new AppError('FORBIDDEN', GRANT_REFUSED, { details: { reason } });
}

/**
 * Throws 403 FORBIDDEN (details.reason) unless `token` is a grant signed with `key`, unexpired at
 * `nowSeconds`, for this writer's organization and user and for `jobId` (the body's sourceImportJobId).
 */
export function assertImportGrant(
  key: Buffer | undefined,
  token: string | undefined,
  request: { writer: Writer; jobId: string | undefined; nowSeconds: number },
): void {
  if (!key) throw refused('unconfigured');
  if (!token) throw refused('missing');
  const checked = verifyImportGrant(key, token, request.nowSeconds);
  if (!checked.ok) throw refused(checked.reason);
  const { grant } = checked;
  const { writer, jobId } = request;
  const same =
    grant.organizationId === writer.organizationId && grant.userId === writer.userId && grant.jobId === jobId;
  if (!same) throw refused('mismatch');
}
