import { readActor } from '../../../kit/src/core/index.js';
import { list, ok, okResponse, ref, type Route } from '../../../kit/src/http/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { getQuestion, listQuestions } from '../domain/questions/read.js';
import { legacyDetail, legacyListItem } from '../domain/questions/views.js';
import { detailQuery, listQuestionsQuery } from '../schemas/question-queries.js';
import { questionIdParams } from '../schemas/questions.js';
import { pageOf, READ_ERRORS, READ_HEADERS, SCOPED_READ, standardErrors } from './docs.js';
import { okWith, route } from './declare.js';

/** The legacy adapters: the question list and detail in the old shapes. */
export const legacyRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'get',
    path: '/v1/legacy/questions',
    query: listQuestionsQuery,
    doc: {
      summary: 'Legacy list adapter',
      operationId: 'legacyListQuestions',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: {
        200: okResponse('Success', pageOf(ref('schemas', 'LegacyQuestionListItem'))),
        ...standardErrors(400, 401, 403, 500, 503),
      },
    },
    handle: async (req, res, deps) => {
      const { items, meta } = await listQuestions(deps, readActor(req), req.valid.query, 'legacy');
      list(res, items.map(legacyListItem), meta);
    },
  }),
  route({
    method: 'get',
    path: '/v1/legacy/questions/:id',
    params: questionIdParams,
    query: detailQuery,
    doc: {
      summary: 'Legacy detail adapter',
      operationId: 'legacyGetQuestion',
      parameters: READ_HEADERS,
      responses: okWith('LegacyQuestionDetail', READ_ERRORS),
    },
    handle: async (req, res, deps) => {
      const query = req.valid.query;
      const item = await getQuestion(deps, readActor(req), req.valid.params.id, { ...query, legacy: true });
      ok(res, legacyDetail(item as Parameters<typeof legacyDetail>[0], query.view === 'editor'));
    },
  }),
];
