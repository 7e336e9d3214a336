import { Router } from 'express';
import {
  input,
  ok,
  onlyMethods,
  readActor,
  requireRole,
  sse,
  StreamRegistry,
  validate,
} from '../../../kit/src/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { permanentDelete, permanentDeleteImpact, type Selection } from '../domain/deletion/impact.js';
import { cancelJob, createJob, getJob, streamJob } from '../domain/deletion/jobs.js';
import type { NewJobInput } from '../domain/deletion/plan.js';
import { impactBody, jobBody, jobIdParams, permanentDeleteBody } from '../domain/deletion/schemas.js';
import { writerOf } from '../domain/questions/scope.js';

const writers = requireRole('ADMIN', 'TEACHER');
const BASE = '/v1/questions/permanent-delete';
/** Heartbeat comments on job streams, under common proxy idle timeouts. */
export const JOB_STREAM_HEARTBEAT_MS = 10_000;

export function deletionRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  const jobId = validate({ params: jobIdParams });
  const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;
  router.post('/v1/questions/permanent-delete-impact', writers, validate({ body: impactBody }), async (req, res) => {
    ok(res, await permanentDeleteImpact(deps, writerOf(readActor(req)), input<Selection>(req, 'body')));
  });
  router.post(BASE, writers, validate({ body: permanentDeleteBody }), async (req, res) => {
    ok(res, await permanentDelete(deps, writerOf(readActor(req)), input<{ ids: string[] }>(req, 'body')));
  });
  router.post(`${BASE}/jobs`, writers, validate({ body: jobBody }), async (req, res) => {
    const body = input<Selection>(req, 'body');
    const job: NewJobInput = body.mode === 'all' ? { mode: 'all' } : { mode: 'ids', ids: body.ids };
    ok(res, await createJob(deps, writerOf(readActor(req)), job), 'Permanent-delete job accepted', 202);
  });
  // Before /v1/questions/:id, which would take these fixed segments for an id.
  onlyMethods(router, '/v1/questions/permanent-delete-impact', ['POST']);
  onlyMethods(router, BASE, ['POST']);
  onlyMethods(router, `${BASE}/jobs`, ['POST']);
  router.get(`${BASE}/jobs/:id`, writers, jobId, async (req, res) => {
    ok(res, await getJob(deps, writerOf(readActor(req)), idOf(req)));
  });
  router.post(`${BASE}/jobs/:id/cancel`, writers, jobId, async (req, res) => {
    ok(res, await cancelJob(deps, writerOf(readActor(req)), idOf(req)));
  });
  const registry = deps.deletion?.streams ?? new StreamRegistry();
  const events = sse((stream, req) => streamJob(deps, writerOf(readActor(req)), idOf(req), stream), {
    registry,
    heartbeatMs: JOB_STREAM_HEARTBEAT_MS,
  });
  router.get(`${BASE}/jobs/:id/events`, writers, jobId, events);
  return router;
}
