import { Router, type Request } from 'express';
import type { Connection } from 'mongoose';
import {
  idempotencyKey,
  input,
  list,
  ok,
  pageParams,
  readActor,
  validate,
  type PageParams,
} from '../../kit/src/index.js';
import * as events from './domain/analytics-events.js';
import type { AnalyticsDeps } from './domain/deps.js';
import * as results from './domain/results.js';
import * as s from './schemas.js';

type Paged = { page?: unknown; limit?: unknown };

function paged<Q extends Paged>(req: Request): { query: Omit<Q, 'page' | 'limit'>; page: PageParams } {
  const { page, limit, ...query } = input<Q>(req, 'query');
  return { query, page: pageParams({ page, limit }) };
}

function resultRoutes(router: Router, deps: AnalyticsDeps): void {
  router.get('/v1/analytics/results', validate({ query: s.resultsQuery }), async (req, res) => {
    const { query, page } = paged<results.ResultQuery & Paged>(req);
    const { items, total } = await results.listResults(deps, readActor(req), query, page);
    list(res, items, { ...page, total });
  });
  const put = validate({ params: s.attemptIdParams, body: s.snapshotBody });
  router.put('/v1/analytics/results/:attemptId/snapshot', put, async (req, res) => {
    const { attemptId } = input<{ attemptId: string }>(req, 'params');
    ok(res, await results.putSnapshot(deps, readActor(req), attemptId, input(req, 'body')));
  });
  router.get('/v1/analytics/weak-topics', validate({ query: s.resultsQuery }), async (req, res) => {
    // page and limit are accepted (the results' query string works as is) but the window is fixed.
    const { query } = paged<results.ResultQuery & Paged>(req);
    ok(res, await results.listWeakTopics(deps, readActor(req), query));
  });
}

function summaryRoutes(router: Router, deps: AnalyticsDeps): void {
  const scopes = [
    ['exams', 'examId', s.examIdParams],
    ['classrooms', 'classroomId', s.classroomIdParams],
    ['students', 'studentId', s.studentIdParams],
  ] as const;
  for (const [path, key, params] of scopes) {
    router.get(`/v1/analytics/${path}/:${key}/summary`, validate({ params }), async (req, res) => {
      const id = input<Record<string, string>>(req, 'params')[key]!;
      ok(res, await results.summaryOf(deps, readActor(req), key, id));
    });
  }
}

function eventRoutes(router: Router, deps: AnalyticsDeps, conn: Connection): void {
  const once = idempotencyKey({
    conn,
    ttlMs: 24 * 3600 * 1000,
    scope: (req) => {
      const a = readActor(req);
      return `analytics-events:${a.organizationId ?? ''}:${a.userId ?? ''}`;
    },
  });
  router.post('/v1/analytics/events', validate({ body: s.eventBody }), once, async (req, res) => {
    ok(res, await events.recordEvent(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  router.get('/v1/analytics/events', validate({ query: s.eventsQuery }), async (req, res) => {
    const { query, page } = paged<Parameters<typeof events.listEvents>[2] & Paged>(req);
    const { items, total } = await events.listEvents(deps, readActor(req), query, page);
    list(res, items, { ...page, total });
  });
}

export function analyticsRoutes(deps: AnalyticsDeps, conn: Connection): Router {
  const router = Router();
  resultRoutes(router, deps);
  summaryRoutes(router, deps);
  eventRoutes(router, deps, conn);
  return router;
}
