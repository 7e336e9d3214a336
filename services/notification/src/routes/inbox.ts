import type { Request, Response, Router } from 'express';
import {
  input,
  listMeta,
  ok,
  onlyMethods,
  readActor,
  requireRole,
  validate,
  type PageParams,
} from '../../../kit/src/index.js';
import type { NotificationDeps } from '../domain/deps.js';
import * as inbox from '../domain/inbox.js';
import { getPreferences, patchPreferences } from '../domain/preferences.js';
import * as s from '../schemas.js';

type ListQuery = inbox.InboxQuery & PageParams;

const caller = (req: Request) => inbox.requireCaller(readActor(req));
const idOf = (req: Request) => input<{ notificationId: string }>(req, 'params').notificationId;
const pageOf = (q: ListQuery): PageParams => ({ page: q.page, limit: q.limit, skip: (q.page - 1) * q.limit });
const queryOf = ({ page: _p, limit: _l, q, ...rest }: ListQuery): inbox.InboxQuery => ({ ...rest, q: q || undefined });

/** The list envelope plus the unread count of the same user scope (filter and q aside). */
function sendPage(res: Response, page: PageParams, r: inbox.InboxResult): void {
  ok(res, { items: r.items, meta: listMeta(page, r.total), unreadCount: r.unreadCount });
}

export function inboxRoutes(router: Router, deps: NotificationDeps): void {
  router.get('/v1/notifications', validate({ query: s.listQuery }), async (req, res) => {
    const q = input<ListQuery>(req, 'query');
    sendPage(res, pageOf(q), await inbox.listNotifications(deps, caller(req), queryOf(q), pageOf(q)));
  });
  // Fixed paths before /:notificationId, so they are never read as an id.
  router.post('/v1/notifications/read-all', async (req, res) => ok(res, await inbox.readAll(deps, caller(req))));
  router.post('/v1/notifications/delete-all', async (req, res) => ok(res, await inbox.deleteAll(deps, caller(req))));
  router.get('/v1/notifications/preferences', async (req, res) => ok(res, await getPreferences(deps, caller(req))));
  router.patch('/v1/notifications/preferences', validate({ body: s.preferencesBody }), async (req, res) => {
    ok(res, await patchPreferences(deps, caller(req), input(req, 'body')));
  });
  onlyMethods(router, '/v1/notifications/read-all', ['POST']);
  onlyMethods(router, '/v1/notifications/delete-all', ['POST']);
  onlyMethods(router, '/v1/notifications/preferences', ['GET', 'PATCH']);
  router.get('/v1/notifications/:notificationId', validate({ params: s.idParams }), async (req, res) => {
    ok(res, await inbox.getNotification(deps, caller(req), idOf(req)));
  });
  router.post('/v1/notifications/:notificationId/read', validate({ params: s.idParams }), async (req, res) => {
    ok(res, await inbox.readNotification(deps, caller(req), idOf(req)));
  });
  router.post('/v1/notifications/:notificationId/delete', validate({ params: s.idParams }), async (req, res) => {
    ok(res, await inbox.deleteNotification(deps, caller(req), idOf(req)));
  });
  parentRoutes(router, deps);
}

function parentRoutes(router: Router, deps: NotificationDeps): void {
  const parent = requireRole('PARENT');
  router.get('/v1/parent/alerts', parent, validate({ query: s.parentListQuery }), async (req, res) => {
    const q = input<ListQuery>(req, 'query');
    sendPage(res, pageOf(q), await inbox.listOwn(deps, caller(req), queryOf(q), pageOf(q)));
  });
  router.post('/v1/parent/alerts/read-all', parent, async (req, res) =>
    ok(res, await inbox.readAll(deps, caller(req))),
  );
  router.post('/v1/parent/alerts/:notificationId/read', parent, validate({ params: s.idParams }), async (req, res) => {
    ok(res, await inbox.readNotification(deps, caller(req), idOf(req), true));
  });
}
