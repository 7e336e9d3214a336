import { Router, type Request } from 'express';
import { input, list, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import type { QuestionInput } from '../domain/questions/body.js';
import type { ListQuery } from '../domain/questions/filters.js';
import { getQuestion, listQuestions, searchProjections } from '../domain/questions/read.js';
import { bulkSetStatus, deleteQuestion } from '../domain/questions/remove.js';
import { writerOf } from '../domain/questions/scope.js';
import { createQuestion, updateQuestion } from '../domain/questions/write.js';
import { MSG } from '../messages.js';
import type { QuestionStatus } from '../store/question-models.js';
import {
  bulkStatusBody,
  createQuestionBody,
  detailQuery,
  listQuestionsQuery,
  patchQuestionBody,
  projectionQuery,
  questionIdParams,
} from '../schemas/questions.js';

const writers = requireRole('ADMIN', 'TEACHER');

/** The hydrated question a write answers with, read in the writer's scope. */
const detailOf = (deps: QuestionBankDeps, req: Request, id: string) => getQuestion(deps, readActor(req), id, {});

export function questionRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  router.get('/v1/questions', validate({ query: listQuestionsQuery }), async (req, res) => {
    const query = input<ListQuery>(req, 'query');
    const { items, meta } = await listQuestions(deps, readActor(req), query);
    list(res, items, meta);
  });
  router.get('/v1/questions/search-projections', validate({ query: projectionQuery }), async (req, res) => {
    ok(res, await searchProjections(deps, readActor(req), input(req, 'query')));
  });
  router.patch('/v1/questions/bulk-status', writers, validate({ body: bulkStatusBody }), async (req, res) => {
    const body = input<{ ids: string[]; status: QuestionStatus }>(req, 'body');
    ok(res, await bulkSetStatus(deps, writerOf(readActor(req)), body));
  });
  // Before /v1/questions/:id, which would take these fixed segments for an id.
  onlyMethods(router, '/v1/questions/search-projections', ['GET', 'HEAD']);
  onlyMethods(router, '/v1/questions/bulk-status', ['PATCH']);
  router.post('/v1/questions', writers, validate({ body: createQuestionBody }), async (req, res) => {
    const row = await createQuestion(deps, writerOf(readActor(req)), input<QuestionInput>(req, 'body'));
    ok(res, await detailOf(deps, req, row._id), MSG.questionCreated, 201);
  });
  const byId = validate({ params: questionIdParams, query: detailQuery });
  router.get('/v1/questions/:id', byId, async (req, res) => {
    ok(res, await getQuestion(deps, readActor(req), input<{ id: string }>(req, 'params').id, input(req, 'query')));
  });
  const patch = validate({ params: questionIdParams, body: patchQuestionBody });
  router.patch('/v1/questions/:id', writers, patch, async (req, res) => {
    const { id } = input<{ id: string }>(req, 'params');
    await updateQuestion(deps, writerOf(readActor(req)), id, input<QuestionInput>(req, 'body'));
    ok(res, await detailOf(deps, req, id), MSG.questionUpdated);
  });
  router.delete('/v1/questions/:id', writers, validate({ params: questionIdParams }), async (req, res) => {
    const { id } = input<{ id: string }>(req, 'params');
    ok(res, await deleteQuestion(deps, writerOf(readActor(req)), id), MSG.questionDeleted);
  });
  return router;
}
