import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { refresh as refreshUseCase } from '../src/domain/refresh.js';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('POST /v1/auth/refresh', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const session = async () => (await request(t.app).post('/v1/auth/register').send(newUser()).expect(201)).body.data;
  const refresh = (token: string) => request(t.app).post('/v1/auth/refresh').send({ refreshToken: token });
  const jtiOf = (token: string) => (jwt.decode(token) as { jti: string }).jti;

  it('exchanges a body token for a new session with a rotated refresh token', async () => {
    const s = await session();
    const res = await refresh(s.refreshToken);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, message: 'OK' });
    expect(res.body.data.refreshToken).to.not.equal(s.refreshToken);
    expect(res.body.data.user.id).to.equal(s.user.id);
    const old = await t.deps.models.RefreshToken.findOne({ jti: jtiOf(s.refreshToken) }).lean();
    expect(old).to.include({ revokedReason: 'rotated', replacedBy: jtiOf(res.body.data.refreshToken) });
    expect(old?.revokedAt).to.be.instanceOf(Date);
  });

  it('accepts the token from an Authorization: Bearer header', async () => {
    const s = await session();
    const res = await request(t.app).post('/v1/auth/refresh').set('Authorization', `Bearer ${s.refreshToken}`);
    expect(res.status).to.equal(200);
  });

  it('rejects the same token after the grace period, and revokes the session it was rotated into', async () => {
    const s = await session();
    const next = (await refresh(s.refreshToken).expect(200)).body.data;
    const graceOver = new Date(Date.now() + (t.deps.settings.refreshReuseGraceSeconds + 1) * 1000);
    const clock = t.deps.clock;
    t.deps.clock = () => graceOver;
    try {
      const replay = await refresh(s.refreshToken);
      expect(replay.status).to.equal(401);
      expect(replay.body).to.deep.equal({
        success: false,
        message: 'Refresh token was already used; the session has been revoked',
        error: { code: 'UNAUTHENTICATED' },
      });
      await refresh(next.refreshToken).expect(401);
    } finally {
      t.deps.clock = clock;
    }
    const family = await t.deps.models.TokenFamily.findOne({ userId: s.user.id }).lean();
    expect(family?.revokedReason).to.equal('reuse_detected');
  });

  it('keeps the presented token usable when storing its successor fails (no lost session)', async () => {
    const s = await session();
    const taken = (await t.deps.models.RefreshToken.findOne({ jti: jtiOf(s.refreshToken) }).lean())!._id;
    // The successor's row id collides with an existing row, so its insert fails.
    const failing = await refreshUseCase({ ...t.deps, newId: () => taken }, s.refreshToken).catch((e: unknown) => e);
    expect((failing as { code?: number }).code).to.equal(11000);
    const res = await refresh(s.refreshToken);
    expect(res.status).to.equal(200);
  });

  it('rejects a token signed with another secret', async () => {
    const s = await session();
    const forged = jwt.sign(jwt.decode(s.refreshToken) as object, 'attacker-secret-of-some-length');
    await refresh(forged).expect(401);
  });

  it('rejects an expired token', async () => {
    const s = await session();
    const { sub, jti } = jwt.decode(s.refreshToken) as { sub: string; jti: string };
    const expired = jwt.sign({ sub, type: 'refresh', jti, iat: 1_000_000 }, t.config.AUTH_JWT_SECRET, {
      expiresIn: 60,
    });
    await refresh(expired).expect(401);
  });

  it('rejects an access token presented as a refresh token', async () => {
    const s = await session();
    await refresh(s.accessToken).expect(401);
  });

  it('rejects a well-signed token whose jti was never issued', async () => {
    const s = await session();
    const jti = randomBytes(18).toString('base64url');
    const unknown = jwt.sign({ sub: s.user.id, type: 'refresh', jti }, t.config.AUTH_JWT_SECRET, { expiresIn: 60 });
    await refresh(unknown).expect(401);
  });

  it('rejects a token whose stored hash does not match', async () => {
    const s = await session();
    await t.deps.models.RefreshToken.updateOne(
      { jti: jtiOf(s.refreshToken) },
      { $set: { tokenHash: await bcrypt.hash('other', 4) } },
    );
    await refresh(s.refreshToken).expect(401);
  });

  it('rejects a missing, empty, overlong or garbage token with 401, not 400', async () => {
    await request(t.app).post('/v1/auth/refresh').send({}).expect(401);
    await refresh('').expect(401);
    await refresh('x'.repeat(5000)).expect(401);
    await refresh('not.a.jwt').expect(401);
  });

  it('takes the Bearer header when the body token is empty', async () => {
    const s = await session();
    await request(t.app)
      .post('/v1/auth/refresh')
      .set('Authorization', `Bearer ${s.refreshToken}`)
      .send({ refreshToken: '' })
      .expect(200);
  });
});

describe('POST /v1/auth/logout', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(`${import.meta.url}-logout`)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const session = async () => (await request(t.app).post('/v1/auth/register').send(newUser()).expect(201)).body.data;
  const logout = (body: object) => request(t.app).post('/v1/auth/logout').send(body);

  it('revokes a valid token: revoked true, and the token no longer refreshes', async () => {
    const s = await session();
    const res = await logout({ refreshToken: s.refreshToken });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { revoked: true }, message: 'OK' });
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: s.refreshToken }).expect(401);
  });

  it('takes the token from the Bearer header too', async () => {
    const s = await session();
    const res = await request(t.app).post('/v1/auth/logout').set('Authorization', `Bearer ${s.refreshToken}`);
    expect(res.body.data).to.deep.equal({ revoked: true });
  });

  it('answers revoked false (200) for missing, invalid, already revoked and non-matching tokens', async () => {
    const s = await session();
    expect((await logout({})).body).to.deep.equal({ success: true, data: { revoked: false }, message: 'OK' });
    expect((await logout({ refreshToken: 'garbage' })).body.data).to.deep.equal({ revoked: false });
    await logout({ refreshToken: s.refreshToken }).expect(200);
    expect((await logout({ refreshToken: s.refreshToken })).body.data).to.deep.equal({ revoked: false });
    const other = await session();
    const { jti } = jwt.decode(other.refreshToken) as { jti: string };
    await t.deps.models.RefreshToken.updateOne({ jti }, { $set: { tokenHash: await bcrypt.hash('x', 4) } });
    expect((await logout({ refreshToken: other.refreshToken })).body.data).to.deep.equal({ revoked: false });
    const row = await t.deps.models.RefreshToken.findOne({ jti }).lean();
    expect(row?.revokedAt).to.equal(null);
  });
});
