import { routes, sse, type Route } from '../../../kit/src/http/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { streamAllJobs, streamJob } from '../domain/streams.js';
import { eventStream, JOB_ERRORS, refused, SCOPE_ERRORS, SCOPE_HEADERS, SECURED } from './doc.js';
import { jobIdParams } from './schemas.js';
import { requireScope, scope } from './scope.js';
import { streamRegistry } from './streams.js';

const route = routes<ImportDeps>();
const inScope = () => [requireScope];
const streamOptions = (deps: ImportDeps) => ({
  registry: streamRegistry(deps),
  heartbeatMs: deps.heartbeatMs,
  retryMs: 3000,
});
const UNAVAILABLE = refused({ 503: 'Unavailable' });

/** The job event streams (server-sent events): every job the caller may see, or one job. */
export const eventRoutes: ReadonlyArray<Route<ImportDeps>> = [
  route({
    method: 'get',
    path: '/v1/import/docx/jobs/events',
    before: inScope,
    doc: {
      summary: 'Server-sent events for every job the caller may see',
      operationId: 'allJobEvents',
      parameters: SCOPE_HEADERS,
      responses: {
        200: eventStream(
          '`job.snapshot` (summary) for each of the 100 newest stored jobs, `ready` {replayed, total}, then live `job.updated` (summary, never the parse body) as jobs start, complete, fail, are reviewed or approved; a `: heartbeat` comment every 15 s (DOCX_IMPORT_SSE_HEARTBEAT_MS); `retry: 3000` first.',
          ['job.snapshot', 'ready', 'job.updated'],
        ),
        ...refused(SCOPE_ERRORS),
        ...UNAVAILABLE,
      },
      extra: SECURED,
    },
    handle: (req, res, deps, next) => {
      sse((stream) => streamAllJobs(deps, scope(res), stream), streamOptions(deps))(req, res, next);
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/jobs/:id/events',
    before: inScope,
    params: jobIdParams,
    doc: {
      summary: 'Server-sent events for one job',
      operationId: 'jobEvents',
      parameters: SCOPE_HEADERS,
      responses: {
        200: eventStream(
          'The stored events oldest first (event name = type: job.queued, job.started, job.completed, job.failed, review.updated, approval.completed, auto_approval.completed, auto_approval.failed; data with `time`), `job.snapshot` (summary), then live `job.updated`; heartbeats as comments.',
          [
            'job.queued',
            'job.started',
            'job.completed',
            'job.failed',
            'review.updated',
            'approval.completed',
            'auto_approval.completed',
            'auto_approval.failed',
            'job.snapshot',
            'job.updated',
          ],
        ),
        ...refused(JOB_ERRORS),
        ...UNAVAILABLE,
      },
      extra: SECURED,
    },
    handle: (req, res, deps, next) => {
      const id = req.valid.params.id;
      sse((stream) => streamJob(deps, scope(res), id, stream), streamOptions(deps))(req, res, next);
    },
  }),
];
