import type { Request, Response } from 'express';
import {
  listMeta,
  ok,
  readActor,
  ref,
  requireRole,
  routes,
  type PageParams,
  type Route,
} from '../../../kit/src/index.js';
import type { NotificationDeps } from '../domain/deps.js';
import * as inbox from '../domain/inbox.js';
import { getPreferences, patchPreferences } from '../domain/preferences.js';
import * as s from '../schemas.js';
import {
  BODY_ERRORS,
  CALLER_HEADERS,
  countOf,
  ERRORS,
  FORBIDDEN,
  NOT_FOUND,
  NOTIFICATION,
  PARENT_HEADERS,
  success,
} from './docs.js';

const route = routes<NotificationDeps>();

type ListQuery = inbox.InboxQuery & s.Paging;

const caller = (req: Request) => inbox.requireCaller(readActor(req));
const pageOf = (q: ListQuery): PageParams => ({ page: q.page, limit: q.limit, skip: (q.page - 1) * q.limit });
const queryOf = ({ page: _p, limit: _l, q, ...rest }: ListQuery): inbox.InboxQuery => ({ ...rest, q: q || undefined });

/** The list envelope plus the unread count of the same user scope (filter and q aside). */
function sendPage(res: Response, page: PageParams, r: inbox.InboxResult): void {
  ok(res, { items: r.items, meta: listMeta(page, r.total), unreadCount: r.unreadCount });
}

const INBOX_PAGE = success(ref('schemas', 'InboxPage'));
const PREFERENCES = success(ref('schemas', 'Preferences'));

const listRoutes = [
  route({
    method: 'get',
    path: '/v1/notifications',
    query: s.listQuery,
    doc: {
      summary: 'Inbox list',
      operationId: 'listNotifications',
      parameters: CALLER_HEADERS,
      responses: { 200: INBOX_PAGE, ...ERRORS, ...FORBIDDEN },
    },
    handle: async (req, res, deps) => {
      const q = req.valid.query;
      sendPage(res, pageOf(q), await inbox.listNotifications(deps, caller(req), queryOf(q), pageOf(q)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/notifications/read-all',
    doc: {
      summary: 'Mark the caller’s own rows read',
      operationId: 'readAllNotifications',
      parameters: CALLER_HEADERS,
      responses: { 200: success(countOf('updated')), ...ERRORS },
    },
    handle: async (req, res, deps) => ok(res, await inbox.readAll(deps, caller(req))),
  }),
  route({
    method: 'post',
    path: '/v1/notifications/delete-all',
    doc: {
      summary: 'Delete the caller’s own rows',
      operationId: 'deleteAllNotifications',
      parameters: CALLER_HEADERS,
      responses: { 200: success(countOf('deleted')), ...ERRORS },
    },
    handle: async (req, res, deps) => ok(res, await inbox.deleteAll(deps, caller(req))),
  }),
];

const preferenceRoutes = [
  route({
    method: 'get',
    path: '/v1/notifications/preferences',
    doc: {
      summary: 'The caller’s preferences',
      operationId: 'getNotificationPreferences',
      parameters: CALLER_HEADERS,
      responses: { 200: PREFERENCES, ...ERRORS },
    },
    handle: async (req, res, deps) => ok(res, await getPreferences(deps, caller(req))),
  }),
  route({
    method: 'patch',
    path: '/v1/notifications/preferences',
    body: s.preferencesBody,
    doc: {
      summary: 'Update the caller’s preferences (enabledTypes merge; mutedUntil replaces, null clears)',
      operationId: 'patchNotificationPreferences',
      parameters: CALLER_HEADERS,
      responses: { 200: PREFERENCES, ...ERRORS, ...BODY_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await patchPreferences(deps, caller(req), req.valid.body));
    },
  }),
];

const DELETED = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'string' }, deleted: { const: true } },
  required: ['id', 'deleted'],
};

const rowRoutes = [
  route({
    method: 'get',
    path: '/v1/notifications/:notificationId',
    params: s.idParams,
    doc: {
      summary: 'One notification (admin: any; others: own)',
      operationId: 'getNotification',
      parameters: CALLER_HEADERS,
      responses: { 200: success(NOTIFICATION), ...ERRORS, ...NOT_FOUND },
    },
    handle: async (req, res, deps) => {
      ok(res, await inbox.getNotification(deps, caller(req), req.valid.params.notificationId));
    },
  }),
  route({
    method: 'post',
    path: '/v1/notifications/:notificationId/read',
    params: s.idParams,
    doc: {
      summary: 'Mark read (owner or admin)',
      operationId: 'readNotification',
      parameters: CALLER_HEADERS,
      responses: { 200: success(NOTIFICATION), ...ERRORS, ...NOT_FOUND },
    },
    handle: async (req, res, deps) => {
      ok(res, await inbox.readNotification(deps, caller(req), req.valid.params.notificationId));
    },
  }),
  route({
    method: 'post',
    path: '/v1/notifications/:notificationId/delete',
    params: s.idParams,
    doc: {
      summary: 'Delete (owner or admin); the row is removed',
      operationId: 'deleteNotification',
      parameters: CALLER_HEADERS,
      responses: { 200: success(DELETED), ...ERRORS, ...NOT_FOUND },
    },
    handle: async (req, res, deps) => {
      ok(res, await inbox.deleteNotification(deps, caller(req), req.valid.params.notificationId));
    },
  }),
];

/** The PARENT role check, before validation (a non-parent is 403 whatever it sends). */
const parentOnly = () => [requireRole('PARENT')];

const parentRoutes = [
  route({
    method: 'get',
    path: '/v1/parent/alerts',
    query: s.parentListQuery,
    before: parentOnly,
    doc: {
      summary: 'The parent’s own notifications',
      operationId: 'listParentAlerts',
      parameters: PARENT_HEADERS,
      responses: { 200: INBOX_PAGE, ...ERRORS, ...FORBIDDEN },
    },
    handle: async (req, res, deps) => {
      const q = req.valid.query;
      sendPage(res, pageOf(q), await inbox.listOwn(deps, caller(req), queryOf(q), pageOf(q)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/parent/alerts/read-all',
    before: parentOnly,
    doc: {
      summary: 'Mark all of the parent’s alerts read',
      operationId: 'readAllParentAlerts',
      parameters: PARENT_HEADERS,
      responses: { 200: success(countOf('updated')), ...ERRORS, ...FORBIDDEN },
    },
    handle: async (req, res, deps) => ok(res, await inbox.readAll(deps, caller(req))),
  }),
  route({
    method: 'post',
    path: '/v1/parent/alerts/:notificationId/read',
    params: s.idParams,
    before: parentOnly,
    doc: {
      summary: 'Mark one of the parent’s alerts read',
      operationId: 'readParentAlert',
      parameters: PARENT_HEADERS,
      responses: { 200: success(NOTIFICATION), ...ERRORS, ...FORBIDDEN, ...NOT_FOUND },
    },
    handle: async (req, res, deps) => {
      ok(res, await inbox.readNotification(deps, caller(req), req.valid.params.notificationId, true));
    },
  }),
];

/** The inbox, preference and parent-alert routes: the callers' own side of the service. */
export const inboxRoutes: ReadonlyArray<Route<NotificationDeps>> = [
  ...listRoutes,
  ...preferenceRoutes,
  ...rowRoutes,
  ...parentRoutes,
];
