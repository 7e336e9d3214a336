// Tenancy as an attacker meets it: a self-registration is alone in an organization of its own, and
// joining a school or holding TEACHER/ADMIN there takes that organization's (or the platform's) admin.
import { expect } from 'chai';
import request from 'supertest';
import { TOPICS } from '../../../kafka/topics.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { newUser, startAuth, type TestAuth } from './support.js';
import { actor, claimsOf, registerUser, seedMembership, type Registered } from './tenancy-support.js';

describe('auth tenancy: self-registration, grants and their refusals', () => {
  let t: TestAuth;
  let schoolAdmin: Registered;
  let teacher: Registered;
  // The variable that used to put every registration into one shared organization: ignored now.
  before(async () => (t = await startAuth(import.meta.url, { AUTH_DEFAULT_ORGANIZATION_ID: 'school-a' })));
  after(() => t.close());
  beforeEach(async () => {
    await t.clear();
    schoolAdmin = await registerUser(t);
    await seedMembership(t, schoolAdmin.id, 'school-a', 'ADMIN');
    teacher = await registerUser(t, { role: 'TEACHER' });
  });

  const put = (org: string, userId: string, headers: Record<string, string>, body: object) =>
    request(t.app).put(`/v1/auth/organizations/${org}/members/${userId}`).set(headers).send(body);
  const del = (org: string, userId: string, headers: Record<string, string>) =>
    request(t.app).delete(`/v1/auth/organizations/${org}/members/${userId}`).set(headers);
  const memberships = async (userId: string) =>
    (await t.deps.models.Membership.find({ userId }).lean()).map((m) => `${m.organizationId}:${m.role}`).sort();

  it('gives a self-registered TEACHER an organization of its own, and no membership of any school', async () => {
    const claims = claimsOf(teacher.accessToken);
    expect(claims.memberships).to.deep.equal([{ organizationId: teacher.defaultOrganizationId, role: 'TEACHER' }]);
    expect(teacher.defaultOrganizationId).to.match(/^org_[0-9a-f]{32}$/);
    expect(teacher.defaultOrganizationId).to.not.equal('school-a');
    const second = await registerUser(t, { role: 'TEACHER' });
    expect(second.defaultOrganizationId).to.not.equal(teacher.defaultOrganizationId);
    expect(await memberships(teacher.id)).to.deep.equal([`${teacher.defaultOrganizationId}:TEACHER`]);
  });

  it('refuses ADMIN as a self-chosen role, in any spelling, and writes nothing', async () => {
    for (const role of ['ADMIN', 'admin', ' Admin ']) {
      const res = await request(t.app)
        .post('/v1/auth/register')
        .send(newUser({ email: 'x@y.vn', role }));
      expect(res.status, role).to.equal(400);
      expect(res.body.error.details, role).to.deep.equal([
        { path: 'role', message: 'role must be one of [STUDENT, TEACHER, PARENT]' },
      ]);
    }
    expect(await t.deps.models.User.countDocuments({ email: 'x@y.vn' })).to.equal(0);
  });

  it("lets the school's ADMIN grant TEACHER: the membership, a user-changed event, and the next token carry it", async () => {
    const res = await put('school-a', teacher.id, actor(schoolAdmin.id, 'school-a', 'ADMIN'), { role: 'TEACHER' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.memberships).to.deep.include({
      organizationId: 'school-a',
      organizationName: 'Org school-a',
      role: 'TEACHER',
      status: 'ACTIVE',
    });
    const entries = await t.deps.outbox.models.Entry.find({ key: teacher.id }).lean<Array<{ envelope: string }>>();
    const last = JSON.parse(entries[entries.length - 1]!.envelope);
    expectValidEvent(last, TOPICS.identityUserChanged);
    expect(last.data).to.deep.include({ change: 'UPDATED', user: { ...res.body.data, phone: null } });
    const next = await request(t.app).post('/v1/auth/refresh').send({ refreshToken: teacher.refreshToken }).expect(200);
    expect(claimsOf(next.body.data.accessToken).memberships).to.deep.include({
      organizationId: 'school-a',
      role: 'TEACHER',
    });
  });

  it('refuses a grant (403, nothing written) to every caller that is not an ADMIN of that organization', async () => {
    const attempts: Array<[string, Record<string, string>]> = [
      ['a TEACHER role', actor(schoolAdmin.id, 'school-a', 'TEACHER')],
      ['ADMIN of another organization', actor(schoolAdmin.id, 'school-b', 'ADMIN')],
      ['forged ADMIN headers of a non-admin', actor(teacher.id, 'school-a', 'ADMIN')],
      ['ADMIN headers for its own personal organization', actor(teacher.id, teacher.defaultOrganizationId, 'ADMIN')],
    ];
    for (const [what, headers] of attempts) {
      const res = await put('school-a', teacher.id, headers, { role: 'ADMIN' });
      expect(res.status, what).to.equal(403);
      expect(res.body.error.code, what).to.equal('FORBIDDEN');
    }
    const own = await put(
      teacher.defaultOrganizationId,
      teacher.id,
      actor(teacher.id, teacher.defaultOrganizationId, 'ADMIN'),
      { role: 'ADMIN' },
    );
    expect(own.status).to.equal(403);
    expect((await put('school-a', teacher.id, {}, { role: 'TEACHER' })).status).to.equal(401);
    expect(await memberships(teacher.id)).to.deep.equal([`${teacher.defaultOrganizationId}:TEACHER`]);
  });

  it('refuses a disabled admin, and an admin of school A granting in school B', async () => {
    const res = await put('school-b', teacher.id, actor(schoolAdmin.id, 'school-a', 'ADMIN'), { role: 'TEACHER' });
    expect(res.status).to.equal(403);
    await t.deps.models.User.updateOne({ _id: schoolAdmin.id }, { $set: { status: 'DISABLED' } });
    expect(
      (await put('school-a', teacher.id, actor(schoolAdmin.id, 'school-a', 'ADMIN'), { role: 'TEACHER' })).status,
    ).to.equal(403);
  });

  it('lets a platform ADMIN grant ADMIN of a new school, named in the body', async () => {
    const platform = await registerUser(t);
    await seedMembership(t, platform.id, 'platform', 'ADMIN');
    const res = await put('school-b', teacher.id, actor(platform.id, 'platform', 'ADMIN'), {
      role: 'ADMIN',
      organizationName: 'THPT B',
    });
    expect(res.status).to.equal(200);
    expect(res.body.data.memberships).to.deep.include({
      organizationId: 'school-b',
      organizationName: 'THPT B',
      role: 'ADMIN',
      status: 'ACTIVE',
    });
  });

  it("removes a membership and ends the user's sessions; the default organization and unknown ones are refused", async () => {
    const admin = actor(schoolAdmin.id, 'school-a', 'ADMIN');
    await put('school-a', teacher.id, admin, { role: 'TEACHER' }).expect(200);
    const res = await del('school-a', teacher.id, admin);
    expect(res.status).to.equal(200);
    expect(res.body.data.memberships.map((m: { organizationId: string }) => m.organizationId)).to.deep.equal([
      teacher.defaultOrganizationId,
    ]);
    await request(t.app).get('/v1/auth/me').set('Authorization', `Bearer ${teacher.accessToken}`).expect(401);
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: teacher.refreshToken }).expect(401);
    expect((await del('school-a', teacher.id, admin)).status).to.equal(404);
    expect((await del('school-a', 'no-such-user', admin)).body.error.code).to.equal('USER_NOT_FOUND');
  });

  it("refuses removing the membership of the user's default organization with 409", async () => {
    const platform = await registerUser(t);
    await seedMembership(t, platform.id, 'platform', 'ADMIN');
    const res = await del(teacher.defaultOrganizationId, teacher.id, actor(platform.id, 'platform', 'ADMIN'));
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('MEMBERSHIP_CONFLICT');
  });

  it('ends the sessions of a user whose role changes (the old role is in their tokens), not for the same grant again', async () => {
    const admin = actor(schoolAdmin.id, 'school-a', 'ADMIN');
    await put('school-a', teacher.id, admin, { role: 'TEACHER' }).expect(200);
    await put('school-a', teacher.id, admin, { role: 'TEACHER' }).expect(200);
    await request(t.app).get('/v1/auth/me').set('Authorization', `Bearer ${teacher.accessToken}`).expect(200);
    await put('school-a', teacher.id, admin, { role: 'STUDENT' }).expect(200);
    await request(t.app).get('/v1/auth/me').set('Authorization', `Bearer ${teacher.accessToken}`).expect(401);
  });

  it('answers malformed ids and bodies with 400', async () => {
    const admin = actor(schoolAdmin.id, 'school-a', 'ADMIN');
    expect((await put('school-a', teacher.id, admin, { role: 'OWNER' })).status).to.equal(400);
    expect((await put('school-a', teacher.id, admin, { role: 'TEACHER', extra: 1 })).status).to.equal(400);
    expect((await put('school%20a', teacher.id, admin, { role: 'TEACHER' })).status).to.equal(400);
  });
});
