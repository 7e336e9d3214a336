import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { Connection } from 'mongoose';
import { readActor, type Actor, pageParams, type PageParams } from '../../kit/src/core/index.js';
import {
  errorResponse,
  idempotencyKey,
  list,
  listData,
  ok,
  okResponse,
  ref,
  routerFor,
  routes,
  type JsonObject,
  type Route,
  type ValidRequest,
  type Empty,
} from '../../kit/src/http/index.js';
import * as events from './domain/analytics-events.js';
import type { AnalyticsDeps } from './domain/deps.js';
import * as results from './domain/results.js';
import * as s from './schemas.js';

/** What the analytics handlers get: the service's dependencies and the events' idempotency guard. */
export type AnalyticsRouteDeps = AnalyticsDeps & { once: RequestHandler };

const route = routes<AnalyticsRouteDeps>();

/** The actor headers every route reads (X-Actor-* are read too). */
const ACTOR_HEADERS = ['UserHeader', 'RoleHeader', 'OrganizationHeader'].map((name) => ref('parameters', name));

const response = (name: string) => ref('responses', name);

/** The errors every route may answer. */
const ERRORS: JsonObject = {
  400: response('BadRequest'),
  401: response('Unauthenticated'),
  500: response('InternalError'),
  503: response('Unavailable'),
};

/** A read's errors: the shared ones and the tenancy's 403. */
const READ_ERRORS: JsonObject = { ...ERRORS, 403: response('Forbidden') };

/** A write's errors: the shared ones and the body's. */
const BODY_ERRORS: JsonObject = {
  ...ERRORS,
  413: response('PayloadTooLarge'),
  415: response('UnsupportedMediaType'),
};

/** Paging split from the filters: the clamped page (with its skip) and the rest of the query. */
function paged<Q extends s.Paging>(q: Q): { query: Omit<Q, 'page' | 'limit'>; page: PageParams } {
  const { page, limit, ...query } = q;
  return { query, page: pageParams({ page, limit }) };
}

/** A domain lister: the actor, the filters and the page in, that page of rows and their total out. */
type Lister<F> = (
  deps: AnalyticsDeps,
  actor: Actor,
  query: F,
  page: PageParams,
) => Promise<{ items: unknown[]; total: number }>;

/** A list route's handler: paging split from the filters, the lister's rows sent with the list meta. */
function listed<Q extends s.Paging>(lister: Lister<Omit<Q, 'page' | 'limit'>>) {
  return async (req: ValidRequest<Empty, Q, Empty>, res: Response, deps: AnalyticsRouteDeps) => {
    const { query, page } = paged(req.valid.query);
    const { items, total } = await lister(deps, readActor(req), query, page);
    list(res, items, { ...page, total });
  };
}

const RESULTS = ref('schemas', 'Result');

const resultRoutes = [
  route({
    method: 'get',
    path: '/v1/analytics/results',
    query: s.resultsQuery,
    doc: {
      summary: 'List result snapshots',
      operationId: 'listResults',
      description: 'Newest first (submittedAt descending, then attemptId). Within X-Organization-Id when sent.',
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('A page of results', listData(RESULTS)), ...READ_ERRORS },
    },
    handle: listed(results.listResults),
  }),
  route({
    method: 'put',
    path: '/v1/analytics/results/:attemptId/snapshot',
    params: s.attemptIdParams,
    body: s.snapshotBody,
    doc: {
      summary: 'Upsert the result snapshot of an attempt',
      operationId: 'putResultSnapshot',
      description:
        "Idempotent: the attempt id is the row's key; the same body twice leaves one row with the same content (createdAt kept, updatedAt moved). Last write wins. Does not evaluate the weak-topic alert rule (a backfill must not alert); the attempt.graded.v1 consumer does.",
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('The stored snapshot', RESULTS), ...BODY_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await results.putSnapshot(deps, readActor(req), req.valid.params.attemptId, req.valid.body));
    },
  }),
  route({
    method: 'get',
    path: '/v1/analytics/weak-topics',
    query: s.resultsQuery,
    doc: {
      summary: 'Weak topics of the matching results',
      operationId: 'listWeakTopics',
      description:
        "Derived from the first (newest) 100 matching results: each occurrence adds 1 to wrongCount and attemptCount; accuracy = max(0, 1 - wrongCount/attemptCount); shouldAlert when wrongCount >= 2 or accuracy < 0.6. Sorted by wrongCount descending, then label. page and limit are accepted so the results' query string works unchanged, but never move the window.",
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('Weak topics', ref('schemas', 'WeakTopics')), ...READ_ERRORS },
    },
    handle: async (req, res, deps) => {
      // page and limit are accepted (the results' query string works as is) but the window is fixed.
      ok(res, await results.listWeakTopics(deps, readActor(req), paged(req.valid.query).query));
    },
  }),
];

/** A summary route but its params and handler: the same rules for an exam, a classroom and a student. */
function summaryRoute(path: string, what: string) {
  return {
    method: 'get' as const,
    path: `/v1/analytics/${path}/summary`,
    doc: {
      summary: `Summary of one ${what}`,
      operationId: `get${what[0]?.toUpperCase()}${what.slice(1)}Summary`,
      description: `attemptCount, averageScore, correctCount and wrongCount over every result of the ${what} (within X-Organization-Id when sent); weakTopics from its newest 100. A ${what} with no results is 200 with zeros and averageScore null: the service cannot know whether the ${what} exists.`,
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('The summary', ref('schemas', 'Summary')), ...READ_ERRORS },
    },
  };
}

/** The summary of the scope the path names. */
function summary<K extends results.SummaryScope>(scope: K) {
  return async (req: ValidRequest<Record<K, string>, Empty, Empty>, res: Response, deps: AnalyticsRouteDeps) => {
    ok(res, await results.summaryOf(deps, readActor(req), scope, req.valid.params[scope]));
  };
}

const summaryRoutes = [
  route({ ...summaryRoute('exams/:examId', 'exam'), params: s.examIdParams, handle: summary('examId') }),
  route({
    ...summaryRoute('classrooms/:classroomId', 'classroom'),
    params: s.classroomIdParams,
    handle: summary('classroomId'),
  }),
  route({ ...summaryRoute('students/:studentId', 'student'), params: s.studentIdParams, handle: summary('studentId') }),
];

const IDEMPOTENCY_KEY: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description:
    'Optional (trimmed, cut to 120 characters): the same key with the same body (per organization and actor) replays the first answer; with another body 409 IDEMPOTENCY_KEY_REUSED.',
};

const EVENT = ref('schemas', 'AnalyticsEvent');

type Handler<R> = (req: R, res: Response, deps: AnalyticsRouteDeps) => Promise<void>;

/** A handler run once the idempotency guard lets the request through (after validation, as before). */
function guarded<R extends Request>(then: Handler<R>) {
  return (req: R, res: Response, deps: AnalyticsRouteDeps, next: NextFunction): void => {
    deps.once(req, res, (err?: unknown) => {
      if (err === undefined) then(req, res, deps).catch(next);
      else next(err);
    });
  };
}

const eventRoutes = [
  route({
    method: 'post',
    path: '/v1/analytics/events',
    body: s.eventBody,
    doc: {
      summary: 'Record an analytics event',
      operationId: 'recordAnalyticsEvent',
      description:
        'A service-local event (not an admin audit log). actorId and actorRole come from X-Actor-Id/X-User-Id and X-Actor-Role/X-User-Role, organizationId from X-Organization-Id (null when absent).',
      parameters: [...ACTOR_HEADERS, IDEMPOTENCY_KEY],
      responses: {
        201: okResponse('The recorded event', EVENT),
        409: errorResponse(
          'The key came with another body, or its first request is still being answered. Codes: IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_REQUEST_IN_PROGRESS.',
        ),
        ...BODY_ERRORS,
      },
    },
    handle: guarded<ValidRequest<Empty, Empty, events.EventInput>>(async (req, res, deps) => {
      ok(res, await events.recordEvent(deps, readActor(req), req.valid.body), 'OK', 201);
    }),
  }),
  route({
    method: 'get',
    path: '/v1/analytics/events',
    query: s.eventsQuery,
    doc: {
      summary: 'List analytics events',
      operationId: 'listAnalyticsEvents',
      description: 'Newest first (occurredAt descending). Within X-Organization-Id when sent.',
      parameters: ACTOR_HEADERS,
      responses: { 200: okResponse('A page of events', listData(EVENT)), ...READ_ERRORS },
    },
    handle: listed(events.listEvents),
  }),
];

/** The analytics service's routes, declared once: validation, handler types and the document come from here. */
export const analyticsRoutes: ReadonlyArray<Route<AnalyticsRouteDeps>> = [
  ...resultRoutes,
  ...summaryRoutes,
  ...eventRoutes,
];

/** The events' Idempotency-Key guard: per organization and actor, kept a day. */
function eventGuard(conn: Connection): RequestHandler {
  return idempotencyKey({
    conn,
    ttlMs: 24 * 3600 * 1000,
    scope: (req) => {
      const a = readActor(req);
      return `analytics-events:${a.organizationId ?? ''}:${a.userId ?? ''}`;
    },
  });
}

/** The analytics service's router over its declared routes. */
export function analyticsRouter(deps: AnalyticsDeps, conn: Connection): Router {
  return routerFor(analyticsRoutes, { ...deps, once: eventGuard(conn) });
}
