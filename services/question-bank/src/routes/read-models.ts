import { list, ok, okResponse, pageParams, readActor, ref, type Route } from '../../../kit/src/index.js';
import * as readModels from '../domain/catalog/read-models.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import * as s from '../schemas/catalog.js';
import { pageResult } from './catalog.js';
import { pageOf, READ_ERRORS, READ_HEADERS, SCOPED_READ, WRITE_ERRORS } from './docs.js';
import { okWith, route, writeRoute, writers } from './declare.js';

const PUT_COUNT = okWith('PutCount', WRITE_ERRORS);

/** The taxonomy list and the read-model backfills (internal writes of other services' data). */
export const readModelRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'get',
    path: '/v1/taxonomy/refs',
    query: s.listTaxonomyQuery,
    doc: {
      summary: 'List taxonomy refs of the scope',
      operationId: 'listTaxonomyRefs',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', pageOf(ref('schemas', 'TaxonomyRef'))), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      const page = pageParams(req.valid.query, { defaultLimit: 100, maxLimit: 500 });
      list(res, ...pageResult(await readModels.listTaxonomy(deps, readActor(req), req.valid.query, page), page));
    },
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
  writeRoute({
    method: 'put',
    path: '/v1/questions/usage-counts',
    body: s.putUsageCountsBody,
    doc: {
      summary: 'Backfill per-question usage counters (upsert by questionId)',
      operationId: 'putUsageCounts',
      description:
        "Issue 20: X-Organization-Id required; only counts of the writer's organization's questions (409 READ_MODEL_ID_CONFLICT for a question of another organization, nothing written); an item organizationId other than the header is 403.",
      responses: PUT_COUNT,
    },
    handle: async (req, res, deps) => {
      ok(res, await readModels.putUsageCounts(deps, readActor(req), req.valid.body.items));
    },
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
  writeRoute({
    method: 'put',
    path: '/v1/questions/exam-refs',
    body: s.putExamRefsBody,
    doc: {
      summary: 'Backfill exam refs (upsert by exam and question)',
      operationId: 'putExamRefs',
      description:
        "Issue 20: X-Organization-Id required; only exam refs of the writer's organization's questions (409 READ_MODEL_ID_CONFLICT for another organization's question, nothing written).",
      responses: PUT_COUNT,
    },
    handle: async (req, res, deps) => {
      ok(res, await readModels.putExamRefs(deps, readActor(req), req.valid.body.exams));
    },
  }),
];
