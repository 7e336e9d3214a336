import { ok, okResponse, readActor, ref, requireRole, routes, type Route } from '../../../kit/src/index.js';
import { applyClassification } from '../domain/ai-classify/apply.js';
import { classificationContext } from '../domain/ai-classify/context.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { writerOf } from '../domain/questions/scope.js';
import { applyBody, contextBody } from '../schemas/ai-classify.js';
import { standardErrors, WRITE_HEADERS } from './docs.js';

const route = routes<QuestionBankDeps>();
// Both routes prepare or make writes, so both need a writer: a teacher sees only its own questions.
const writers = () => [requireRole('ADMIN', 'TEACHER')];

/** AI classification: the context a classifier needs, and applying its reviewed answer. */
export const aiClassifyRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'post',
    path: '/v1/questions/ai-classify/context',
    body: contextBody,
    before: writers,
    doc: {
      summary: 'Classification context of up to 25 questions (ADMIN or TEACHER)',
      operationId: 'aiClassifyContext',
      parameters: WRITE_HEADERS,
      responses: {
        200: okResponse('Success', ref('schemas', 'AiClassifyContext')),
        ...standardErrors(400, 401, 403, 413, 415, 500, 503),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await classificationContext(deps, writerOf(readActor(req)), req.valid.body));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/questions/ai-classify/apply',
    body: applyBody,
    before: writers,
    doc: {
      summary: 'Apply reviewed AI classification to up to 25 questions (ADMIN or TEACHER)',
      operationId: 'aiClassifyApply',
      parameters: WRITE_HEADERS,
      responses: {
        200: okResponse('Success', ref('schemas', 'AiClassifyApplyResult')),
        ...standardErrors(400, 401, 403, 409, 413, 415, 500, 503),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await applyClassification(deps, writerOf(readActor(req)), req.valid.body));
    },
  }),
];
