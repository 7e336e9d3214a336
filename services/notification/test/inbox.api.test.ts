import { expect } from 'chai';
import {
  admin,
  create,
  future,
  headers,
  inbox,
  parent,
  past,
  startNotification,
  student,
  type TestNotification,
} from './support.js';

describe('notification service: inbox, read/delete, preferences, parent alerts', function () {
  this.timeout(60000);
  let svc: TestNotification;

  before(async () => {
    svc = await startNotification(import.meta.url);
  });
  after(() => svc?.close());
  beforeEach(() => svc.clearCollections());

  describe('GET /v1/notifications', () => {
    it('returns 401 UNAUTHENTICATED without X-Actor-Id', async () => {
      const res = await svc.request.get('/v1/notifications').expect(401);
      expect(res.body.error.code).to.equal('UNAUTHENTICATED');
    });

    it('shows a non-admin only their own rows, newest first, with the unread count', async () => {
      const first = await create(svc, { userId: 's1', title: 'Một' });
      const second = await create(svc, { userId: 's1', title: 'Hai' });
      await create(svc, { userId: 's2', title: 'Của người khác' });
      await svc.request
        .post(`/v1/notifications/${first.id}/read`)
        .set(headers(student('s1')))
        .expect(200);
      const page = await inbox(svc, student('s1'));
      expect(page.items.map((n) => n.id)).to.deep.equal([second.id, first.id]);
      expect(page.meta).to.deep.equal({ page: 1, limit: 20, total: 2, totalPages: 1 });
      expect(page.unreadCount).to.equal(1);
    });

    it('returns 403 FORBIDDEN when a non-admin names another userId', async () => {
      const res = await svc.request
        .get('/v1/notifications')
        .set(headers(student('s1')))
        .query({ userId: 's2' });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
      await inbox(svc, student('s1'), { userId: 's1' });
    });

    it('lets an admin list one user or everyone', async () => {
      await create(svc, { userId: 's1' });
      await create(svc, { userId: 's2' });
      expect((await inbox(svc, admin(), { userId: 's2' })).items.map((n) => n.userId)).to.deep.equal(['s2']);
      expect((await inbox(svc, admin())).meta.total).to.equal(2);
    });

    it('filters ALL, UNREAD, READ and SUPPORT', async () => {
      const a = await create(svc, { userId: 's1', type: 'INFO' });
      await create(svc, { userId: 's1', type: 'SUPPORT_REPLY' });
      await create(svc, { userId: 's1', type: 'EXAM_PUBLISHED' });
      await svc.request
        .post(`/v1/notifications/${a.id}/read`)
        .set(headers(student('s1')))
        .expect(200);
      const types = async (filter: string) =>
        (await inbox(svc, student('s1'), { filter })).items.map((n) => n.type).sort();
      expect(await types('ALL')).to.deep.equal(['EXAM_PUBLISHED', 'INFO', 'SUPPORT_REPLY']);
      expect(await types('UNREAD')).to.deep.equal(['EXAM_PUBLISHED', 'SUPPORT_REPLY']);
      expect(await types('READ')).to.deep.equal(['INFO']);
      expect(await types('SUPPORT')).to.deep.equal(['SUPPORT_REPLY']);
    });

    it('searches q as literal, case-insensitive text in title and body', async () => {
      await create(svc, { userId: 's1', title: 'Bài kiểm tra (Toán)', body: '' });
      await create(svc, { userId: 's1', title: 'Khác', body: 'nhắc lịch THI' });
      await create(svc, { userId: 's1', title: 'Không liên quan' });
      expect((await inbox(svc, student('s1'), { q: '(toán)' })).items).to.have.length(1);
      expect((await inbox(svc, student('s1'), { q: 'thi' })).items.map((n) => n.title)).to.deep.equal(['Khác']);
      expect((await inbox(svc, student('s1'), { q: '.*' })).items).to.have.length(0);
      // A NUL byte is text like any other (a BSON regex cannot hold it raw): no match, not a 500.
      expect((await inbox(svc, student('s1'), { q: 'a\u0000b' })).items).to.have.length(0);
    });

    it('pages with the clamp (limit 500 is 100, garbage is the default) and filters by organizationId only when asked', async () => {
      for (let i = 0; i < 5; i++) await create(svc, { userId: 's1', organizationId: i < 2 ? 'org-a' : null });
      const p2 = await inbox(svc, student('s1'), { page: '2', limit: '2' });
      expect(p2.meta).to.deep.equal({ page: 2, limit: 2, total: 5, totalPages: 3 });
      expect(p2.items).to.have.length(2);
      expect((await inbox(svc, student('s1'), { limit: '500' })).meta.limit).to.equal(100);
      expect((await inbox(svc, student('s1'), { limit: 'abc', page: '-3' })).meta).to.include({ limit: 20, page: 1 });
      expect((await inbox(svc, student('s1'), { organizationId: 'org-a' })).meta.total).to.equal(2);
      // The header is not a filter: rows without an organization stay visible.
      const res = await svc.request
        .get('/v1/notifications')
        .set({ ...headers(student('s1')), 'X-Organization-Id': 'org-b' });
      expect(res.body.data.meta.total).to.equal(5);
    });

    it('refuses an unknown filter, a malformed userId and a malformed actor header with 400', async () => {
      for (const query of [{ filter: 'NEW' }, { userId: 'bad id' }, { q: 'x'.repeat(201) }]) {
        const res = await svc.request
          .get('/v1/notifications')
          .set(headers(student('s1')))
          .query(query);
        expect(res.status, JSON.stringify(query)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      await svc.request.get('/v1/notifications').set({ 'X-Actor-Id': 's1', 'X-Actor-Role': 'KING' }).expect(400);
    });
    it('an ADMIN through the own-inbox scope (X-Actor-Scope: self) reaches only its own rows', async () => {
      const own = await create(svc, { userId: 'a1', title: 'Của admin' });
      const other = await create(svc, { userId: 's2', title: 'Của học sinh' });
      const self = { ...headers(admin('a1')), 'X-Actor-Scope': 'self' };
      const page = await svc.request.get('/v1/notifications').set(self).expect(200);
      expect(page.body.data.items.map((n: { id: string }) => n.id)).to.deep.equal([own.id]);
      const foreign = await svc.request.get('/v1/notifications').set(self).query({ userId: 's2' });
      expect(foreign.status).to.equal(403);
      await svc.request.get(`/v1/notifications/${other.id}`).set(self).expect(404);
      await svc.request.post(`/v1/notifications/${other.id}/delete`).set(self).expect(404);
      // The row is still there for its owner.
      expect((await inbox(svc, student('s2'))).items.map((n) => n.id)).to.deep.equal([other.id]);
    });
  });

  describe('single notification routes', () => {
    it('GET returns the owner\u2019s row, 404 NOTIFICATION_NOT_FOUND for another user\u2019s, any row for an admin', async () => {
      const n = await create(svc, { userId: 's1', data: { $weird: { 'a.b': [1] } } });
      const own = await svc.request
        .get(`/v1/notifications/${n.id}`)
        .set(headers(student('s1')))
        .expect(200);
      expect(own.body.data.data).to.deep.equal({ $weird: { 'a.b': [1] } });
      const other = await svc.request
        .get(`/v1/notifications/${n.id}`)
        .set(headers(student('s2')))
        .expect(404);
      expect(other.body.error.code).to.equal('NOTIFICATION_NOT_FOUND');
      await svc.request.get(`/v1/notifications/${n.id}`).set(headers(admin())).expect(200);
      await svc.request.get('/v1/notifications/missing').set(headers(admin())).expect(404);
    });

    it('read marks once (readAt kept), refuses a non-owner, and lets an admin read any row', async () => {
      const n = await create(svc, { userId: 's1' });
      await svc.request
        .post(`/v1/notifications/${n.id}/read`)
        .set(headers(student('s2')))
        .expect(404);
      const first = await svc.request
        .post(`/v1/notifications/${n.id}/read`)
        .set(headers(student('s1')))
        .expect(200);
      expect(first.body.data.isRead).to.equal(true);
      const again = await svc.request
        .post(`/v1/notifications/${n.id}/read`)
        .set(headers(student('s1')))
        .expect(200);
      expect(again.body.data.readAt).to.equal(first.body.data.readAt);
      const m = await create(svc, { userId: 's3' });
      const byAdmin = await svc.request.post(`/v1/notifications/${m.id}/read`).set(headers(admin())).expect(200);
      expect(byAdmin.body.data.isRead).to.equal(true);
    });

    it('delete removes the owner\u2019s row, refuses a non-owner with 404 and leaves the row', async () => {
      const n = await create(svc, { userId: 's1' });
      await svc.request
        .post(`/v1/notifications/${n.id}/delete`)
        .set(headers(student('s2')))
        .expect(404);
      expect(await svc.built.deps.models.Notification.countDocuments({ _id: n.id })).to.equal(1);
      const res = await svc.request
        .post(`/v1/notifications/${n.id}/delete`)
        .set(headers(student('s1')))
        .expect(200);
      expect(res.body.data).to.deep.equal({ id: n.id, deleted: true });
      await svc.request
        .post(`/v1/notifications/${n.id}/delete`)
        .set(headers(student('s1')))
        .expect(404);
      const m = await create(svc, { userId: 's3' });
      await svc.request.post(`/v1/notifications/${m.id}/delete`).set(headers(admin())).expect(200);
    });

    it('answers 405 for a wrong method on the fixed paths, not a lookup of an id', async () => {
      for (const path of ['/v1/notifications/read-all', '/v1/notifications/delete-all', '/v1/notifications/batch']) {
        const res = await svc.request.get(path).set(headers(student('s1')));
        expect(res.status, path).to.equal(405);
      }
      await svc.request
        .delete('/v1/notifications/preferences')
        .set(headers(student('s1')))
        .expect(405);
    });
  });

  describe('read-all and delete-all', () => {
    it('touch only the caller\u2019s rows (an admin\u2019s too), whatever X-Organization-Id says', async () => {
      await create(svc, { userId: 's1', organizationId: 'org-a' });
      await create(svc, { userId: 's1', organizationId: null });
      await create(svc, { userId: 's2' });
      await create(svc, { userId: 'a1' });
      const h = { ...headers(student('s1')), 'X-Organization-Id': 'org-b' };
      const read = await svc.request.post('/v1/notifications/read-all').set(h).expect(200);
      expect(read.body.data).to.deep.equal({ updated: 2 });
      expect((await inbox(svc, student('s2'))).unreadCount).to.equal(1);
      const adminRead = await svc.request.post('/v1/notifications/read-all').set(headers(admin())).expect(200);
      expect(adminRead.body.data).to.deep.equal({ updated: 1 });
      const del = await svc.request.post('/v1/notifications/delete-all').set(h).expect(200);
      expect(del.body.data).to.deep.equal({ deleted: 2 });
      expect(await svc.built.deps.models.Notification.countDocuments()).to.equal(2);
      await svc.request.post('/v1/notifications/delete-all').expect(401);
    });
  });

  describe('preferences', () => {
    it('start empty, merge enabledTypes, replace and clear mutedUntil', async () => {
      const h = headers(student('s1'));
      const empty = await svc.request.get('/v1/notifications/preferences').set(h).expect(200);
      expect(empty.body.data).to.deep.equal({ userId: 's1', enabledTypes: {}, mutedUntil: null, updatedAt: null });
      await svc.request
        .patch('/v1/notifications/preferences')
        .set(h)
        .send({ enabledTypes: { A: false } })
        .expect(200);
      const until = future();
      const both = await svc.request
        .patch('/v1/notifications/preferences')
        .set(h)
        .send({ enabledTypes: { B: true }, mutedUntil: until })
        .expect(200);
      expect(both.body.data.enabledTypes).to.deep.equal({ A: false, B: true });
      expect(both.body.data.mutedUntil).to.equal(until);
      const cleared = await svc.request
        .patch('/v1/notifications/preferences')
        .set(h)
        .send({ mutedUntil: null })
        .expect(200);
      expect(cleared.body.data.mutedUntil).to.equal(null);
      expect(cleared.body.data.enabledTypes).to.deep.equal({ A: false, B: true });
    });

    it('refuse an empty patch, a non-boolean, a bad type name and a bad date with 400', async () => {
      const h = headers(student('s1'));
      for (const body of [
        {},
        { enabledTypes: { A: 'no' } },
        { enabledTypes: { 'a.b': false } },
        { mutedUntil: 'soon' },
        { other: 1 },
      ]) {
        const res = await svc.request.patch('/v1/notifications/preferences').set(h).send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      await svc.request.get('/v1/notifications/preferences').expect(401);
    });

    it('a mute never hides rows that already exist', async () => {
      await create(svc, { userId: 's1' });
      await svc.request
        .patch('/v1/notifications/preferences')
        .set(headers(student('s1')))
        .send({ mutedUntil: future() })
        .expect(200);
      expect((await inbox(svc, student('s1'))).meta.total).to.equal(1);
      await svc.request
        .patch('/v1/notifications/preferences')
        .set(headers(student('s1')))
        .send({ mutedUntil: past() })
        .expect(200);
    });
  });

  describe('parent alerts', () => {
    it('list, read one and read all of the parent\u2019s own rows; other roles are 403', async () => {
      const a = await create(svc, { userId: 'p1', type: 'WEAK_TOPIC_ALERT' });
      await create(svc, { userId: 'p1', type: 'EXAM_RESULT' });
      const other = await create(svc, { userId: 'p2' });
      const list = await svc.request
        .get('/v1/parent/alerts')
        .set(headers(parent('p1')))
        .expect(200);
      expect(list.body.data.meta.total).to.equal(2);
      expect(list.body.data.unreadCount).to.equal(2);
      await svc.request
        .post(`/v1/parent/alerts/${a.id}/read`)
        .set(headers(parent('p1')))
        .expect(200);
      await svc.request
        .post(`/v1/parent/alerts/${other.id}/read`)
        .set(headers(parent('p1')))
        .expect(404);
      const unread = await svc.request
        .get('/v1/parent/alerts')
        .set(headers(parent('p1')))
        .query({ filter: 'UNREAD' });
      expect(unread.body.data.items.map((n: { type: string }) => n.type)).to.deep.equal(['EXAM_RESULT']);
      const all = await svc.request
        .post('/v1/parent/alerts/read-all')
        .set(headers(parent('p1')))
        .expect(200);
      expect(all.body.data).to.deep.equal({ updated: 1 });
      await svc.request
        .get('/v1/parent/alerts')
        .set(headers(student('s1')))
        .expect(403);
      await svc.request.get('/v1/parent/alerts').set(headers(admin())).expect(403);
      await svc.request.get('/v1/parent/alerts').expect(401);
    });
  });
});
