import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { accessToken, call, until } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

// The attacker holds one free account (or none) and talks to the public gateway only, the way a
// browser, a script or a proxy in front would.
describe('security: tenants, roles and the edge (through the gateway)', function () {
  this.timeout(180000);
  let stack: Stack;
  const SCHOOL = 'school-1';
  before(async () => {
    stack = await startStack(import.meta.url);
    // A school's real data, written by the platform (internal token, no user).
    const analytics = stack.services.analytics;
    const body = {
      student: { id: 'stu-school-1' },
      exam: { id: 'exam-1', title: 'Toán' },
      score: 9,
      correctCount: 9,
      wrongCount: 1,
      durationSeconds: 600,
      status: 'GRADED',
      submittedAt: '2026-01-10T08:10:00.000Z',
      weakTopics: [{ topic: 'Hàm số' }],
    };
    const put = await call(`${analytics}/v1/analytics/results/att-school-1/snapshot`, {
      method: 'PUT',
      headers: { 'X-Internal-Token': stack.secrets.internal, 'X-Organization-Id': SCHOOL },
      json: body,
    });
    expect(put.status).to.equal(200);
  });
  after(() => stack?.close());

  const api = (path: string) => `${stack.gateway}${path}`;
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  /** A token as auth issues it to a member of the school with `role` there. */
  const member = (sub: string, role: string, globalRole = role) =>
    accessToken(stack.secrets.jwt, {
      sub,
      role: globalRole,
      sid: randomUUID(),
      defaultOrganizationId: SCHOOL,
      memberships: [{ organizationId: SCHOOL, role }],
    });

  async function register(role: string, address = '192.0.2.10') {
    const email = `u-${randomUUID()}@example.com`;
    const res = await call(api('/api/auth/register'), {
      method: 'POST',
      headers: from(address),
      json: { email, password: 'Correct-Horse-9', fullName: 'Nguyễn Văn Tấn Công', role },
    });
    return { res, email, data: res.body.data as { accessToken: string; refreshToken: string } };
  }

  it('a self-registered "teacher" reads no school\'s results and cannot name a school', async () => {
    const { res, data } = await register('TEACHER');
    expect(res.status).to.be.oneOf([200, 201]);
    const own = await call(api('/api/analytics/results'), { headers: bearer(data.accessToken) });
    expect(own.status).to.equal(200);
    expect(JSON.stringify(own.body.data)).to.not.include('stu-school-1');
    const school = await call(api('/api/analytics/weak-topics'), {
      headers: { ...bearer(data.accessToken), 'X-Organization-Id': SCHOOL },
    });
    expect(school.status).to.equal(403);
    const admin = await call(api('/api/auth/register'), {
      method: 'POST',
      headers: from('192.0.2.11'),
      json: {
        email: `a-${randomUUID()}@example.com`,
        password: 'Correct-Horse-9',
        fullName: 'Quản Trị',
        role: 'ADMIN',
      },
    });
    expect(admin.status).to.equal(400);
  });

  it('an ADMIN token on the public inbox gets its own notifications only', async () => {
    const notification = stack.services.notification;
    const internal = { 'X-Internal-Token': stack.secrets.internal };
    for (const userId of ['victim-1', 'admin-1']) {
      const made = await call(`${notification}/v1/notifications`, {
        method: 'POST',
        headers: { ...internal, 'X-Organization-Id': SCHOOL },
        json: { userId, type: 'SYSTEM', title: `for ${userId}` },
      });
      expect(made.status, JSON.stringify(made.body)).to.be.oneOf([200, 201]);
    }
    const token = member('admin-1', 'ADMIN');
    const res = await call(api('/api/notifications?userId=victim-1'), { headers: bearer(token) });
    expect(res.status).to.equal(200);
    expect(res.text).to.include('for admin-1').and.not.include('for victim-1');
  });

  it('a STUDENT, PARENT or role-less member cannot create import jobs', async () => {
    for (const role of ['STUDENT', 'PARENT']) {
      // A global TEACHER (self-registered) who is only a STUDENT or PARENT in the school.
      const token = member(`m-${role}`, role, 'TEACHER');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array([80, 75, 3, 4])]), 'de-thi.docx');
      const res = await call(api('/api/exam-import/teacher-library'), {
        method: 'POST',
        headers: bearer(token),
        body: form,
      });
      expect(res.status, role).to.equal(403);
    }
  });

  it('trusted headers in any spelling never reach a service or the legacy system', async () => {
    const token = accessToken(stack.secrets.jwt, { sub: 'stu-9', role: 'STUDENT', sid: randomUUID() });
    const spoofed = {
      X_User_Id: 'root',
      'X-USER-ROLE': 'ADMIN',
      'x-user_role': 'ADMIN',
      'X-Actor-Role': 'ADMIN',
      X_Internal_Token: stack.secrets.internal,
      'X-Organization_Id': SCHOOL,
      'X-Real-IP': '10.0.0.1',
      Forwarded: 'for=10.0.0.1',
      'X-Forwarded-For': '203.0.113.5, 10.0.0.1',
    };
    stack.legacy.length = 0;
    const res = await call(api('/api/legacy/anything'), { headers: { ...spoofed, ...bearer(token) } });
    expect(res.status).to.equal(200);
    const seen = stack.legacy[0]?.headers ?? {};
    const folded = Object.keys(seen).map((n) => n.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
    for (const name of [
      'x-user-id',
      'x-user-role',
      'x-actor-role',
      'x-internal-token',
      'x-organization-id',
      'x-real-ip',
    ]) {
      expect(folded, name).to.not.include(name);
    }
    expect(seen.forwarded).to.equal(undefined);
    expect(seen['x-forwarded-for']).to.equal('10.0.0.1');
  });

  it('an access token without exp is refused, and a logged-out session stops within seconds', async () => {
    const forever = accessToken(
      stack.secrets.jwt,
      { sub: 'stu-1', role: 'STUDENT', sid: randomUUID() },
      { noExp: true },
    );
    expect((await call(api('/api/notifications'), { headers: bearer(forever) })).status).to.equal(401);
    const { data } = await register('STUDENT', '192.0.2.20');
    expect((await call(api('/api/notifications'), { headers: bearer(data.accessToken) })).status).to.equal(200);
    const out = await call(api('/api/auth/logout'), { method: 'POST', json: { refreshToken: data.refreshToken } });
    expect(out.status).to.equal(200);
    await until('the logged-out access token is refused at the gateway', async () => {
      const res = await call(api('/api/notifications'), { headers: bearer(data.accessToken) });
      return res.status === 401;
    });
  });

  it("a cross-site form cannot delete a user's notifications with their cookie", async () => {
    const { data } = await register('STUDENT', '192.0.2.21');
    const cookie = { Cookie: `platform.accessToken=${data.accessToken}` };
    const evil = await call(api('/api/notifications/delete-all'), {
      method: 'POST',
      headers: { ...cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(evil.status).to.equal(403);
    const noOrigin = await call(api('/api/notifications/delete-all'), { method: 'POST', headers: cookie });
    expect(noOrigin.status).to.equal(403);
    const own = await call(api('/api/notifications/delete-all'), {
      method: 'POST',
      headers: { ...cookie, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(own.status).to.equal(200);
  });

  it('one client holding many event streams does not starve the others', async () => {
    const hog = member('hog', 'TEACHER');
    const other = member('other-teacher', 'TEACHER');
    const aborts: AbortController[] = [];
    const open = async (token: string) => {
      const ctl = new AbortController();
      aborts.push(ctl);
      const res = await fetch(api('/api/exam-import/algorithm-jobs/events'), {
        headers: bearer(token),
        signal: ctl.signal,
      });
      return res.status;
    };
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) statuses.push(await open(hog));
      expect(statuses.filter((s) => s === 200).length).to.be.at.most(4);
      expect(statuses).to.include(429);
      expect(await open(other)).to.equal(200);
      const list = await call(api('/api/exam-import/teacher-library'), { headers: bearer(other) });
      expect(list.status).to.equal(200);
    } finally {
      for (const ctl of aborts) ctl.abort();
    }
  });

  it('bad passwords from one address neither lock the owner out nor block other users', async () => {
    const victim = await register('STUDENT', '192.0.2.30');
    for (let i = 0; i < 60; i += 1) {
      const res = await call(api('/api/auth/login'), {
        method: 'POST',
        headers: from('203.0.113.66'),
        json: { email: victim.email, password: `wrong-${i}` },
      });
      expect(res.status).to.be.oneOf([401, 429]);
    }
    const owner = await call(api('/api/auth/login'), {
      method: 'POST',
      headers: from('198.51.100.9'),
      json: { email: victim.email, password: 'Correct-Horse-9' },
    });
    expect(owner.status).to.equal(200);
  });

  it('registration is throttled per client before any hashing, and others still register', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await register('STUDENT', '203.0.113.77')).res.status);
    expect(statuses).to.include(429);
    const other = await register('STUDENT', '198.51.100.77');
    expect(other.res.status).to.be.oneOf([200, 201]);
  });
});
