import type { Request } from 'express';
import { readActor } from '../../../kit/src/core/index.js';
import {
  errorResponse,
  ok,
  okResponse,
  ref,
  requireRole,
  routes,
  type JsonObject,
  type Route,
} from '../../../kit/src/http/index.js';
import { assertOwner, assertReadable } from '../domain/access.js';
import { saveAnswer, type SaveInput } from '../domain/answers.js';
import type { AttemptDeps } from '../domain/deps.js';
import { listEvents, postEvent, type ClientEventInput } from '../domain/events.js';
import { startAttempt } from '../domain/start.js';
import { submitAttempt } from '../domain/submit.js';
import { attemptView, resultView } from '../domain/view.js';
import { answerBody, attemptIdParams, eventBody, submitBody, type AnswerBody } from '../schemas/attempts.js';
import { examIdParams, startBody } from '../schemas/start.js';

const route = routes<AttemptDeps>();

const student = () => [requireRole('STUDENT')];
const reader = () => [requireRole('STUDENT', 'TEACHER', 'ADMIN')];

const view = (req: Request, deps: AttemptDeps, doc: Parameters<typeof attemptView>[0]) =>
  attemptView(doc, readActor(req), deps.clock());

const saveInput = (body: AnswerBody): SaveInput => ({ ...body, body });

/** The actor headers every route reads. */
const ACTOR_HEADERS = ['UserHeader', 'RoleHeader', 'OrganizationHeader'].map((name) => ref('parameters', name));

const shared = (byStatus: Record<string, string>): JsonObject =>
  Object.fromEntries(Object.entries(byStatus).map(([status, name]) => [status, ref('responses', name)]));

/** The errors every route may answer, as the document's shared responses. */
const ERRORS = shared({
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  500: 'InternalError',
  503: 'Unavailable',
});

const CONTENTION = 'CONFLICT (contention beyond 200 rounds; retry).';

/** A route with a body: the shared errors, the body's (413, 415) and its own 409. */
function bodyErrors(conflict: string): JsonObject {
  return {
    ...ERRORS,
    409: errorResponse(conflict),
    ...shared({ 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType' }),
  };
}

/** What a read of one attempt shares: a GET at its id, for the STUDENT, TEACHER and ADMIN roles. */
const reading = (path: string) => ({ method: 'get' as const, path, params: attemptIdParams, before: reader });

/** A read's document: its own words and success, the actor headers and the shared errors. */
const readDoc = (summary: string, operationId: string, description: string, success: JsonObject) => ({
  summary,
  operationId,
  description,
  parameters: ACTOR_HEADERS,
  responses: { 200: success, ...ERRORS },
});

const ATTEMPT = ref('schemas', 'Attempt');

const START_DESCRIPTION =
  "Role STUDENT only. Validations in order, each with its own error: path examId equals exam.id (400 EXAM_ID_MISMATCH); exam.status PUBLISHED (409 EXAM_NOT_PUBLISHED); deliveryMode not OFFLINE (409 EXAM_OFFLINE); now >= openTime (409 EXAM_NOT_OPEN) and now < closeTime (409 EXAM_CLOSED); access.passwordVerified when exam.requiresAccessPassword (403 EXAM_PASSWORD_INVALID); access.assigned or an active access.accessLink (403 EXAM_ACCESS_DENIED); at least one question (400 EXAM_HAS_NO_QUESTIONS). Then an IN_PROGRESS attempt of this student and exam is returned (200, created=false); otherwise the attempt limit (409 ATTEMPT_LIMIT_REACHED) and the access link's student limit (409 ACCESS_LINK_LIMIT_REACHED) are checked and a new attempt is written with its question copies and a START event (201, created=true).";

/** Starting an attempt, at its path and at its alias. */
function startRoute(path: string, summary: string, operationId: string): Route<AttemptDeps> {
  const started = ref('schemas', 'StartResult');
  return route({
    method: 'post',
    path,
    params: examIdParams,
    body: startBody,
    before: student,
    doc: {
      summary,
      operationId,
      description: START_DESCRIPTION,
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('Reused in-progress attempt (created=false).', started),
        201: okResponse('New attempt (created=true).', started),
        ...bodyErrors(
          'EXAM_NOT_PUBLISHED, EXAM_OFFLINE, EXAM_NOT_OPEN, EXAM_CLOSED, ATTEMPT_LIMIT_REACHED, ACCESS_LINK_LIMIT_REACHED, CONFLICT (a concurrent start could not be resolved; retry).',
        ),
      },
    },
    handle: async (req, res, deps) => {
      const result = await startAttempt(deps, readActor(req), req.valid.params.examId, req.valid.body);
      const data = { attempt: view(req, deps, result.attempt), created: result.created };
      ok(res, data, 'OK', result.created ? 201 : 200);
    },
  });
}

/** The attempt service's routes, declared once: validation, handler types and the document come from here. */
export const attemptRoutes: ReadonlyArray<Route<AttemptDeps>> = [
  startRoute('/v1/exams/:examId/attempts', 'Start or reuse an attempt', 'startAttempt'),
  startRoute(
    '/v1/exams/:examId/start',
    'Start an attempt (alias of POST /v1/exams/{examId}/attempts)',
    'startAttemptAlias',
  ),
  route({
    ...reading('/v1/attempts/:attemptId'),
    doc: readDoc(
      'Attempt detail',
      'getAttempt',
      "The owning STUDENT, or a TEACHER or ADMIN (of the attempt's organization when X-Organization-Id is sent). Grading fields are null with hiddenReason while results are hidden.",
      okResponse('The attempt', ATTEMPT),
    ),
    handle: async (req, res, deps) => {
      ok(res, view(req, deps, assertReadable(readActor(req), await deps.store.byId(req.valid.params.attemptId))));
    },
  }),
  route({
    method: 'post',
    path: '/v1/attempts/:attemptId/answers',
    params: attemptIdParams,
    body: answerBody,
    before: student,
    doc: {
      summary: 'Save an answer',
      operationId: 'saveAnswer',
      description:
        "The owning STUDENT only. Order of checks: 404 ATTEMPT_NOT_FOUND (missing or not the caller's); 409 ATTEMPT_LOCKED 'Attempt is locked' (not IN_PROGRESS); 400 VALIDATION_ERROR (malformed answer fields); 400 QUESTION_NOT_IN_ATTEMPT 'Câu hỏi không thuộc lượt làm bài này'; 400 VALIDATION_ERROR (an option id or statement label the question lacks); past the deadline the attempt is submitted with source TIMEOUT and the save fails 409 EXAM_DURATION_EXPIRED 'Exam duration expired'; a positive clientVersion below the stored serverVersion is 409 ANSWER_VERSION_CONFLICT with error.details.answer the stored answer.",
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('The attempt after the save', ATTEMPT),
        ...bodyErrors(
          'ATTEMPT_LOCKED, EXAM_DURATION_EXPIRED, ANSWER_VERSION_CONFLICT (details.answer is the current answer), CONFLICT (contention beyond 200 rounds; retry).',
        ),
      },
    },
    handle: async (req, res, deps) => {
      const attemptId = req.valid.params.attemptId;
      const saved = await saveAnswer(deps, readActor(req), attemptId, saveInput(req.valid.body));
      ok(res, view(req, deps, saved));
    },
  }),
  route({
    method: 'post',
    path: '/v1/attempts/:attemptId/submit',
    params: attemptIdParams,
    body: submitBody,
    before: student,
    doc: {
      summary: 'Submit and grade',
      operationId: 'submitAttempt',
      description:
        "The owning STUDENT only. Grades from the attempt's copied snapshots; idempotent once GRADED (returns the graded attempt as stored).",
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('The graded attempt', ATTEMPT), ...bodyErrors(CONTENTION) },
    },
    handle: async (req, res, deps) => {
      const actor = readActor(req);
      const attemptId = req.valid.params.attemptId;
      assertOwner(actor, await deps.store.byId(attemptId));
      ok(res, view(req, deps, await submitAttempt(deps, attemptId, { source: 'STUDENT', by: actor.userId! })));
    },
  }),
  route({
    method: 'post',
    path: '/v1/attempts/:attemptId/events',
    params: attemptIdParams,
    body: eventBody,
    before: student,
    doc: {
      summary: 'Record a client event',
      operationId: 'postAttemptEvent',
      description:
        'The owning STUDENT only. TIMEOUT on an IN_PROGRESS attempt submits it with source TIMEOUT and answers 200 with the graded attempt; any other event (and TIMEOUT on a graded attempt) is recorded and answered 201 with the event. At most 5000 events per attempt (429 RATE_LIMITED beyond).',
      parameters: ACTOR_HEADERS,
      responses: {
        200: okResponse('TIMEOUT on an in-progress attempt: the graded attempt', ATTEMPT),
        201: okResponse('The recorded event', ref('schemas', 'AttemptEvent')),
        ...bodyErrors(CONTENTION),
        429: errorResponse('RATE_LIMITED: the attempt holds 5000 events.'),
      },
    },
    handle: async (req, res, deps) => {
      const { type, question, metadata } = req.valid.body;
      const event: ClientEventInput = { type, questionId: question?.id, metadata };
      const posted = await postEvent(deps, readActor(req), req.valid.params.attemptId, event);
      if (posted.kind === 'graded') ok(res, view(req, deps, posted.attempt));
      else ok(res, posted.event, 'OK', 201);
    },
  }),
  route({
    ...reading('/v1/attempts/:attemptId/events'),
    doc: readDoc(
      "List the attempt's events",
      'listAttemptEvents',
      'The owning STUDENT, a TEACHER or an ADMIN. Every event, in creation order (ascending), as a plain array (an attempt holds at most a few thousand).',
      okResponse('Events, oldest first', { type: 'array', items: ref('schemas', 'AttemptEvent') }),
    ),
    handle: async (req, res, deps) => {
      ok(res, await listEvents(deps, readActor(req), req.valid.params.attemptId));
    },
  }),
  route({
    ...reading('/v1/attempts/:attemptId/result'),
    doc: readDoc(
      'Attempt result',
      'getAttemptResult',
      'As GET /v1/attempts/{attemptId}, plus scorePercent (unrounded; null while hidden).',
      okResponse('The result', ref('schemas', 'Result')),
    ),
    handle: async (req, res, deps) => {
      const doc = assertReadable(readActor(req), await deps.store.byId(req.valid.params.attemptId));
      ok(res, resultView(doc, readActor(req), deps.clock()));
    },
  }),
];
