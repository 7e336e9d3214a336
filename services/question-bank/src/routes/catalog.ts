import { readActor, type Actor, pageParams, type PageOptions, type PageParams } from '../../../kit/src/core/index.js';
import {
  list,
  ok,
  okResponse,
  ref,
  type Empty,
  type JsonObject,
  type Route,
  type RouteDeclaration,
} from '../../../kit/src/http/index.js';
import * as folders from '../domain/catalog/folders.js';
import * as groups from '../domain/catalog/groups.js';
import { bulkTypeDelete, bulkTypeStatus } from '../domain/catalog/type-bulk.js';
import * as types from '../domain/catalog/types.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import * as s from '../schemas/catalog.js';
import { idLinks, pageOf, READ_ERRORS, READ_HEADERS, SCOPED_READ, standardErrors, WRITE_ERRORS } from './docs.js';
import { okWith, route, writeRoute } from './declare.js';

/** A page of `result` as `list()` takes it. */
function pageResult<T>(
  result: { items: T[]; total: number },
  page: { page: number; limit: number },
): [T[], { page: number; limit: number; total: number }] {
  return [result.items, { page: page.page, limit: page.limit, total: result.total }];
}

/** What a scoped, paged list read declares: the rest (headers, errors, paging) is the same for all. */
interface PagedList<Q> {
  path: string;
  query: NonNullable<RouteDeclaration<Empty, Q, Empty, QuestionBankDeps>['query']>;
  summary: string;
  operationId: string;
  /** The component schema of the page's items. */
  item: string;
  limits?: PageOptions;
  read(
    deps: QuestionBankDeps,
    actor: Actor,
    query: NoInfer<Q>,
    page: PageParams,
  ): Promise<{ items: unknown[]; total: number }>;
}

/** A scoped list read answering one page (`{ items, meta }`) of what `read` finds. */
export function pagedList<Q extends { page?: unknown; limit?: unknown }>(l: PagedList<Q>): Route<QuestionBankDeps> {
  return route<Empty, Q, Empty>({
    method: 'get',
    path: l.path,
    query: l.query,
    doc: {
      summary: l.summary,
      operationId: l.operationId,
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', pageOf(ref('schemas', l.item))), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      const page = pageParams(req.valid.query, l.limits);
      list(res, ...pageResult(await l.read(deps, readActor(req), req.valid.query, page), page));
    },
  });
}

const DELETE_ERRORS = standardErrors(400, 401, 403, 404, 409, 500, 503);

/** A created resource's 201, linking to its PATCH and DELETE. */
function createdWithLinks(schema: string, patch: string, remove: string) {
  return {
    201: { ...okResponse('Created', ref('schemas', schema)), links: idLinks({ Patch: patch, Delete: remove }) },
    ...WRITE_ERRORS,
  };
}

type Id = { id: string };

/** What a catalog resource's PATCH and DELETE by id (`patch<name>`, `delete<name>`) differ in. */
interface ByIdWrites<B> {
  /** The resource's component schema: the PATCH answers one; it names both operations. */
  name: string;
  path: string;
  body: NonNullable<RouteDeclaration<Id, Empty, B, QuestionBankDeps>['body']>;
  patchSummary: string;
  patch(deps: QuestionBankDeps, actor: Actor, id: string, input: B): Promise<unknown>;
  removeSummary: string;
  /** The DELETE's responses. */
  removed: JsonObject;
  remove(deps: QuestionBankDeps, actor: Actor, id: string): Promise<unknown>;
}

/** A resource's PATCH and DELETE by id, both writes answering what the domain returns. */
function byIdWrites<B>(w: ByIdWrites<B>): Array<Route<QuestionBankDeps>> {
  return [
    writeRoute<Id, Empty, B>({
      method: 'patch',
      path: w.path,
      params: s.idParams,
      body: w.body,
      doc: { summary: w.patchSummary, operationId: `patch${w.name}`, responses: okWith(w.name, WRITE_ERRORS) },
      handle: async (req, res, deps) => {
        ok(res, await w.patch(deps, readActor(req), req.valid.params.id, req.valid.body));
      },
    }),
    writeRoute<Id>({
      method: 'delete',
      path: w.path,
      params: s.idParams,
      doc: { summary: w.removeSummary, operationId: `delete${w.name}`, responses: w.removed },
      handle: async (req, res, deps) => {
        ok(res, await w.remove(deps, readActor(req), req.valid.params.id));
      },
    }),
  ];
}

const groupAndFolderRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  pagedList({
    path: '/v1/question-groups',
    query: s.listGroupsQuery,
    summary: 'List question groups',
    operationId: 'listQuestionGroups',
    item: 'QuestionGroup',
    read: groups.listGroups,
  }),
  writeRoute({
    method: 'post',
    path: '/v1/question-groups',
    body: s.createGroupBody,
    doc: {
      summary: 'Create a question group (shared passage)',
      operationId: 'createQuestionGroup',
      responses: { 201: okResponse('Created', ref('schemas', 'QuestionGroup')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await groups.createGroup(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  pagedList({
    path: '/v1/question-folders',
    query: s.listFoldersQuery,
    summary: 'List folders the actor sees',
    operationId: 'listQuestionFolders',
    item: 'QuestionFolder',
    read: folders.listFolders,
  }),
  writeRoute({
    method: 'post',
    path: '/v1/question-folders',
    body: s.createFolderBody,
    doc: {
      summary: 'Create a folder',
      operationId: 'createQuestionFolder',
      responses: createdWithLinks('QuestionFolder', 'patchQuestionFolder', 'deleteQuestionFolder'),
    },
    handle: async (req, res, deps) => {
      ok(res, await folders.createFolder(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  ...byIdWrites({
    name: 'QuestionFolder',
    path: '/v1/question-folders/:id',
    body: s.patchFolderBody,
    patchSummary: 'Rename, move or change visibility of a folder',
    patch: folders.patchFolder,
    removeSummary: 'Delete an empty folder',
    removed: okWith('FolderDeleted', DELETE_ERRORS),
    remove: folders.deleteFolder,
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
  writeRoute({
    method: 'post',
    path: '/v1/question-types',
    body: s.createTypeBody,
    doc: {
      summary: 'Create an actor-owned custom type',
      operationId: 'createQuestionType',
      responses: createdWithLinks('QuestionType', 'patchQuestionType', 'deleteQuestionType'),
    },
    handle: async (req, res, deps) => {
      ok(res, await types.createType(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  writeRoute({
    method: 'patch',
    path: '/v1/question-types/bulk-status',
    body: s.bulkTypeStatusBody,
    doc: {
      summary: 'Set the status of many types',
      operationId: 'bulkQuestionTypeStatus',
      responses: okWith('TypeBulkStatusResult', WRITE_ERRORS),
    },
    handle: async (req, res, deps) => {
      ok(res, await bulkTypeStatus(deps, readActor(req), req.valid.body));
    },
  }),
  writeRoute({
    method: 'post',
    path: '/v1/question-types/bulk-delete',
    body: s.bulkTypeDeleteBody,
    doc: {
      summary: 'Delete (or archive) many types',
      operationId: 'bulkQuestionTypeDelete',
      responses: okWith('TypeBulkDeleteResult', WRITE_ERRORS),
    },
    handle: async (req, res, deps) => {
      ok(res, await bulkTypeDelete(deps, readActor(req), req.valid.body));
    },
  }),
  ...byIdWrites({
    name: 'QuestionType',
    path: '/v1/question-types/:id',
    body: s.patchTypeBody,
    patchSummary: 'Change a type (custom: owner; system: ADMIN)',
    patch: types.patchType,
    removeSummary: 'Archive (system or used) or remove (custom unused) a type',
    removed: okWith('TypeDeleted', READ_ERRORS),
    remove: types.deleteType,
  }),
];

/** Groups, folders and question types. */
export const catalogRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [...groupAndFolderRoutes, ...typeRoutes];
