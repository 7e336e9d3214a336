import { expect } from 'chai';
import request from 'supertest';
import { register } from '../src/domain/register.js';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('register atomicity (real MongoDB)', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  it('leaves no user, membership or token behind when a later write of the registration fails', async () => {
    // The membership id collides with an existing row, so the second write fails after the first.
    await t.deps.models.Membership.create({
      _id: 'taken-id',
      userId: 'someone',
      organizationId: 'o',
      organizationName: 'O',
      role: 'STUDENT',
      status: 'ACTIVE',
    });
    const ids = ['new-user-id', 'taken-id'];
    const deps = { ...t.deps, newId: () => ids.shift() ?? 'spare-id' };
    const body = newUser() as { email: string; password: string; fullName: string };
    const err = await register(deps, { ...body, role: 'STUDENT' }, '192.0.2.1').catch((e: unknown) => e);
    expect((err as { code?: number }).code).to.equal(11000);
    expect(await t.deps.models.User.countDocuments()).to.equal(0);
    expect(await t.deps.models.Membership.countDocuments()).to.equal(1);
    expect(await t.deps.models.TokenFamily.countDocuments()).to.equal(0);
    expect(await t.deps.models.RefreshToken.countDocuments()).to.equal(0);
  });

  it('lets exactly one of 10 concurrent registrations of one email succeed; the rest get 409 EMAIL_TAKEN', async () => {
    const body = newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => request(t.app).post('/v1/auth/register').send(body)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'EMAIL_TAKEN')).to.equal(true);
    expect(await t.deps.models.User.countDocuments()).to.equal(1);
    expect(await t.deps.models.Membership.countDocuments()).to.equal(1);
    expect(await t.deps.models.RefreshToken.countDocuments()).to.equal(1);
  });
});
