import type { Request } from 'express';
import { readActor } from '../../../kit/src/core/index.js';
import { list, ok, okResponse, ref, type Route } from '../../../kit/src/http/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { getQuestion, listQuestions, searchProjections } from '../domain/questions/read.js';
import { bulkSetStatus, deleteQuestion } from '../domain/questions/remove.js';
import { writerOf } from '../domain/questions/scope.js';
import { createQuestion, updateQuestion } from '../domain/questions/write.js';
import { MSG } from '../messages.js';
import { detailQuery, listQuestionsQuery, projectionQuery } from '../schemas/question-queries.js';
import { bulkStatusBody, createQuestionBody, patchQuestionBody, questionIdParams } from '../schemas/questions.js';
import { okWithMessage, pageOf, READ_ERRORS, READ_HEADERS, SCOPED_READ, standardErrors, WRITE_ERRORS } from './docs.js';
import { okWith, route, writeRoute, writerCall } from './declare.js';

const QUESTION = ref('schemas', 'Question');
const LIST_ERRORS = standardErrors(400, 401, 403, 500, 503);
const SAME_ORGANIZATION =
  "must be the organization's (404 QUESTION_GROUP_NOT_FOUND, FOLDER_NOT_FOUND, QUESTION_TYPE_NOT_FOUND, TAXONOMY_REF_NOT_FOUND).";

/** The hydrated question a write answers with, read in the writer's scope. */
const detailOf = (deps: QuestionBankDeps, req: Request, id: string) => getQuestion(deps, readActor(req), id, {});

/** Questions: list, search projections, bulk status, create, read, update, delete. */
export const questionRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'get',
    path: '/v1/questions',
    query: listQuestionsQuery,
    doc: {
      summary: 'List questions (hydrated), newest first',
      operationId: 'listQuestions',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', pageOf(QUESTION)), ...LIST_ERRORS },
    },
    handle: async (req, res, deps) => {
      const { items, meta } = await listQuestions(deps, readActor(req), req.valid.query);
      list(res, items, meta);
    },
  }),
  route({
    method: 'get',
    path: '/v1/questions/search-projections',
    query: projectionQuery,
    doc: {
      summary: 'Search projection backfill (keyset pages in id order)',
      operationId: 'searchProjections',
      description: SCOPED_READ,
      parameters: READ_HEADERS,
      responses: okWith('SearchProjectionEnvelope', LIST_ERRORS),
    },
    handle: async (req, res, deps) => {
      ok(res, await searchProjections(deps, readActor(req), req.valid.query));
    },
  }),
  writerCall({
    method: 'patch',
    path: '/v1/questions/bulk-status',
    body: bulkStatusBody,
    doc: {
      summary: 'Set the status of up to 100 questions',
      operationId: 'bulkQuestionStatus',
      responses: okWith('BulkStatusResult', standardErrors(400, 401, 403, 413, 415, 500, 503)),
    },
    run: bulkSetStatus,
  }),
  writeRoute({
    method: 'post',
    path: '/v1/questions',
    body: createQuestionBody,
    doc: {
      summary: 'Create a question with its initial version',
      operationId: 'createQuestion',
      description: `Issue 20: groupId, folderId, customTypeId and taxonomy ids ${SAME_ORGANIZATION}`,
      responses: { 201: okWithMessage('Created (hydrated)', QUESTION, MSG.questionCreated), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      const row = await createQuestion(deps, writerOf(readActor(req)), req.valid.body);
      ok(res, await detailOf(deps, req, row._id), MSG.questionCreated, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/questions/:id',
    params: questionIdParams,
    query: detailQuery,
    doc: {
      summary: 'A question (hydrated); archived rows included',
      operationId: 'getQuestion',
      description:
        "Issue 20: hydrated members never show another organization's rows. allOrgs=1 and organizationId as for the list.",
      parameters: READ_HEADERS,
      responses: { 200: okResponse('Success', QUESTION), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await getQuestion(deps, readActor(req), req.valid.params.id, req.valid.query));
    },
  }),
  writeRoute({
    method: 'patch',
    path: '/v1/questions/:id',
    params: questionIdParams,
    body: patchQuestionBody,
    doc: {
      summary: 'Partial update: appends a version',
      operationId: 'updateQuestion',
      description: `Issue 20: a named groupId, folderId, customTypeId or taxonomy id ${SAME_ORGANIZATION}`,
      responses: { 200: okWithMessage('Updated (hydrated)', QUESTION, MSG.questionUpdated), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      const { id } = req.valid.params;
      await updateQuestion(deps, writerOf(readActor(req)), id, req.valid.body);
      ok(res, await detailOf(deps, req, id), MSG.questionUpdated);
    },
  }),
  writeRoute({
    method: 'delete',
    path: '/v1/questions/:id',
    params: questionIdParams,
    doc: {
      summary: 'Archive (when used or cloned) or remove',
      operationId: 'deleteQuestion',
      responses: {
        200: okWithMessage('Archived or removed', ref('schemas', 'DeleteQuestionResult'), MSG.questionDeleted),
        ...standardErrors(400, 401, 403, 404, 409, 500, 503),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await deleteQuestion(deps, writerOf(readActor(req)), req.valid.params.id), MSG.questionDeleted);
    },
  }),
];
