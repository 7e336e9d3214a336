import { Router } from 'express';
import { input, sse, validate } from '../../../kit/src/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { streamAllJobs, streamJob } from '../domain/streams.js';
import { jobIdParams } from './schemas.js';
import { requireScope, scope } from './scope.js';

export function eventRoutes(deps: ImportDeps): Router {
  const router = Router();
  const opts = { registry: deps.streams, heartbeatMs: deps.heartbeatMs, retryMs: 3000 };
  router.get(
    '/v1/import/docx/jobs/events',
    requireScope,
    sse((stream, req) => streamAllJobs(deps, scope(req.res!), stream), opts),
  );
  router.get(
    '/v1/import/docx/jobs/:id/events',
    requireScope,
    validate({ params: jobIdParams }),
    sse((stream, req) => streamJob(deps, scope(req.res!), input<{ id: string }>(req, 'params').id, stream), opts),
  );
  return router;
}
