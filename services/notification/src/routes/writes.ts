import type { Request, Router } from 'express';
import { input, ok, onlyMethods, readActor, validate } from '../../../kit/src/index.js';
import type { NotificationDeps } from '../domain/deps.js';
import { alertParents } from '../domain/weak-topic.js';
import * as writes from '../domain/writes.js';
import * as s from '../schemas.js';

const idOf = (req: Request) => input<{ notificationId: string }>(req, 'params').notificationId;

/** Declared on the app's one router, beside the inbox routes, so OPTIONS lists every method of a path. */
export function writeRoutes(router: Router, deps: NotificationDeps): void {
  router.post('/v1/notifications', validate({ body: s.createBody }), async (req, res) => {
    ok(res, await writes.createNotification(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  router.post('/v1/notifications/batch', validate({ body: s.batchBody }), async (req, res) => {
    ok(res, await writes.createBatch(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  const snapshot = validate({ params: s.idParams, body: s.snapshotBody });
  router.put('/v1/notifications/:notificationId/snapshot', snapshot, async (req, res) => {
    const r = await writes.upsertSnapshot(deps, readActor(req), idOf(req), input(req, 'body'));
    ok(res, r, 'OK', r.created ? 201 : 200);
  });
  router.post('/v1/alerts/weak-topic', validate({ body: s.weakTopicBody }), async (req, res) => {
    ok(res, await alertParents(deps, readActor(req), input(req, 'body')), 'OK', 201);
  });
  router.post('/v1/events/notification', validate({ body: s.eventBody }), async (req, res) => {
    const r = await writes.recordEvent(deps, readActor(req), input(req, 'body'));
    ok(res, r, 'OK', r.created ? 201 : 200);
  });
  // GET /v1/notifications/batch must not reach GET /v1/notifications/:notificationId.
  onlyMethods(router, '/v1/notifications/batch', ['POST']);
}
