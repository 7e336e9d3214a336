import { Router } from 'express';
import { input, list, ok, onlyMethods, pageParams, readActor, requireRole, validate } from '../../../kit/src/index.js';
import * as folders from '../domain/catalog/folders.js';
import * as groups from '../domain/catalog/groups.js';
import * as readModels from '../domain/catalog/read-models.js';
import { bulkTypeDelete, bulkTypeStatus } from '../domain/catalog/type-bulk.js';
import * as types from '../domain/catalog/types.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import * as s from '../schemas/catalog.js';

type Query = { page?: unknown; limit?: unknown };
const writer = requireRole('ADMIN', 'TEACHER');
const idOf = (req: Parameters<typeof readActor>[0]) => input<{ id: string }>(req, 'params').id;

function groupAndFolderRoutes(router: Router, deps: QuestionBankDeps): void {
  router.get('/v1/question-groups', validate({ query: s.listGroupsQuery }), async (req, res) => {
    const query = input<groups.ListGroupsQuery & Query>(req, 'query');
    const page = pageParams(query);
    list(res, ...pageResult(await groups.listGroups(deps, readActor(req), query, page), page));
  });
  router.post('/v1/question-groups', writer, validate({ body: s.createGroupBody }), async (req, res) => {
    ok(res, await groups.createGroup(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  router.get('/v1/question-folders', validate({ query: s.listFoldersQuery }), async (req, res) => {
    const query = input<{ organizationId?: string; allOrgs?: boolean } & Query>(req, 'query');
    const page = pageParams(query);
    list(res, ...pageResult(await folders.listFolders(deps, readActor(req), query, page), page));
  });
  router.post('/v1/question-folders', writer, validate({ body: s.createFolderBody }), async (req, res) => {
    ok(res, await folders.createFolder(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  const folderPatch = validate({ params: s.idParams, body: s.patchFolderBody });
  router.patch('/v1/question-folders/:id', writer, folderPatch, async (req, res) => {
    ok(res, await folders.patchFolder(deps, readActor(req), idOf(req), input(req, 'body')));
  });
  router.delete('/v1/question-folders/:id', writer, validate({ params: s.idParams }), async (req, res) => {
    ok(res, await folders.deleteFolder(deps, readActor(req), idOf(req)));
  });
}

function typeRoutes(router: Router, deps: QuestionBankDeps): void {
  router.get('/v1/question-types', validate({ query: s.listTypesQuery }), async (req, res) => {
    ok(res, await types.listTypes(deps, readActor(req), input(req, 'query')));
  });
  router.post('/v1/question-types', writer, validate({ body: s.createTypeBody }), async (req, res) => {
    ok(res, await types.createType(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  // The literal bulk paths come before /:id so they are never read as an id.
  router.patch('/v1/question-types/bulk-status', writer, validate({ body: s.bulkTypeStatusBody }), async (req, res) => {
    ok(res, await bulkTypeStatus(deps, readActor(req), input(req, 'body')));
  });
  router.post('/v1/question-types/bulk-delete', writer, validate({ body: s.bulkTypeDeleteBody }), async (req, res) => {
    ok(res, await bulkTypeDelete(deps, readActor(req), input(req, 'body')));
  });
  onlyMethods(router, '/v1/question-types/bulk-status', ['PATCH']);
  onlyMethods(router, '/v1/question-types/bulk-delete', ['POST']);
  const typePatch = validate({ params: s.idParams, body: s.patchTypeBody });
  router.patch('/v1/question-types/:id', writer, typePatch, async (req, res) => {
    ok(res, await types.patchType(deps, readActor(req), idOf(req), input(req, 'body')));
  });
  router.delete('/v1/question-types/:id', writer, validate({ params: s.idParams }), async (req, res) => {
    ok(res, await types.deleteType(deps, readActor(req), idOf(req)));
  });
}

function readModelRoutes(router: Router, deps: QuestionBankDeps): void {
  router.get('/v1/taxonomy/refs', validate({ query: s.listTaxonomyQuery }), async (req, res) => {
    const query = input<readModels.ListTaxonomyQuery & Query>(req, 'query');
    const page = pageParams(query, { defaultLimit: 100, maxLimit: 500 });
    list(res, ...pageResult(await readModels.listTaxonomy(deps, readActor(req), query, page), page));
  });
  router.put('/v1/taxonomy/refs', writer, validate({ body: s.putTaxonomyBody }), async (req, res) => {
    const body = input<{ items: readModels.TaxonomyRefInput[] }>(req, 'body');
    ok(res, await readModels.putTaxonomy(deps, readActor(req), body.items));
  });
  router.put('/v1/questions/usage-counts', writer, validate({ body: s.putUsageCountsBody }), async (req, res) => {
    const body = input<{ items: readModels.UsageCountInput[] }>(req, 'body');
    ok(res, await readModels.putUsageCounts(deps, readActor(req), body.items));
  });
  router.put('/v1/questions/relation-refs', writer, validate({ body: s.putRelationRefsBody }), async (req, res) => {
    ok(res, await readModels.putRelationRefs(deps, readActor(req), input(req, 'body')));
  });
  router.put('/v1/questions/exam-refs', writer, validate({ body: s.putExamRefsBody }), async (req, res) => {
    const body = input<{ exams: readModels.ExamRefInput[] }>(req, 'body');
    ok(res, await readModels.putExamRefs(deps, readActor(req), body.exams));
  });
  for (const path of ['/v1/questions/usage-counts', '/v1/questions/relation-refs', '/v1/questions/exam-refs']) {
    onlyMethods(router, path, ['PUT']);
  }
}

function pageResult<T>(
  result: { items: T[]; total: number },
  page: { page: number; limit: number },
): [T[], { page: number; limit: number; total: number }] {
  return [result.items, { page: page.page, limit: page.limit, total: result.total }];
}

/** Groups, folders, question types and the read-model backfill routes. */
export function catalogRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  groupAndFolderRoutes(router, deps);
  typeRoutes(router, deps);
  readModelRoutes(router, deps);
  return router;
}
