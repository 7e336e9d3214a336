import type { Request, Response } from 'express';
import { readActor, listMeta, type PageParams } from '../../../kit/src/core/index.js';
import { ok, ref, requireRole, routes, type JsonObject, type Route } from '../../../kit/src/http/index.js';
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

/** A domain lister: every row in the caller's scope, or the caller's own; both take the same input. */
type Lister = (
  deps: NotificationDeps,
  who: inbox.Caller,
  query: inbox.InboxQuery,
  page: PageParams,
) => Promise<inbox.InboxResult>;

/** A list route's handler: the query split into filters and page, the lister's rows sent as an inbox page. */
const listWith =
  (list: Lister) => async (req: Request & { valid: { query: ListQuery } }, res: Response, deps: NotificationDeps) => {
    const q = req.valid.query;
    sendPage(res, pageOf(q), await list(deps, caller(req), queryOf(q), pageOf(q)));
  };

/** A list route's document: an inbox page, or the shared errors and 403. */
const pageDoc = (summary: string, operationId: string, parameters: JsonObject[]) => ({
  summary,
  operationId,
  parameters,
  responses: { 200: INBOX_PAGE, ...ERRORS, ...FORBIDDEN },
});

const listRoutes = [
  route({
    method: 'get',
    path: '/v1/notifications',
    query: s.listQuery,
    doc: pageDoc('Inbox list', 'listNotifications', CALLER_HEADERS),
    handle: listWith(inbox.listNotifications),
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

/** One row's action as the domain states it: the caller and the row's id in, the answer out. */
type RowAction = (deps: NotificationDeps, caller: inbox.Caller, id: string) => Promise<unknown>;

/** A route acting on one notification by id: what differs from row to row is named, the rest is here. */
interface RowRoute {
  method: 'get' | 'post';
  path: string;
  doc: { summary: string; operationId: string };
  data: JsonObject;
  act: RowAction;
}

const rowRoute = ({ method, path, doc, data, act }: RowRoute) =>
  route({
    method,
    path,
    params: s.idParams,
    doc: { ...doc, parameters: CALLER_HEADERS, responses: { 200: success(data), ...ERRORS, ...NOT_FOUND } },
    handle: async (req, res, deps) => {
      ok(res, await act(deps, caller(req), req.valid.params.notificationId));
    },
  });

const rowRoutes = [
  rowRoute({
    method: 'get',
    path: '/v1/notifications/:notificationId',
    doc: {
      summary: 'One notification (own; the ADMIN of X-Organization-Id also that organization’s)',
      operationId: 'getNotification',
    },
    data: NOTIFICATION,
    act: inbox.getNotification,
  }),
  rowRoute({
    method: 'post',
    path: '/v1/notifications/:notificationId/read',
    doc: { summary: 'Mark read (owner, or the ADMIN of the row’s organization)', operationId: 'readNotification' },
    data: NOTIFICATION,
    act: inbox.readNotification,
  }),
  rowRoute({
    method: 'post',
    path: '/v1/notifications/:notificationId/delete',
    doc: {
      summary: 'Delete (owner, or the ADMIN of the row’s organization); the row is removed',
      operationId: 'deleteNotification',
    },
    data: DELETED,
    act: inbox.deleteNotification,
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
    doc: pageDoc('The parent’s own notifications', 'listParentAlerts', PARENT_HEADERS),
    handle: listWith(inbox.listOwn),
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
