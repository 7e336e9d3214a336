import { Router } from 'express';
import { AppError, input, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import type { BlueprintRequest } from '../domain/blueprint/plan.js';
import { selectForBlueprint } from '../domain/blueprint/select.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import type { ScopeQuery } from '../domain/questions/scope.js';
import { blueprintBody, blueprintQuery } from '../schemas/blueprint.js';

const PATH = '/v1/internal/questions/select-for-exam-blueprint';
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
export function blueprintRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  const guard = requireRole('ADMIN', 'TEACHER');
  router.post(PATH, guard, validate({ query: blueprintQuery, body: blueprintBody }), async (req, res) => {
    const body = input<BlueprintRequest>(req, 'body');
    const result = await selectForBlueprint(deps, readActor(req), input<ScopeQuery>(req, 'query'), body);
    if (!result.complete && body.requireComplete) {
      const { items: _items, ...summary } = result;
      throw new AppError(BLUEPRINT_INCOMPLETE, BLUEPRINT_MSG.incomplete, { details: summary });
    }
    ok(res, result, result.complete ? BLUEPRINT_MSG.complete : BLUEPRINT_MSG.incomplete);
  });
  onlyMethods(router, PATH, ['POST']);
  return router;
}
