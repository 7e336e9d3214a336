import type { Route } from '../../../kit/src/http/index.js';
import { applyClassification } from '../domain/ai-classify/apply.js';
import { classificationContext } from '../domain/ai-classify/context.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { applyBody, contextBody } from '../schemas/ai-classify.js';
import { standardErrors } from './docs.js';
import { okWith, writerCall } from './declare.js';

/** AI classification: the context a classifier needs, and applying its reviewed answer. */
export const aiClassifyRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  writerCall({
    method: 'post',
    path: '/v1/questions/ai-classify/context',
    body: contextBody,
    doc: {
      summary: 'Classification context of up to 25 questions (ADMIN or TEACHER)',
      operationId: 'aiClassifyContext',
      responses: okWith('AiClassifyContext', standardErrors(400, 401, 403, 413, 415, 500, 503)),
    },
    run: classificationContext,
  }),
  writerCall({
    method: 'patch',
    path: '/v1/questions/ai-classify/apply',
    body: applyBody,
    doc: {
      summary: 'Apply reviewed AI classification to up to 25 questions (ADMIN or TEACHER)',
      operationId: 'aiClassifyApply',
      responses: okWith('AiClassifyApplyResult', standardErrors(400, 401, 403, 409, 413, 415, 500, 503)),
    },
    run: applyClassification,
  }),
];
