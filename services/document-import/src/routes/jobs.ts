import { list, ok, okResponse, ref, routes, type JsonObject, type Route } from '../../../kit/src/index.js';
import { approveJob } from '../domain/approve.js';
import type { ImportDeps } from '../domain/deps.js';
import { jobDetail, jobStatus, listJobs } from '../domain/jobs.js';
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

/** The job routes: lists, one job's detail and status, its review and its approval. */
export const jobRoutes: ReadonlyArray<Route<ImportDeps>> = [
  route({
    method: 'get',
    path: '/v1/import/docx/teacher-library',
    before: inScope,
    query: libraryQuery,
    doc: {
      summary: "The caller's own import jobs, newest first",
      operationId: 'teacherLibrary',
      parameters: SCOPE_HEADERS,
      responses: JOB_PAGE,
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const { items, meta } = await listJobs(deps, scope(res), req.valid.query, true);
      list(res, items, meta);
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/jobs',
    before: inScope,
    query: listQuery,
    doc: {
      summary: 'Import jobs, newest first',
      operationId: 'listJobs',
      description: 'Non-admins list their own jobs; ADMIN the whole organization (or one creator with createdBy).',
      parameters: SCOPE_HEADERS,
      responses: JOB_PAGE,
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const { items, meta } = await listJobs(deps, scope(res), req.valid.query, false);
      list(res, items, meta);
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/jobs/:id',
    before: inScope,
    params: jobIdParams,
    doc: {
      summary: 'Job detail with packagingJson and parseResultJson',
      operationId: 'getJob',
      parameters: SCOPE_HEADERS,
      responses: { 200: answers('Success', 'ImportJobDetail'), ...refused(JOB_ERRORS) },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await jobDetail(deps, scope(res), req.valid.params.id));
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/jobs/:id/status',
    before: inScope,
    params: jobIdParams,
    doc: {
      summary: 'Status counters (and the queue while PENDING or PROCESSING)',
      operationId: 'getJobStatus',
      parameters: SCOPE_HEADERS,
      responses: { 200: answers('Success', 'ImportJobStatus'), ...refused(JOB_ERRORS) },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await jobStatus(deps, scope(res), req.valid.params.id));
    },
  }),
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
