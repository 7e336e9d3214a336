// Registration announces identity.user-changed.v1 through the outbox: the event is stored with the
// user (one write), carries the public snapshot only, and nothing is announced for a refused one.
import { expect } from 'chai';
import request from 'supertest';
import { TOPICS } from '../../../kafka/topics.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { register } from '../src/domain/register.js';
import { newUser, startAuth, type TestAuth } from './support.js';

interface Stored {
  _id: string;
  topic: string;
  key: string;
  envelope: string;
}

interface Envelope {
  id: string;
  subject: string;
  data: { user: { email: string; phone: string | null } };
}

describe('auth: identity.user-changed.v1 on registration', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const entries = async () =>
    (await t.deps.outbox.models.Entry.find({}).lean<Stored[]>().exec()).map((e) => ({
      ...e,
      event: JSON.parse(e.envelope) as Envelope,
    }));

  it('stores one CREATED event, keyed by the user id, equal to the user the session returns', async () => {
    const res = await request(t.app)
      .post('/v1/auth/register')
      .send(newUser({ phone: ' 0912 345 678 ', role: 'TEACHER' }))
      .expect(201);
    const user = res.body.data.user;
    const [entry, ...more] = await entries();
    expect(more).to.have.length(0);
    expect(entry).to.include({ topic: TOPICS.identityUserChanged, key: user.id });
    expectValidEvent(entry!.event, TOPICS.identityUserChanged);
    expect(entry!.event.subject).to.equal(user.id);
    expect(entry!.event.data).to.deep.equal({
      userId: user.id,
      change: 'CREATED',
      user: { ...user, phone: '0912 345 678' },
    });
    expect(entry!.envelope).not.to.match(/passwordHash|\$2[aby]\$|refreshToken|tokenHash/);
    // The stamp left the user document once moved; the user row's timestamps are the event's.
    const row = await t.deps.models.User.findById(user.id).select('+_outbox').lean<Record<string, unknown>>();
    expect(row?._outbox ?? []).to.deep.equal([]);
    expect((row?.updatedAt as Date).toISOString()).to.equal(user.updatedAt);
  });

  it('states phone null when none was given', async () => {
    await request(t.app).post('/v1/auth/register').send(newUser()).expect(201);
    const [entry] = await entries();
    expect(entry!.event.data.user.phone).to.equal(null);
  });

  it('stores no event for a refused registration (email taken) or one whose later write failed', async () => {
    const body = newUser();
    await request(t.app).post('/v1/auth/register').send(body).expect(201);
    await request(t.app).post('/v1/auth/register').send(body).expect(409);
    await t.deps.models.Membership.create({
      _id: 'taken-id',
      userId: 'someone',
      organizationId: 'o',
      organizationName: 'O',
      role: 'STUDENT',
      status: 'ACTIVE',
    });
    const ids = ['half-user-id', 'taken-id'];
    const deps = { ...t.deps, newId: () => ids.shift() ?? 'spare-id' };
    const other = newUser() as { email: string; password: string; fullName: string };
    await register(deps, { ...other, role: 'STUDENT' }, '192.0.2.1').catch(() => undefined);
    const all = await entries();
    expect(all).to.have.length(1);
    expect(all[0]!.event.data.user.email).to.equal(body.email);
  });
});
