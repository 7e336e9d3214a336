import { AppError, type Role } from '../../../kit/src/core/index.js';
import { getJob } from './jobs/queries.js';
import type { JobDeps, JobDetail, JobScope, JobSummary } from './jobs/types.js';
import { CODES, MSG } from '../messages.js';

/** The roles the import routes admit; every other role (and none) is 403. */
export const IMPORT_ROLES = ['TEACHER', 'ADMIN'] as const satisfies readonly Role[];
export type ImportRole = (typeof IMPORT_ROLES)[number];

/**
 * Tenant and actor of a request: X-Organization-Id, X-User-Id and X-User-Role (the caller's role in
 * that organization, as the gateway computes it). A TEACHER sees its own jobs; an ADMIN the
 * organization's.
 */
export interface Scope {
  organizationId: string;
  userId: string;
  role: ImportRole;
}

export const jobScope = (s: Scope): JobScope => ({
  organizationId: s.organizationId,
  actorId: s.userId,
  actorRole: s.role,
});

/** Pure: a job is its creator's; an ADMIN sees every job of its organization; nobody crosses organizations. */
export function canSee(s: Scope, job: Pick<JobSummary, 'organizationId' | 'createdBy'>): boolean {
  return job.organizationId === s.organizationId && (s.role === 'ADMIN' || job.createdBy === s.userId);
}

export const jobNotFound = (): AppError => new AppError(CODES.jobNotFound, MSG.jobNotFound);

/** The job's detail when the scope may see it; 404 IMPORT_JOB_NOT_FOUND otherwise, as for an unknown id. */
export async function visibleJob(jobs: JobDeps, s: Scope, id: string): Promise<JobDetail> {
  const job = await getJob(jobs, jobScope(s), id);
  if (!canSee(s, job)) throw jobNotFound();
  return job;
}
