import { expect } from 'chai';
import request from 'supertest';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('auth service HTTP surface', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  it('GET /healthz, /readyz (MongoDB named), /v1 and /v1/openapi.json answer', async () => {
    expect((await request(t.app).get('/healthz').expect(200)).body.data).to.deep.equal({ status: 'alive' });
    expect((await request(t.app).get('/readyz').expect(200)).body.data.checks).to.deep.equal({ mongodb: 'ok' });
    expect((await request(t.app).get('/v1').expect(200)).body.data).to.deep.equal({
      service: 'auth',
      version: '0.1.0',
    });
    const doc = (await request(t.app).get('/v1/openapi.json').expect(200)).body;
    expect(doc.openapi).to.match(/^3\.1/);
    expect(Object.keys(doc.paths)).to.include.members([
      '/v1/auth/register',
      '/v1/auth/login',
      '/v1/auth/refresh',
      '/v1/auth/logout',
      '/v1/auth/me',
      '/v1/auth/revocations',
      '/v1/auth/organizations/{organizationId}/members/{userId}',
      '/v1/auth/users/{userId}/status',
    ]);
  });

  it('GET /metrics reports request durations by route template, not by raw URL', async () => {
    await request(t.app).post('/v1/auth/login').send({ email: 'x@y.vn', password: 'nope' });
    const text = (await request(t.app).get('/metrics').expect(200)).text;
    expect(text).to.match(
      /http_request_duration_seconds_count\{method="POST",route="\/v1\/auth\/login",status="401"\} 1/,
    );
  });

  it('GET /metrics counts login outcomes and refresh-token reuse for operators to alert on', async () => {
    const metric = async (series: string) => {
      const text = (await request(t.app).get('/metrics').expect(200)).text;
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const before = {
      success: await metric('auth_login_attempts_total{outcome="success"}'),
      invalid: await metric('auth_login_attempts_total{outcome="invalid_credentials"}'),
      reuse: await metric('auth_refresh_token_reuse_total'),
    };
    const body = newUser() as { email: string; password: string };
    await request(t.app).post('/v1/auth/register').send(body).expect(201);
    const s = (
      await request(t.app).post('/v1/auth/login').send({ email: body.email, password: body.password }).expect(200)
    ).body.data;
    await request(t.app).post('/v1/auth/login').send({ email: body.email, password: 'wrong-password' }).expect(401);
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: s.refreshToken }).expect(200);
    // Within the grace period a second presentation is a race, not a replay, and is not counted.
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: s.refreshToken }).expect(401);
    expect(await metric('auth_refresh_token_reuse_total')).to.equal(before.reuse);
    const clock = t.deps.clock;
    const graceOver = new Date(Date.now() + (t.deps.settings.refreshReuseGraceSeconds + 1) * 1000);
    t.deps.clock = () => graceOver;
    try {
      await request(t.app).post('/v1/auth/refresh').send({ refreshToken: s.refreshToken }).expect(401);
    } finally {
      t.deps.clock = clock;
    }
    expect(await metric('auth_login_attempts_total{outcome="success"}')).to.equal(before.success + 1);
    expect(await metric('auth_login_attempts_total{outcome="invalid_credentials"}')).to.equal(before.invalid + 1);
    expect(await metric('auth_refresh_token_reuse_total')).to.equal(before.reuse + 1);
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await request(t.app)
      .post('/v1/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.vn", ');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      success: false,
      message: 'Malformed JSON body',
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE and writes nothing', async () => {
    const res = await request(t.app)
      .post('/v1/auth/register')
      .send(newUser({ fullName: 'x'.repeat(40_000) }));
    expect(res.status).to.equal(413);
    expect(res.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
    expect(await t.deps.models.User.countDocuments()).to.equal(0);
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await request(t.app)
      .post('/v1/auth/login')
      .set('Content-Type', 'text/plain')
      .send('email=a&password=b');
    expect(res.status).to.equal(415);
    expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers wrong types and a JSON array body with 400 and per-field details', async () => {
    const res = await request(t.app)
      .post('/v1/auth/register')
      .send({ email: 42, password: true, fullName: ['a'] });
    expect(res.status).to.equal(400);
    expect(res.body.error.details).to.deep.equal([
      { path: 'email', message: 'email must be a string' },
      { path: 'password', message: 'password must be a string' },
      { path: 'fullName', message: 'fullName must be a string' },
    ]);
    const arr = await request(t.app).post('/v1/auth/login').send([1, 2]);
    expect(arr.status).to.equal(400);
  });

  it('ignores a __proto__ key: no prototype pollution, no role escalation', async () => {
    const raw = JSON.stringify(newUser()).replace('{', '{"__proto__":{"role":"ADMIN","polluted":true},');
    const res = await request(t.app).post('/v1/auth/register').set('Content-Type', 'application/json').send(raw);
    expect(res.status).to.equal(201);
    expect(res.body.data.user.role).to.equal('STUDENT');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(await t.deps.models.User.countDocuments({ role: 'ADMIN' })).to.equal(0);
  });

  it('answers an unknown route with 404 in the error model and echoes X-Request-Id', async () => {
    const res = await request(t.app).get('/v1/auth/nope').set('X-Request-Id', 'req-123');
    expect(res.status).to.equal(404);
    expect(res.headers['x-request-id']).to.equal('req-123');
    expect(res.body).to.deep.equal({
      success: false,
      message: 'No route for GET /v1/auth/nope',
      error: { code: 'ROUTE_NOT_FOUND' },
    });
  });

  it('never logs passwords, tokens or token hashes, on success or failure paths', async () => {
    const body = newUser();
    const s = (await request(t.app).post('/v1/auth/register').send(body).expect(201)).body.data;
    await request(t.app).post('/v1/auth/login').send({ email: body.email, password: 'wrong-password-123' }).expect(401);
    const next = (
      await request(t.app).post('/v1/auth/refresh').set('Authorization', `Bearer ${s.refreshToken}`).expect(200)
    ).body.data;
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: s.refreshToken }).expect(401);
    await request(t.app).get('/v1/auth/me').set('Cookie', `platform.accessToken=${next.accessToken}`).expect(200);
    await request(t.app).post('/v1/auth/logout').send({ refreshToken: next.refreshToken }).expect(200);
    const hashes = (await t.deps.models.RefreshToken.find().lean()).map((r) => r.tokenHash);
    const user = await t.deps.models.User.findOne().lean();
    expect(t.logs.lines.length).to.be.greaterThan(5);
    for (const secret of [
      body.password,
      'wrong-password-123',
      s.accessToken,
      s.refreshToken,
      next.refreshToken,
      next.accessToken,
      user!.passwordHash,
      ...hashes,
    ]) {
      expect(t.logs.text).to.not.include(String(secret));
    }
  });
});

describe('auth service with INTERNAL_API_TOKEN', () => {
  let t: TestAuth;
  before(
    async () =>
      (t = await startAuth(`${import.meta.url}-internal`, { INTERNAL_API_TOKEN: 'internal-token-0123456789' })),
  );
  after(() => t.close());

  it('requires X-Internal-Token on /v1 routes but not on health, metrics or /v1 itself', async () => {
    const res = await request(t.app).post('/v1/auth/login').send({ email: 'a@b.vn', password: 'x' });
    expect(res.status).to.equal(401);
    expect(res.body.message).to.equal('Missing or invalid internal token');
    await request(t.app)
      .post('/v1/auth/login')
      .set('X-Internal-Token', 'wrong-token-0123456789')
      .send({ email: 'a@b.vn', password: 'x' })
      .expect(401);
    const ok = await request(t.app)
      .post('/v1/auth/login')
      .set('X-Internal-Token', 'internal-token-0123456789')
      .send({ email: 'a@b.vn', password: 'x' });
    expect(ok.body.message).to.equal('Invalid email or password');
    await request(t.app).get('/healthz').expect(200);
    await request(t.app).get('/v1').expect(200);
  });

  it('keeps the revocation feed and the admin routes behind the internal token', async () => {
    const since = new Date().toISOString();
    await request(t.app).get('/v1/auth/revocations').query({ since }).expect(401);
    await request(t.app)
      .get('/v1/auth/revocations')
      .query({ since })
      .set('X-Internal-Token', 'internal-token-0123456789')
      .expect(200);
    await request(t.app).patch('/v1/auth/users/u1/status').send({ status: 'DISABLED' }).expect(401);
  });
});

describe('auth service when MongoDB goes away', () => {
  let t: TestAuth;
  before(async () => {
    t = await startAuth(`${import.meta.url}-outage`);
    await t.db.conn.close();
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE at once, and /readyz names mongodb', async () => {
    const res = await request(t.app).post('/v1/auth/login').send({ email: 'a@b.vn', password: 'whatever-123' });
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({
      success: false,
      message: 'A dependency is unavailable',
      error: { code: 'DEPENDENCY_UNAVAILABLE' },
    });
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body.message).to.equal('Not ready: mongodb');
  });
});
