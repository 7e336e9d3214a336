import type { Response } from 'express';
import {
  list,
  ok,
  okResponse,
  ref,
  routes,
  type Empty,
  type JsonObject,
  type Route,
  type ValidRequest,
} from '../../../kit/src/http/index.js';
import { approveJob } from '../domain/approve.js';
import type { ImportDeps } from '../domain/deps.js';
import type { Scope } from '../domain/scope.js';
import { jobDetail, jobStatus, listJobs, type ListQuery } from '../domain/jobs.js';
import { saveReview } from '../domain/review.js';
import { MSG } from '../messages.js';
import { answers, JOB_ERRORS, refused, SCOPE_ERRORS, SCOPE_HEADERS, SECURED } from './doc.js';
import { approveBody, jobIdParams, libraryQuery, listQuery, reviewBody } from './schemas.js';
import { requireScope, scope } from './scope.js';

const route = routes<ImportDeps>();
const inScope = () => [requireScope];

/** A page of job summaries. */
const JOB_PAGE: JsonObject = {
  200: okResponse('Success', {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'meta'],
    properties: {
      items: { type: 'array', items: ref('schemas', 'ImportJobSummary') },
      meta: ref('schemas', 'ListMeta'),
    },
  }),
  ...refused(SCOPE_ERRORS),
};

/** What every job route's document says beside its own: the actor headers, the security. */
const JOB_DOC = { parameters: SCOPE_HEADERS, extra: SECURED };

/** A job list's method and handler: `ownOnly` lists the caller's own jobs whatever its role. */
function listing(ownOnly: boolean) {
  return {
    method: 'get' as const,
    before: inScope,
    handle: async (req: ValidRequest<Empty, ListQuery, Empty>, res: Response, deps: ImportDeps) => {
      const { items, meta } = await listJobs(deps, scope(res), req.valid.query, ownOnly);
      list(res, items, meta);
    },
  };
}

/** A GET of one job's view (the named schema), which `read` gives for the caller's scope. */
function jobView(
  path: string,
  names: { summary: string; operationId: string },
  schema: string,
  read: (deps: ImportDeps, s: Scope, id: string) => Promise<unknown>,
): Route<ImportDeps> {
  return route({
    method: 'get',
    path,
    before: inScope,
    params: jobIdParams,
    doc: { ...names, ...JOB_DOC, responses: { 200: answers('Success', schema), ...refused(JOB_ERRORS) } },
    handle: async (req, res, deps) => {
      ok(res, await read(deps, scope(res), req.valid.params.id));
    },
  });
}

/** The job routes: lists, one job's detail and status, its review and its approval. */
export const jobRoutes: ReadonlyArray<Route<ImportDeps>> = [
  route({
    ...listing(true),
    path: '/v1/import/docx/teacher-library',
    query: libraryQuery,
    doc: {
      ...JOB_DOC,
      responses: JOB_PAGE,
      summary: "The caller's own import jobs, newest first",
      operationId: 'teacherLibrary',
    },
  }),
  route({
    ...listing(false),
    path: '/v1/import/docx/jobs',
    query: listQuery,
    doc: {
      ...JOB_DOC,
      responses: JOB_PAGE,
      summary: 'Import jobs, newest first',
      operationId: 'listJobs',
      description: 'Non-admins list their own jobs; ADMIN the whole organization (or one creator with createdBy).',
    },
  }),
  jobView(
    '/v1/import/docx/jobs/:id',
    { summary: 'Job detail with packagingJson and parseResultJson', operationId: 'getJob' },
    'ImportJobDetail',
    jobDetail,
  ),
  jobView(
    '/v1/import/docx/jobs/:id/status',
    { summary: 'Status counters (and the queue while PENDING or PROCESSING)', operationId: 'getJobStatus' },
    'ImportJobStatus',
    jobStatus,
  ),
  route({
    method: 'patch',
    path: '/v1/import/docx/jobs/:id/review',
    before: inScope,
    params: jobIdParams,
    body: reviewBody,
    doc: {
      summary: 'Save the reviewed parse result',
      operationId: 'saveReview',
      description:
        'parseResult is stored verbatim (manual flags survive). With sourceText and a parseResult the answer overlays parseResultJson.sourceText, storage unchanged. With sourceText alone a baseline reparse (numbered questions, A-D options, * markers, answer and solution lines) is stored with its warning. docxFastTempDraftToken alone is an idempotent acknowledgement (no change, no event). 409 IMPORT_JOB_NOT_COMPLETED before completion.',
      parameters: SCOPE_HEADERS,
      responses: {
        200: answers('Success', 'ImportJobDetail', MSG.reviewSaved),
        ...refused({ ...JOB_ERRORS, 409: 'Conflict' }),
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await saveReview(deps, scope(res), req.valid.params.id, req.valid.body), MSG.reviewSaved);
    },
  }),
  route({
    method: 'post',
    path: '/v1/import/docx/jobs/:id/approve',
    before: inScope,
    params: jobIdParams,
    body: approveBody,
    doc: {
      summary: 'Approve into the question bank or an exam draft',
      operationId: 'approveJob',
      description:
        'QUESTION_BANK: POST {QUESTION_BANK_URL}/v1/questions/import-docx-output forwarding X-Organization-Id and X-User-Id with sourceImportJobId, sourceFileName and the approval metadata. EXAM_DRAFT: creates the draft exam unless examId is given, then PUT {EXAM_SERVICE_URL}/v1/exams/{examId}/question-snapshots. The approval key is derived from the job, its run, its review time and the canonical request: a retry returns the stored result (replayed: true, Idempotent-Replayed: true); a reprocess or a new review approves anew.',
      parameters: SCOPE_HEADERS,
      responses: {
        200: answers('Success', 'ApprovalAnswer', MSG.approved),
        ...refused({ ...JOB_ERRORS, 409: 'Conflict', 502: 'BadGateway', 503: 'Unavailable' }),
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const answer = await approveJob(deps, scope(res), req.valid.params.id, req.valid.body);
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      ok(res, answer, MSG.approved);
    },
  }),
];
