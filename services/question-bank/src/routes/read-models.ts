import { readActor, type Actor } from '../../../kit/src/core/index.js';
import { ok, okResponse, ref, type Empty, type Route, type RouteDeclaration } from '../../../kit/src/http/index.js';
import * as readModels from '../domain/catalog/read-models.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import * as s from '../schemas/catalog.js';
import { pagedList } from './catalog.js';
import { WRITE_ERRORS } from './docs.js';
import { okWith, route, writeRoute, writers } from './declare.js';

const PUT_COUNT = okWith('PutCount', WRITE_ERRORS);

/** What a backfill PUT declares: a write whose body goes to one domain call, answering its count. */
interface Backfill<B> {
  path: string;
  body: NonNullable<RouteDeclaration<Empty, Empty, B, QuestionBankDeps>['body']>;
  summary: string;
  operationId: string;
  description: string;
  run(deps: QuestionBankDeps, actor: Actor, body: B): Promise<unknown>;
}

/** A backfill PUT (the writer's scope headers) answering `PutCount`. */
function backfill<B>(b: Backfill<B>): Route<QuestionBankDeps> {
  return writeRoute<Empty, Empty, B>({
    method: 'put',
    path: b.path,
    body: b.body,
    doc: { summary: b.summary, operationId: b.operationId, description: b.description, responses: PUT_COUNT },
    handle: async (req, res, deps) => {
      ok(res, await b.run(deps, readActor(req), req.valid.body));
    },
  });
}

/** The taxonomy list and the read-model backfills (internal writes of other services' data). */
export const readModelRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  pagedList({
    path: '/v1/taxonomy/refs',
    query: s.listTaxonomyQuery,
    summary: 'List taxonomy refs of the scope',
    operationId: 'listTaxonomyRefs',
    item: 'TaxonomyRef',
    limits: { defaultLimit: 100, maxLimit: 500 },
    read: readModels.listTaxonomy,
  }),
  route({
    method: 'put',
    path: '/v1/taxonomy/refs',
    body: s.putTaxonomyBody,
    before: writers,
    doc: {
      summary: 'Backfill taxonomy refs (upsert by id)',
      operationId: 'putTaxonomyRefs',
      description:
        'Issue 20: rows are written for X-Organization-Id only (403 for another organizationId); global rows only by ADMIN without X-Organization-Id; an id held by another organization or the global scope is 409 READ_MODEL_ID_CONFLICT and nothing is written.',
      parameters: [
        {
          name: 'X-Organization-Id',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: '^([A-Za-z0-9_.:@-]{1,128})?$' },
          description:
            "The organization whose rows are written. Absent: only the platform admin (X-User-Role ADMIN without an organization) may call, and writes global rows; anyone else is 403 (global rows are the platform's). Empty is the same as absent.",
        },
        ref('parameters', 'UserHeaderRequired'),
        ref('parameters', 'RoleHeaderRequired'),
      ],
      responses: PUT_COUNT,
    },
    handle: async (req, res, deps) => {
      ok(res, await readModels.putTaxonomy(deps, readActor(req), req.valid.body.items));
    },
  }),
  backfill({
    path: '/v1/questions/usage-counts',
    body: s.putUsageCountsBody,
    summary: 'Backfill per-question usage counters (upsert by questionId)',
    operationId: 'putUsageCounts',
    description:
      "Issue 20: X-Organization-Id required; only counts of the writer's organization's questions (409 READ_MODEL_ID_CONFLICT for a question of another organization, nothing written); an item organizationId other than the header is 403.",
    run: (deps, actor, body) => readModels.putUsageCounts(deps, actor, body.items),
  }),
  writeRoute({
    method: 'put',
    path: '/v1/questions/relation-refs',
    body: s.putRelationRefsBody,
    doc: {
      summary: 'Backfill user and organization refs (upsert by id)',
      operationId: 'putRelationRefs',
      description:
        "Issue 20: users are written for X-Organization-Id only; an organization ref only for the header's own organization (403 otherwise); a user id held by another organization is 409 READ_MODEL_ID_CONFLICT.",
      responses: {
        200: okResponse('Success', {
          type: 'object',
          additionalProperties: false,
          properties: { users: { type: 'integer', minimum: 0 }, organizations: { type: 'integer', minimum: 0 } },
          required: ['users', 'organizations'],
        }),
        ...WRITE_ERRORS,
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await readModels.putRelationRefs(deps, readActor(req), req.valid.body));
    },
  }),
  backfill({
    path: '/v1/questions/exam-refs',
    body: s.putExamRefsBody,
    summary: 'Backfill exam refs (upsert by exam and question)',
    operationId: 'putExamRefs',
    description:
      "Issue 20: X-Organization-Id required; only exam refs of the writer's organization's questions (409 READ_MODEL_ID_CONFLICT for another organization's question, nothing written).",
    run: (deps, actor, body) => readModels.putExamRefs(deps, actor, body.exams),
  }),
];
