import {
  list,
  ok,
  okResponse,
  pageParams,
  readActor,
  ref,
  requireRole,
  routes,
  type Route,
} from '../../../kit/src/index.js';
import * as folders from '../domain/catalog/folders.js';
import * as groups from '../domain/catalog/groups.js';
import { bulkTypeDelete, bulkTypeStatus } from '../domain/catalog/type-bulk.js';
import * as types from '../domain/catalog/types.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import * as s from '../schemas/catalog.js';
import {
  idLinks,
  pageOf,
  READ_ERRORS,
  READ_HEADERS,
  SCOPED_READ,
  standardErrors,
  WRITE_ERRORS,
  WRITE_HEADERS,
} from './docs.js';

const route = routes<QuestionBankDeps>();
const writers = () => [requireRole('ADMIN', 'TEACHER')];

/** A page of `result` as `list()` takes it. */
export function pageResult<T>(
  result: { items: T[]; total: number },
  page: { page: number; limit: number },
): [T[], { page: number; limit: number; total: number }] {
  return [result.items, { page: page.page, limit: page.limit, total: result.total }];
}

const DELETE_ERRORS = standardErrors(400, 401, 403, 404, 409, 500, 503);

/** A created resource's 201, linking to its PATCH and DELETE. */
function createdWithLinks(schema: string, patch: string, remove: string) {
  return {
    201: { ...okResponse('Created', ref('schemas', schema)), links: idLinks({ Patch: patch, Delete: remove }) },
    ...WRITE_ERRORS,
  };
}

const groupAndFolderRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'get',
    path: '/v1/question-groups',
    query: s.listGroupsQuery,
    doc: {
      summary: 'List question groups',
      operationId: 'listQuestionGroups',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', pageOf(ref('schemas', 'QuestionGroup'))), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      const page = pageParams(req.valid.query);
      list(res, ...pageResult(await groups.listGroups(deps, readActor(req), req.valid.query, page), page));
    },
  }),
  route({
    method: 'post',
    path: '/v1/question-groups',
    body: s.createGroupBody,
    before: writers,
    doc: {
      summary: 'Create a question group (shared passage)',
      operationId: 'createQuestionGroup',
      parameters: WRITE_HEADERS,
      responses: { 201: okResponse('Created', ref('schemas', 'QuestionGroup')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await groups.createGroup(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/question-folders',
    query: s.listFoldersQuery,
    doc: {
      summary: 'List folders the actor sees',
      operationId: 'listQuestionFolders',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', pageOf(ref('schemas', 'QuestionFolder'))), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      const page = pageParams(req.valid.query);
      list(res, ...pageResult(await folders.listFolders(deps, readActor(req), req.valid.query, page), page));
    },
  }),
  route({
    method: 'post',
    path: '/v1/question-folders',
    body: s.createFolderBody,
    before: writers,
    doc: {
      summary: 'Create a folder',
      operationId: 'createQuestionFolder',
      parameters: WRITE_HEADERS,
      responses: createdWithLinks('QuestionFolder', 'patchQuestionFolder', 'deleteQuestionFolder'),
    },
    handle: async (req, res, deps) => {
      ok(res, await folders.createFolder(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'patch',
    path: '/v1/question-folders/:id',
    params: s.idParams,
    body: s.patchFolderBody,
    before: writers,
    doc: {
      summary: 'Rename, move or change visibility of a folder',
      operationId: 'patchQuestionFolder',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'QuestionFolder')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await folders.patchFolder(deps, readActor(req), req.valid.params.id, req.valid.body));
    },
  }),
  route({
    method: 'delete',
    path: '/v1/question-folders/:id',
    params: s.idParams,
    before: writers,
    doc: {
      summary: 'Delete an empty folder',
      operationId: 'deleteQuestionFolder',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'FolderDeleted')), ...DELETE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await folders.deleteFolder(deps, readActor(req), req.valid.params.id));
    },
  }),
];

const typeRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'get',
    path: '/v1/question-types',
    query: s.listTypesQuery,
    doc: {
      summary: 'List question type definitions (seeds the eight core types of the scope)',
      operationId: 'listQuestionTypes',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: {
        200: okResponse('Success', { type: 'array', maxItems: 500, items: ref('schemas', 'QuestionType') }),
        ...READ_ERRORS,
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await types.listTypes(deps, readActor(req), req.valid.query));
    },
  }),
  route({
    method: 'post',
    path: '/v1/question-types',
    body: s.createTypeBody,
    before: writers,
    doc: {
      summary: 'Create an actor-owned custom type',
      operationId: 'createQuestionType',
      parameters: WRITE_HEADERS,
      responses: createdWithLinks('QuestionType', 'patchQuestionType', 'deleteQuestionType'),
    },
    handle: async (req, res, deps) => {
      ok(res, await types.createType(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'patch',
    path: '/v1/question-types/bulk-status',
    body: s.bulkTypeStatusBody,
    before: writers,
    doc: {
      summary: 'Set the status of many types',
      operationId: 'bulkQuestionTypeStatus',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'TypeBulkStatusResult')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await bulkTypeStatus(deps, readActor(req), req.valid.body));
    },
  }),
  route({
    method: 'post',
    path: '/v1/question-types/bulk-delete',
    body: s.bulkTypeDeleteBody,
    before: writers,
    doc: {
      summary: 'Delete (or archive) many types',
      operationId: 'bulkQuestionTypeDelete',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'TypeBulkDeleteResult')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await bulkTypeDelete(deps, readActor(req), req.valid.body));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/question-types/:id',
    params: s.idParams,
    body: s.patchTypeBody,
    before: writers,
    doc: {
      summary: 'Change a type (custom: owner; system: ADMIN)',
      operationId: 'patchQuestionType',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'QuestionType')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await types.patchType(deps, readActor(req), req.valid.params.id, req.valid.body));
    },
  }),
  route({
    method: 'delete',
    path: '/v1/question-types/:id',
    params: s.idParams,
    before: writers,
    doc: {
      summary: 'Archive (system or used) or remove (custom unused) a type',
      operationId: 'deleteQuestionType',
      parameters: WRITE_HEADERS,
      responses: { 200: okResponse('Success', ref('schemas', 'TypeDeleted')), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await types.deleteType(deps, readActor(req), req.valid.params.id));
    },
  }),
];

/** Groups, folders and question types. */
export const catalogRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [...groupAndFolderRoutes, ...typeRoutes];
