import { Router } from 'express';
import { input, list, ok, readActor, validate } from '../../../kit/src/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import type { ListQuery } from '../domain/questions/filters.js';
import { getQuestion, listQuestions } from '../domain/questions/read.js';
import { legacyDetail, legacyListItem } from '../domain/questions/views.js';
import { detailQuery, listQuestionsQuery, questionIdParams } from '../schemas/questions.js';

export function legacyRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  router.get('/v1/legacy/questions', validate({ query: listQuestionsQuery }), async (req, res) => {
    const query = input<ListQuery>(req, 'query');
    const { items, meta } = await listQuestions(deps, readActor(req), query, 'legacy');
    list(res, items.map(legacyListItem), meta);
  });
  const byId = validate({ params: questionIdParams, query: detailQuery });
  router.get('/v1/legacy/questions/:id', byId, async (req, res) => {
    const { id } = input<{ id: string }>(req, 'params');
    const query = input<{ view?: string }>(req, 'query');
    const item = await getQuestion(deps, readActor(req), id, { ...query, legacy: true });
    ok(res, legacyDetail(item as Parameters<typeof legacyDetail>[0], query.view === 'editor'));
  });
  return router;
}
