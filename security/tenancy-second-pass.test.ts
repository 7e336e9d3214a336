import { expect } from 'chai';
import { startStack, type Stack } from './support/stack.js';
import { call } from './support/http.js';

// Issue 33 (8): the notification and user services read X-User-Role ADMIN as the admin of every
// organization, while the gateway sends ADMIN for one organization's admin. An attacker here is the
// ADMIN (or a TEACHER) of school B, as the gateway or a peer service would speak for it.
describe('security: organization admins stay inside their organization (notification, user)', function () {
  this.timeout(180000);
  let stack: Stack;
  before(async () => {
    stack = await startStack(import.meta.url);
  });
  after(() => stack?.close());

  const as = (userId: string, role: string, organizationId?: string): Record<string, string> => ({
    'X-Internal-Token': stack.secrets.internal,
    'X-User-Id': userId,
    'X-User-Role': role,
    ...(organizationId ? { 'X-Organization-Id': organizationId } : {}),
  });
  const peerService = (): Record<string, string> => ({ 'X-Internal-Token': stack.secrets.internal });
  const notification = (path: string) => `${stack.services.notification}${path}`;
  const user = (path: string) => `${stack.services.user}${path}`;

  /** A row in school A's inbox, written by a peer service (no actor). */
  async function schoolARow(userId: string): Promise<string> {
    const res = await call(notification('/v1/notifications'), {
      method: 'POST',
      headers: peerService(),
      json: { userId, organizationId: 'school-a', type: 'EXAM_RESULT', title: 'Điểm thi', body: 'Đáp án: 1A 2B' },
    });
    expect(res.status, res.text).to.equal(201);
    return (res.body.data as { id: string }).id;
  }

  it("school B's ADMIN neither reads, lists, marks nor deletes school A's notifications (404, row unchanged)", async () => {
    const id = await schoolARow('student-a1');
    const adminB = as('admin-b', 'ADMIN', 'school-b');
    expect((await call(notification(`/v1/notifications/${id}`), { headers: adminB })).status).to.equal(404);
    for (const action of ['read', 'delete']) {
      const res = await call(notification(`/v1/notifications/${id}/${action}`), { method: 'POST', headers: adminB });
      expect(res.status, action).to.equal(404);
      expect(res.body.error?.code, action).to.equal('NOTIFICATION_NOT_FOUND');
    }
    const listed = await call(notification('/v1/notifications?userId=student-a1'), { headers: adminB });
    expect(listed.status, listed.text).to.equal(200);
    expect((listed.body.data as { items: unknown[] }).items).to.deep.equal([]);
    const everyone = await call(notification('/v1/notifications'), { headers: adminB });
    expect(JSON.stringify(everyone.body)).not.to.include(id);
    const named = await call(notification('/v1/notifications?organizationId=school-a'), { headers: adminB });
    expect(named.status).to.equal(403);
    // An ADMIN naming no organization is nobody's admin: its own rows only.
    const global = await call(notification(`/v1/notifications/${id}`), { headers: as('admin-x', 'ADMIN') });
    expect(global.status).to.equal(404);
    // The row is untouched, and school A's own ADMIN still reaches it.
    const owner = await call(notification(`/v1/notifications/${id}`), { headers: as('student-a1', 'STUDENT') });
    expect(owner.status).to.equal(200);
    expect((owner.body.data as { isRead: boolean }).isRead).to.equal(false);
    const adminA = await call(notification(`/v1/notifications/${id}`), { headers: as('admin-a', 'ADMIN', 'school-a') });
    expect(adminA.status).to.equal(200);
  });

  it("a TEACHER of school B writes into no other school's inboxes (403), nor replaces their rows (404)", async () => {
    const teacherB = as('teacher-b', 'TEACHER', 'school-b');
    const content = { type: 'NOTICE', title: 'Nghỉ học', body: 'x' };
    const direct = await call(notification('/v1/notifications'), {
      method: 'POST',
      headers: teacherB,
      json: { ...content, userId: 'student-a1', organizationId: 'school-a' },
    });
    expect(direct.status, direct.text).to.equal(403);
    const batch = await call(notification('/v1/notifications/batch'), {
      method: 'POST',
      headers: teacherB,
      json: { ...content, recipientIds: ['student-a1'], organizationId: 'school-a' },
    });
    expect(batch.status, batch.text).to.equal(403);
    const noOrganization = await call(notification('/v1/notifications'), {
      method: 'POST',
      headers: as('teacher-b', 'TEACHER'),
      json: { ...content, userId: 'student-a1' },
    });
    expect(noOrganization.status, noOrganization.text).to.equal(403);
    const id = await schoolARow('student-a2');
    const snapshot = await call(notification(`/v1/notifications/${id}/snapshot`), {
      method: 'PUT',
      headers: teacherB,
      json: { ...content, userId: 'student-a2' },
    });
    expect(snapshot.status, snapshot.text).to.equal(404);
    const kept = await call(notification(`/v1/notifications/${id}`), { headers: as('student-a2', 'STUDENT') });
    expect((kept.body.data as { title: string; organizationId: string }).title).to.equal('Điểm thi');
    // Inside its own school it still writes, labelled with that school.
    const own = await call(notification('/v1/notifications'), {
      method: 'POST',
      headers: teacherB,
      json: { ...content, userId: 'student-b1' },
    });
    expect(own.status, own.text).to.equal(201);
    expect((own.body.data as { organizationId: string }).organizationId).to.equal('school-b');
  });

  it("school B's ADMIN neither reads nor rewrites a school A user's profile (404), nor writes snapshots (403)", async () => {
    const snapshot = {
      accountCode: 'AC1000000001',
      email: 'hs.a@school-a.example',
      fullName: 'Học Sinh A',
      role: 'STUDENT',
      status: 'ACTIVE',
      memberships: [{ organizationId: 'school-a', organizationName: 'Trường A', role: 'STUDENT', status: 'ACTIVE' }],
      updatedAt: new Date().toISOString(),
    };
    const seeded = await call(user('/v1/users/student-a1/profile-snapshot'), {
      method: 'PUT',
      headers: as('backfill', 'ADMIN'),
      json: snapshot,
    });
    expect(seeded.status, seeded.text).to.equal(200);
    const adminB = as('admin-b', 'ADMIN', 'school-b');
    const read = await call(user('/v1/users/student-a1/profile'), { headers: adminB });
    expect(read.status, read.text).to.equal(404);
    expect(read.body.error?.code).to.equal('USER_NOT_FOUND');
    expect(read.text).not.to.include('hs.a@school-a.example');
    const patch = await call(user('/v1/users/student-a1/profile'), {
      method: 'PATCH',
      headers: adminB,
      json: { fullName: 'Bị đổi tên', email: 'attacker@school-b.example' },
    });
    expect(patch.status, patch.text).to.equal(404);
    const role = await call(user('/v1/users/student-a1/teacher-profile'), {
      method: 'PATCH',
      headers: adminB,
      json: { schoolName: 'Trường B' },
    });
    expect(role.status, role.text).to.equal(404);
    const rewrite = await call(user('/v1/users/student-a1/profile-snapshot'), {
      method: 'PUT',
      headers: adminB,
      json: { ...snapshot, email: 'attacker@school-b.example', updatedAt: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(rewrite.status, rewrite.text).to.equal(403);
    const adminA = await call(user('/v1/users/student-a1/profile'), { headers: as('admin-a', 'ADMIN', 'school-a') });
    expect(adminA.status, adminA.text).to.equal(200);
    expect(adminA.body.data).to.include({ fullName: 'Học Sinh A', email: 'hs.a@school-a.example' });
    // A school's ADMIN acting through its own organization writes no snapshot either.
    const adminASnapshot = await call(user('/v1/users/student-a1/profile-snapshot'), {
      method: 'PUT',
      headers: as('admin-a', 'ADMIN', 'school-a'),
      json: snapshot,
    });
    expect(adminASnapshot.status).to.equal(403);
  });
});
