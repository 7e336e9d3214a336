import { readActor } from '../../../kit/src/core/index.js';
import { ok, okResponse, ref, routes, type JsonObject, type Route } from '../../../kit/src/http/index.js';
import type { NotificationDeps } from '../domain/deps.js';
import { alertParents } from '../domain/weak-topic.js';
import * as writes from '../domain/writes.js';
import * as s from '../schemas.js';
import { CONFLICT, NOT_FOUND, NOTIFICATION, success, WRITE_ERRORS, WRITER_HEADERS } from './docs.js';

const route = routes<NotificationDeps>();

/** A 201 whose data is `schema`. */
const created = (schema: JsonObject) => ({ 201: success(schema) });

/** The snapshot's answer: the row and whether it was created (201) or replaced (200). */
function snapshotResult(isNew: boolean): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { created: { const: isNew }, notification: NOTIFICATION },
    required: ['created', 'notification'],
  };
}

const EVENT_RESULT = ref('schemas', 'EventResult');

/** The peers' writes: one notification, a fan-out, a backfill, weak-topic alerts and events. */
export const writeRoutes: ReadonlyArray<Route<NotificationDeps>> = [
  route({
    method: 'post',
    path: '/v1/notifications',
    body: s.createBody,
    doc: {
      summary: 'Create one notification for a resolved recipient (no preference check)',
      operationId: 'createNotification',
      parameters: WRITER_HEADERS,
      responses: { ...created(NOTIFICATION), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await writes.createNotification(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'post',
    path: '/v1/notifications/batch',
    body: s.batchBody,
    doc: {
      summary: 'Fan one notification out to up to 10,000 resolved recipients (preferences apply)',
      operationId: 'createNotificationBatch',
      parameters: WRITER_HEADERS,
      responses: { ...created(ref('schemas', 'BatchResult')), ...WRITE_ERRORS, ...CONFLICT },
    },
    handle: async (req, res, deps) => {
      ok(res, await writes.createBatch(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'put',
    path: '/v1/notifications/:notificationId/snapshot',
    params: s.idParams,
    body: s.snapshotBody,
    doc: {
      summary: 'Backfill upsert by id',
      operationId: 'putNotificationSnapshot',
      parameters: WRITER_HEADERS,
      responses: {
        200: okResponse('Replaced', snapshotResult(false)),
        201: okResponse('Created', snapshotResult(true)),
        ...WRITE_ERRORS,
        ...NOT_FOUND,
      },
    },
    handle: async (req, res, deps) => {
      const r = await writes.upsertSnapshot(deps, readActor(req), req.valid.params.notificationId, req.valid.body);
      ok(res, r, 'OK', r.created ? 201 : 200);
    },
  }),
  route({
    method: 'post',
    path: '/v1/alerts/weak-topic',
    body: s.weakTopicBody,
    doc: {
      summary: 'Weak-topic alerts to resolved parents (preferences apply)',
      operationId: 'createWeakTopicAlerts',
      parameters: WRITER_HEADERS,
      responses: { ...created(ref('schemas', 'WeakTopicResult')), ...WRITE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await alertParents(deps, readActor(req), req.valid.body), 'OK', 201);
    },
  }),
  route({
    method: 'post',
    path: '/v1/events/notification',
    body: s.eventBody,
    doc: {
      summary: 'Record a notification event, optionally with notifications (preferences apply)',
      operationId: 'recordNotificationEvent',
      parameters: WRITER_HEADERS,
      responses: {
        200: okResponse('Replay of a recorded event id', EVENT_RESULT),
        201: okResponse('Recorded', EVENT_RESULT),
        ...WRITE_ERRORS,
        ...CONFLICT,
      },
    },
    handle: async (req, res, deps) => {
      const r = await writes.recordEvent(deps, readActor(req), req.valid.body);
      ok(res, r, 'OK', r.created ? 201 : 200);
    },
  }),
];
