import { Router } from 'express';
import { input, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import { createAiPreviewDraft, type DraftInput } from '../domain/ai-preview/drafts.js';
import type { SolutionInput } from '../domain/ai-preview/solution-body.js';
import { applyAiPreviewSolution } from '../domain/ai-preview/solutions.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { getQuestion } from '../domain/questions/read.js';
import { writerOf } from '../domain/questions/scope.js';
import { aiPreviewDraftBody, aiPreviewSolutionBody } from '../schemas/ai-preview.js';

const writers = requireRole('ADMIN', 'TEACHER');

const TEXT = {
  draftCreated: 'AI preview draft created',
  draftReplayed: 'AI preview draft already created',
  solutionApplied: 'AI preview solution applied',
  solutionReplayed: 'AI preview solution already applied',
} as const;

export function aiPreviewRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  router.post('/v1/questions/ai-preview-drafts', writers, validate({ body: aiPreviewDraftBody }), async (req, res) => {
    const actor = readActor(req);
    const r = await createAiPreviewDraft(deps, writerOf(actor), input<DraftInput>(req, 'body'));
    const question = await getQuestion(deps, actor, r.questionId, {});
    ok(res, question, r.created ? TEXT.draftCreated : TEXT.draftReplayed, r.created ? 201 : 200);
  });
  const solution = validate({ body: aiPreviewSolutionBody });
  router.post('/v1/questions/ai-preview-solutions', writers, solution, async (req, res) => {
    const actor = readActor(req);
    const r = await applyAiPreviewSolution(deps, writerOf(actor), input<SolutionInput>(req, 'body'));
    const question = await getQuestion(deps, actor, r.questionId, {});
    ok(res, question, r.replayed ? TEXT.solutionReplayed : TEXT.solutionApplied);
  });
  // Before /v1/questions/:id, which would take these fixed segments for an id.
  onlyMethods(router, '/v1/questions/ai-preview-drafts', ['POST']);
  onlyMethods(router, '/v1/questions/ai-preview-solutions', ['POST']);
  return router;
}
