import { Router } from 'express';
import { input, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import { applyClassification, type ApplyInput } from '../domain/ai-classify/apply.js';
import { classificationContext, type ContextInput } from '../domain/ai-classify/context.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { writerOf } from '../domain/questions/scope.js';
import { applyBody, contextBody } from '../schemas/ai-classify.js';

const writers = requireRole('ADMIN', 'TEACHER');

// Both routes prepare or make writes, so both need a writer: a teacher sees only its own questions.
export function aiClassifyRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  router.post('/v1/questions/ai-classify/context', writers, validate({ body: contextBody }), async (req, res) => {
    ok(res, await classificationContext(deps, writerOf(readActor(req)), input<ContextInput>(req, 'body')));
  });
  router.patch('/v1/questions/ai-classify/apply', writers, validate({ body: applyBody }), async (req, res) => {
    ok(res, await applyClassification(deps, writerOf(readActor(req)), input<ApplyInput>(req, 'body')));
  });
  onlyMethods(router, '/v1/questions/ai-classify/context', ['POST']);
  onlyMethods(router, '/v1/questions/ai-classify/apply', ['PATCH']);
  return router;
}
