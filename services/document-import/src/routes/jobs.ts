import { Router, type RequestHandler } from 'express';
import { input, list, ok, onlyMethods, validate } from '../../../kit/src/index.js';
import { approveJob } from '../domain/approve.js';
import type { ApproveRequest, ImportDeps } from '../domain/deps.js';
import { jobDetail, jobStatus, listJobs, submitUploadJob, type ListQuery } from '../domain/jobs.js';
import { saveReview, type ReviewBody } from '../domain/review.js';
import { MSG } from '../messages.js';
import { approveBody, jobIdParams, libraryQuery, listQuery, reviewBody, uploadJobFields } from './schemas.js';
import { requireScope, scope } from './scope.js';

const idOf = (req: Parameters<typeof input>[0]) => input<{ id: string }>(req, 'params').id;

export function jobRoutes(deps: ImportDeps, docxUpload: RequestHandler): Router {
  const router = Router();
  const byId = validate({ params: jobIdParams });
  router.post(
    '/v1/import/docx/qas/jobs',
    requireScope,
    docxUpload,
    validate({ body: uploadJobFields }),
    async (req, res) => {
      const job = await submitUploadJob(deps, scope(res), req.file!, input(req, 'body'));
      ok(res, job, MSG.jobQueued, 202);
    },
  );
  router.get('/v1/import/docx/teacher-library', requireScope, validate({ query: libraryQuery }), async (req, res) => {
    const { items, meta } = await listJobs(deps, scope(res), input<ListQuery>(req, 'query'), true);
    list(res, items, meta);
  });
  router.get('/v1/import/docx/jobs', requireScope, validate({ query: listQuery }), async (req, res) => {
    const { items, meta } = await listJobs(deps, scope(res), input<ListQuery>(req, 'query'), false);
    list(res, items, meta);
  });
  // Before /jobs/:id, which would take `events` for an id.
  onlyMethods(router, '/v1/import/docx/jobs/events', ['GET', 'HEAD']);
  router.get('/v1/import/docx/jobs/:id', requireScope, byId, async (req, res) => {
    ok(res, await jobDetail(deps, scope(res), idOf(req)));
  });
  router.get('/v1/import/docx/jobs/:id/status', requireScope, byId, async (req, res) => {
    ok(res, await jobStatus(deps, scope(res), idOf(req)));
  });
  const review = validate({ params: jobIdParams, body: reviewBody });
  router.patch('/v1/import/docx/jobs/:id/review', requireScope, review, async (req, res) => {
    ok(res, await saveReview(deps, scope(res), idOf(req), input<ReviewBody>(req, 'body')), MSG.reviewSaved);
  });
  const approve = validate({ params: jobIdParams, body: approveBody });
  router.post('/v1/import/docx/jobs/:id/approve', requireScope, approve, async (req, res) => {
    const answer = await approveJob(deps, scope(res), idOf(req), input<ApproveRequest>(req, 'body'));
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    ok(res, answer, MSG.approved);
  });
  return router;
}
