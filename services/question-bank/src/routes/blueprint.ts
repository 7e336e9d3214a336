import { AppError, readActor } from '../../../kit/src/core/index.js';
import { errorResponses, ok, ref, type Route } from '../../../kit/src/http/index.js';
import { selectForBlueprint } from '../domain/blueprint/select.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { blueprintBody, blueprintQuery } from '../schemas/blueprint.js';
import { okWithMessage, standardErrors } from './docs.js';
import { route, writers } from './declare.js';

export const BLUEPRINT_MSG = {
  complete: 'OK',
  incomplete: 'Blueprint incomplete: some rules could not be filled',
} as const;
export const BLUEPRINT_INCOMPLETE = 'BLUEPRINT_INCOMPLETE';

/**
 * The exam service's trusted selection. Like the other internal routes it sits behind the
 * app-wide X-Internal-Token guard (when INTERNAL_API_TOKEN is set) and needs an ADMIN or TEACHER
 * actor: the answer carries answer keys, which a student or an anonymous caller must never get.
 */
export const blueprintRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'post',
    path: '/v1/internal/questions/select-for-exam-blueprint',
    query: blueprintQuery,
    body: blueprintBody,
    before: writers,
    doc: {
      summary: 'Select questions for an exam blueprint (internal, for the exam service)',
      operationId: 'selectForExamBlueprint',
      description:
        'Trusted service-to-service route. Behind X-Internal-Token when INTERNAL_API_TOKEN is set, and it needs X-User-Id with role ADMIN or TEACHER (the answer carries answer keys). Read scope as GET /v1/questions: the organization (header, else the organizationId query; allOrgs=1 for ADMIN only), and a TEACHER sees only its own questions. Only PUBLISHED, live questions qualify.',
      parameters: [
        ref('parameters', 'OrganizationHeader'),
        ref('parameters', 'UserHeaderRequired'),
        ref('parameters', 'RoleHeaderRequired'),
      ],
      responses: {
        200: okWithMessage(
          "The selection. `complete` false (message 'Blueprint incomplete: some rules could not be filled') when a rule could not be filled: read `rules[].shortfall`.",
          ref('schemas', 'BlueprintSelection'),
          [BLUEPRINT_MSG.complete, BLUEPRINT_MSG.incomplete],
        ),
        ...standardErrors(400, 401, 403, 413, 415, 500, 503),
        ...errorResponses({
          409: 'BLUEPRINT_INCOMPLETE: requireComplete was true and a rule could not be filled; error.details is the selection summary (BlueprintSelectionSummary, no items).',
        }),
      },
    },
    handle: async (req, res, deps) => {
      const body = req.valid.body;
      const result = await selectForBlueprint(deps, readActor(req), req.valid.query, body);
      if (!result.complete && body.requireComplete) {
        const { items: _items, ...summary } = result;
        throw new AppError(BLUEPRINT_INCOMPLETE, BLUEPRINT_MSG.incomplete, { details: summary });
      }
      ok(res, result, result.complete ? BLUEPRINT_MSG.complete : BLUEPRINT_MSG.incomplete);
    },
  }),
];
