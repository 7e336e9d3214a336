// Registration costs two bcrypt hashes; one client must not spend the hashing everyone shares.
import { expect } from 'chai';
import request from 'supertest';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('POST /v1/auth/register throttled per client address, before any hashing', () => {
  let t: TestAuth;
  let hashes = 0;
  before(async () => {
    t = await startAuth(import.meta.url, {
      AUTH_REGISTER_MAX_PER_ADDRESS: '3',
      AUTH_REGISTER_WINDOW_SECONDS: '600',
      TRUST_PROXY: '1',
    });
    // Every bcrypt hash or compare goes through the limiter: count what reaches it.
    const limiter = t.deps.limiter;
    const run = limiter.run.bind(limiter);
    limiter.run = (fn) => {
      hashes += 1;
      return run(fn);
    };
  });
  after(() => t.close());
  beforeEach(async () => {
    await t.clear();
    hashes = 0;
    const windowMs = 600_000;
    const pinned = new Date(Math.floor(Date.now() / windowMs) * windowMs + windowMs / 2);
    t.deps.clock = () => pinned;
  });

  const register = (from: string, body: object = newUser()) =>
    request(t.app).post('/v1/auth/register').set('X-Forwarded-For', from).send(body);

  it('answers the 4th registration from one address with 429 and Retry-After, having hashed nothing for it', async () => {
    for (let i = 0; i < 3; i += 1) await register('192.0.2.10').expect(201);
    expect(hashes).to.equal(6);
    const res = await register('192.0.2.10');
    expect(res.status).to.equal(429);
    expect(res.body).to.deep.include({
      success: false,
      message: 'Too many registrations from this address; try again later',
    });
    expect(res.body.error.code).to.equal('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).to.be.within(1, 300);
    expect(res.body.error.details).to.deep.equal({ retryAfterSeconds: Number(res.headers['retry-after']) });
    expect(hashes).to.equal(6);
    expect(await t.deps.models.User.countDocuments()).to.equal(3);
  });

  it('lets another address register while one is throttled', async () => {
    for (let i = 0; i < 4; i += 1) await register('192.0.2.20');
    await register('192.0.2.21').expect(201);
  });

  it('of 20 parallel registrations from one address, exactly 3 are hashed and created', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => register('192.0.2.30')));
    expect(results.filter((r) => r.status === 201)).to.have.length(3);
    expect(results.filter((r) => r.status === 429)).to.have.length(17);
    expect(hashes).to.equal(6);
  });

  it('counts refused attempts (e-mail taken) too: they cost hashing as well', async () => {
    const body = newUser();
    await register('192.0.2.40', body).expect(201);
    await register('192.0.2.40', body).expect(409);
    await register('192.0.2.40', body).expect(409);
    await register('192.0.2.40', newUser()).expect(429);
  });

  it('opens again in the next window', async () => {
    for (let i = 0; i < 4; i += 1) await register('192.0.2.50');
    const next = new Date(t.deps.clock().getTime() + 600_000);
    t.deps.clock = () => next;
    await register('192.0.2.50').expect(201);
  });
});
