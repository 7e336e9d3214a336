import { expect } from 'chai';
import {
  admin,
  future,
  headers,
  inbox,
  parent,
  service,
  startNotification,
  student,
  type TestNotification,
} from './support.js';

const recipients = (n: number, prefix = 'u') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const topics = [
  { topic: 'Hàm số', topicId: 'tp-1', wrongCount: 3, attemptCount: 4, accuracy: 0.25, shouldAlert: true },
  { topic: 'Xác suất', wrongCount: 2, attemptCount: 2, accuracy: 0 },
];

describe('notification service: create, batch, snapshot, weak-topic alerts, events', function () {
  this.timeout(60000);
  let svc: TestNotification;

  before(async () => {
    svc = await startNotification(import.meta.url);
  });
  after(() => svc?.close());
  beforeEach(() => svc.clearCollections());

  const count = (query: Record<string, unknown> = {}) => svc.built.deps.models.Notification.countDocuments(query);
  const mute = (userId: string, body: Record<string, unknown>) =>
    svc.request
      .patch('/v1/notifications/preferences')
      .set(headers(student(userId)))
      .send(body)
      .expect(200);

  describe('POST /v1/notifications', () => {
    it('creates one row; organizationId defaults to X-Organization-Id, else null', async () => {
      const res = await svc.request
        .post('/v1/notifications')
        .set({ 'X-Organization-Id': 'org-h' })
        .send({ userId: 's1', type: 'INFO', title: 'Chào', body: 'Nội dung', data: { k: 1 } })
        .expect(201);
      expect(res.body).to.include({ success: true, message: 'OK' });
      expect(res.body.data).to.include({ userId: 's1', organizationId: 'org-h', isRead: false, readAt: null });
      const explicit = await svc.request
        .post('/v1/notifications')
        .set({ 'X-Organization-Id': 'org-h' })
        .send({ userId: 's1', type: 'INFO', title: 'x', organizationId: 'org-b' })
        .expect(201);
      expect(explicit.body.data.organizationId).to.equal('org-b');
      const none = await svc.request
        .post('/v1/notifications')
        .send({ userId: 's1', type: 'INFO', title: 'x' })
        .expect(201);
      expect(none.body.data.organizationId).to.equal(null);
      expect(await count({ userId: 's1' })).to.equal(3);
    });

    it('is refused for STUDENT and PARENT actors (403), allowed for ADMIN', async () => {
      const body = { userId: 's1', type: 'INFO', title: 'x' };
      await svc.request.post('/v1/notifications').set(headers(student())).send(body).expect(403);
      await svc.request.post('/v1/notifications').set(headers(parent())).send(body).expect(403);
      await svc.request.post('/v1/notifications').set(headers(admin())).send(body).expect(201);
      expect(await count()).to.equal(1);
    });

    it('refuses bad input with 400 and writes nothing', async () => {
      const bad = [
        {},
        { userId: 's1', type: 'INFO' },
        { userId: 's1', type: 'bad type', title: 'x' },
        { userId: 's1', type: 'INFO', title: '' },
        { userId: 's1', type: 'INFO', title: 'x'.repeat(201) },
        { userId: 's 1', type: 'INFO', title: 'x' },
        { userId: 's1', type: 'INFO', title: 'x', data: 'text' },
        { userId: 's1', type: 'INFO', title: 'x', extra: true },
      ];
      for (const body of bad) {
        const res = await svc.request.post('/v1/notifications').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      const malformed = await svc.request
        .post('/v1/notifications')
        .set('Content-Type', 'application/json')
        .send('{"userId":');
      expect(malformed.status).to.equal(400);
      expect(await count()).to.equal(0);
    });

    it('ignores preferences: a direct create reaches a muted recipient', async () => {
      await mute('s1', { mutedUntil: future(), enabledTypes: { INFO: false } });
      await svc.request.post('/v1/notifications').send({ userId: 's1', type: 'INFO', title: 'x' }).expect(201);
      expect(await count({ userId: 's1' })).to.equal(1);
    });
  });

  describe('POST /v1/notifications/batch', () => {
    it('fans 10,000 recipients out in one request, each once', async function () {
      this.timeout(120000);
      const ids = recipients(10_000);
      const res = await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: ids, type: 'EXAM_PUBLISHED', title: 'Đề mới', organizationId: 'org-1' })
        .expect(201);
      expect(res.body.data).to.deep.equal({
        batchKey: null,
        requested: 10_000,
        created: 10_000,
        existing: 0,
        muted: 0,
        typeDisabled: 0,
      });
      expect(await count({ type: 'EXAM_PUBLISHED' })).to.equal(10_000);
      expect((await inbox(svc, student('u9999'))).items[0]).to.include({ title: 'Đề mới', organizationId: 'org-1' });
    });

    it('refuses 10,001 recipients with 400 VALIDATION_ERROR and writes nothing', async () => {
      const res = await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: recipients(10_001), type: 'INFO', title: 'x' });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error.details)).to.contain('recipientIds');
      expect(await count()).to.equal(0);
    });

    it('refuses a body over 2 MB with 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: recipients(10_000, 'x'.repeat(220)), type: 'INFO', title: 'x' });
      expect(res.status).to.equal(413);
      expect(res.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
      expect(await count()).to.equal(0);
    });

    it('with a batchKey, a replay creates nothing new; the key with another body is 409', async () => {
      const body = { batchKey: 'b-1', recipientIds: ['a', 'b', 'c'], type: 'INFO', title: 'Một lần' };
      const first = await svc.request.post('/v1/notifications/batch').send(body).expect(201);
      expect(first.body.data).to.include({ batchKey: 'b-1', created: 3, existing: 0 });
      const replay = await svc.request.post('/v1/notifications/batch').send(body).expect(201);
      expect(replay.body.data).to.include({ created: 0, existing: 3 });
      expect(await count()).to.equal(3);
      const other = await svc.request.post('/v1/notifications/batch').send({ ...body, title: 'Khác' });
      expect(other.status).to.equal(409);
      expect(other.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      expect(await count()).to.equal(3);
    });

    it('two concurrent sends of one keyed batch create each row once', async () => {
      const body = { batchKey: 'b-race', recipientIds: recipients(500), type: 'INFO', title: 'Đua' };
      const [a, b] = await Promise.all([
        svc.request.post('/v1/notifications/batch').send(body),
        svc.request.post('/v1/notifications/batch').send(body),
      ]);
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(a.body.data.created + b.body.data.created).to.equal(500);
      expect(await count()).to.equal(500);
    });

    it('skips muted recipients and disabled types, counts them, and counts a repeated recipient once', async () => {
      await mute('m1', { mutedUntil: future() });
      await mute('d1', { enabledTypes: { INFO: false, OTHER: true } });
      await mute('e1', { mutedUntil: new Date(Date.now() - 1000).toISOString(), enabledTypes: { INFO: true } });
      const res = await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: ['m1', 'd1', 'e1', 'x1', 'x1'], type: 'INFO', title: 'x' })
        .expect(201);
      expect(res.body.data).to.include({ requested: 4, created: 2, muted: 1, typeDisabled: 1 });
      expect((await svc.built.deps.models.Notification.find().lean()).map((n) => n.userId).sort()).to.deep.equal([
        'e1',
        'x1',
      ]);
    });

    it('refuses an empty list, a bad id and a STUDENT caller', async () => {
      await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: [], type: 'INFO', title: 'x' })
        .expect(400);
      await svc.request
        .post('/v1/notifications/batch')
        .send({ recipientIds: ['a b'], type: 'INFO', title: 'x' })
        .expect(400);
      await svc.request
        .post('/v1/notifications/batch')
        .set(headers(student()))
        .send({ recipientIds: ['a'], type: 'INFO', title: 'x' })
        .expect(403);
      expect(await count()).to.equal(0);
    });
  });

  describe('PUT /v1/notifications/{id}/snapshot', () => {
    it('creates (201) then replaces (200) by id, keeping the given times and read state', async () => {
      const body = { userId: 's1', type: 'INFO', title: 'Cũ', createdAt: '2024-01-02T03:04:05.000Z' };
      const created = await svc.request.put('/v1/notifications/legacy-1/snapshot').send(body).expect(201);
      expect(created.body.data.created).to.equal(true);
      expect(created.body.data.notification).to.include({
        id: 'legacy-1',
        createdAt: '2024-01-02T03:04:05.000Z',
        isRead: false,
      });
      const readAt = '2024-02-01T00:00:00.000Z';
      const replaced = await svc.request
        .put('/v1/notifications/legacy-1/snapshot')
        .send({ ...body, title: 'Mới', readAt })
        .expect(200);
      expect(replaced.body.data.notification).to.include({ title: 'Mới', isRead: true, readAt });
      expect(await count()).to.equal(1);
      await svc.request.put('/v1/notifications/legacy-1/snapshot').send({ userId: 's1' }).expect(400);
      await svc.request.put('/v1/notifications/legacy-1/snapshot').set(headers(parent())).send(body).expect(403);
    });

    it('ignores members it does not use (never stored) and takes the id spelled id or notificationId', async () => {
      const body = {
        id: 'legacy-2',
        userId: 's1',
        type: 'INFO',
        title: 'Cũ',
        sourceKey: 'forged',
        legacyFlags: { pinned: true },
      };
      await svc.request.put('/v1/notifications/legacy-2/snapshot').send(body).expect(201);
      const spelled = { userId: 's1', type: 'INFO', title: 'Mới', notificationId: 'legacy-3' };
      await svc.request.put('/v1/notifications/legacy-3/snapshot').send(spelled).expect(201);
      const stored = JSON.stringify(await svc.built.deps.models.Notification.find({}).lean());
      expect(stored).not.to.match(/forged|legacyFlags|pinned/);
      expect(stored).to.include('snapshot:legacy-2');
    });

    const disagreeing: Array<[string, string, Record<string, unknown>]> = [
      ['id', 'an id other than the path', { id: 'other' }],
      ['id', 'a notificationId other than the path', { notificationId: 'other' }],
      ['notificationId', 'a notificationId other than id', { id: 'legacy-4', notificationId: 'other' }],
      ['userId', 'a userId outside the id alphabet', { userId: 'a b' }],
    ];
    for (const [path, what, over] of disagreeing) {
      it(`refuses ${what} with 400 naming ${path}, and writes nothing`, async () => {
        const body = { userId: 's1', type: 'INFO', title: 'x', ...over };
        const res = await svc.request.put('/v1/notifications/legacy-4/snapshot').send(body).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(path);
        expect(await count()).to.equal(0);
      });
    }
  });

  describe('POST /v1/alerts/weak-topic', () => {
    it('alerts each resolved parent once per attempt, respecting their preferences', async () => {
      await mute('p-muted', { mutedUntil: future() });
      const body = {
        studentId: 's1',
        parentIds: ['p1', 'p2', 'p-muted', 'p1'],
        attemptId: 'att-1',
        organizationId: 'org-1',
        exam: { id: 'e1', title: 'Kiểm tra 15 phút' },
        topics,
      };
      const res = await svc.request.post('/v1/alerts/weak-topic').send(body).expect(201);
      expect(res.body.data).to.deep.equal({
        alertKey: 'attempt:att-1',
        requested: 3,
        created: 2,
        existing: 0,
        muted: 1,
        typeDisabled: 0,
      });
      const again = await svc.request.post('/v1/alerts/weak-topic').send(body).expect(201);
      expect(again.body.data).to.include({ created: 0, existing: 2 });
      const alerts = await svc.request
        .get('/v1/parent/alerts')
        .set(headers(parent('p1')))
        .expect(200);
      const [alert] = alerts.body.data.items;
      expect(alert).to.include({ type: 'WEAK_TOPIC_ALERT', organizationId: 'org-1' });
      expect(alert.title).to.contain('Kiểm tra 15 phút');
      expect(alert.data).to.include({ studentId: 's1', attemptId: 'att-1', examId: 'e1' });
      expect(alert.data.topics).to.have.length(2);
      const link = await svc.built.deps.models.ParentLink.findById('s1').lean();
      expect(link?.parentIds).to.deep.equal(['p1', 'p2', 'p-muted']);
    });

    it('takes the ids nested and the exam flat, and ignores (never stores) members it does not use', async () => {
      const body = {
        student: { id: 's1', fullName: 'Nguyễn Văn A' },
        attempt: { id: 'att-2' },
        classroom: { id: 'c1', name: '12A1' },
        examId: 'e2',
        examTitle: 'Kiểm tra giữa kỳ',
        parentIds: ['p1'],
        parentEmails: ['p1@x.vn'],
        topics: [{ ...topics[0], questionIds: ['q-secret'] }],
      };
      const res = await svc.request.post('/v1/alerts/weak-topic').send(body).expect(201);
      expect(res.body.data).to.include({ alertKey: 'attempt:att-2', created: 1 });
      const row = await svc.built.deps.models.Notification.findOne({ userId: 'p1' }).lean();
      expect(row?.title).to.contain('Kiểm tra giữa kỳ');
      expect(JSON.parse(row!.data)).to.include({
        studentId: 's1',
        attemptId: 'att-2',
        examId: 'e2',
        classroomId: 'c1',
      });
      const stored = JSON.stringify(await svc.built.deps.models.Notification.find({}).lean());
      expect(stored).not.to.match(/fullName|12A1|parentEmails|p1@x\.vn|q-secret/);
    });

    const disagreeing: Array<[string, Record<string, unknown>]> = [
      ['student.id', { student: { id: 's2' } }],
      ['examId', { exam: { id: 'e1', title: 't' }, examId: 'e2' }],
      ['examTitle', { exam: { id: 'e1', title: 't' }, examTitle: 'u' }],
      ['attempt.id', { attemptId: 'a1', attempt: { id: 'a2' } }],
      ['classroom.id', { classroomId: 'c1', classroom: { id: 'c2' } }],
      ['examId', { exam: null, examId: 'e2' }],
    ];
    for (const [alias, over] of disagreeing) {
      it(`refuses ${alias} that disagrees with the other spelling (400 naming it), writing nothing`, async () => {
        const body = { studentId: 's1', parentIds: ['p1'], topics, ...over };
        const res = await svc.request.post('/v1/alerts/weak-topic').send(body).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(alias);
        expect(await count()).to.equal(0);
      });
    }

    it('refuses missing parents, empty topics, accuracy above 1 and a STUDENT caller', async () => {
      const ok = { studentId: 's1', parentIds: ['p1'], topics };
      for (const body of [
        { ...ok, parentIds: [] },
        { ...ok, topics: [] },
        { ...ok, topics: [{ ...topics[0], accuracy: 1.5 }] },
        { ...ok, studentId: undefined },
        { ...ok, studentId: undefined, student: { id: 'a b' } },
        { ...ok, examId: 'e1' },
        { ...ok, topics: [{ ...topics[0], wrongCount: -1 }] },
      ]) {
        const res = await svc.request.post('/v1/alerts/weak-topic').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      await svc.request.post('/v1/alerts/weak-topic').set(headers(student())).send(ok).expect(403);
      expect(await count()).to.equal(0);
    });
  });

  describe('POST /v1/events/notification', () => {
    it('records the event and its notifications in one request; a replay of the event id creates nothing new', async () => {
      await mute('s-off', { enabledTypes: { GRADE_POSTED: false } });
      const body = {
        event: { id: 'ev-1', type: 'GRADE_POSTED', entity: 'EXAM', entityId: 'e1', targetUserId: 's1', data: { x: 1 } },
        notifications: [
          { userId: 's1', type: 'GRADE_POSTED', title: 'Đã có điểm' },
          { userId: 's1', type: 'GRADE_POSTED', title: 'Nhắc lại' },
          { userId: 's-off', type: 'GRADE_POSTED', title: 'Đã có điểm' },
        ],
      };
      const res = await svc.request
        .post('/v1/events/notification')
        .set(headers(admin('a9')))
        .send(body)
        .expect(201);
      expect(res.body.data.created).to.equal(true);
      expect(res.body.data.event).to.include({
        id: 'ev-1',
        actorId: 'a9',
        entity: 'EXAM',
        entityId: 'e1',
        targetUserId: 's1',
      });
      expect(res.body.data.event.data).to.deep.equal({ x: 1 });
      expect(res.body.data.notifications).to.deep.equal({
        requested: 3,
        created: 2,
        existing: 0,
        muted: 0,
        typeDisabled: 1,
      });
      const replay = await svc.request
        .post('/v1/events/notification')
        .set(headers(admin('a9')))
        .send(body)
        .expect(200);
      expect(replay.body.data.created).to.equal(false);
      expect(replay.body.data.notifications).to.include({ created: 0, existing: 2 });
      expect(await count({ userId: 's1' })).to.equal(2);
      expect(await svc.built.deps.models.NotificationEvent.countDocuments()).to.equal(1);
    });

    it('ignores members it does not use at every depth (never stored); data is kept whole', async () => {
      const body = {
        event: { type: 'VIEWED', entity: 'EXAM', entityId: 'e1', data: { keep: { deep: 1 } }, ip: '10.0.0.1' },
        notifications: [{ userId: 's1', type: 'VIEWED', title: 't', channel: 'sms' }],
        traceId: 'trace-xyz',
      };
      const res = await svc.request.post('/v1/events/notification').send(body).expect(201);
      expect(res.body.data.event.data).to.deep.equal({ keep: { deep: 1 } });
      expect(res.body.data.notifications.created).to.equal(1);
      const stored = JSON.stringify([
        await svc.built.deps.models.NotificationEvent.find({}).lean(),
        await svc.built.deps.models.Notification.find({}).lean(),
      ]);
      expect(stored).not.to.match(/10\.0\.0\.1|sms|trace-xyz/);
      // The standalone create keeps refusing them (a public-facing shape).
      await svc.request
        .post('/v1/notifications')
        .send({ userId: 's1', type: 'VIEWED', title: 't', channel: 'sms' })
        .expect(400);
    });

    it('records an event without notifications, and refuses a bad event with 400', async () => {
      const res = await svc.request
        .post('/v1/events/notification')
        .send({ event: { type: 'VIEWED', entity: 'NOTIFICATION', entityId: 'n1' } })
        .expect(201);
      expect(res.body.data.event).to.include({ actorId: null, organizationId: null });
      expect(res.body.data.notifications.requested).to.equal(0);
      for (const body of [
        {},
        { event: { type: 'VIEWED', entity: 'N' } },
        { event: { type: 'x y', entity: 'N', entityId: 'n' } },
        { event: { type: 'A', entity: 'N', entityId: 'n', targetUserId: 7 } },
        { event: { type: 'A', entity: 'N', entityId: 'n' }, notifications: [{ userId: 's1', type: 'A' }] },
      ]) {
        const r = await svc.request.post('/v1/events/notification').send(body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
      }
      await svc.request
        .post('/v1/events/notification')
        .set(headers(service))
        .send({
          event: { type: 'A', entity: 'B', entityId: 'c' },
          notifications: recipients(101).map((userId) => ({ userId, type: 'A', title: 't' })),
        })
        .expect(400);
    });
  });
});
