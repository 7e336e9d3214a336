import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('GET /v1/auth/me', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const session = async () => (await request(t.app).post('/v1/auth/register').send(newUser()).expect(201)).body.data;
  const me = () => request(t.app).get('/v1/auth/me');

  it('returns the current identity for a Bearer access token', async () => {
    const s = await session();
    const res = await me().set('Authorization', `Bearer ${s.accessToken}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, message: 'OK' });
    expect(res.body.data).to.deep.equal(s.user);
  });

  it('accepts the access token from the platform.accessToken cookie', async () => {
    const s = await session();
    const res = await me().set('Cookie', `theme=dark; platform.accessToken=${encodeURIComponent(s.accessToken)}`);
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(s.user.id);
  });

  it('accepts a cookie value in double quotes (RFC 6265), as the gateway does', async () => {
    const s = await session();
    const res = await me().set('Cookie', `platform.accessToken="${s.accessToken}"`);
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(s.user.id);
  });

  it('answers 401 with WWW-Authenticate when no token is given', async () => {
    const res = await me();
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer');
    expect(res.body.error.code).to.equal('UNAUTHENTICATED');
  });

  it('rejects a refresh token, a forged token, an expired token and alg=none', async () => {
    const s = await session();
    const claims = jwt.decode(s.accessToken) as Record<string, unknown>;
    const { iat: _iat, exp: _exp, ...payload } = claims;
    const bad = [
      s.refreshToken,
      jwt.sign(payload, 'attacker-secret-of-some-length', { expiresIn: 60 }),
      jwt.sign({ ...payload, iat: 1_000_000 }, t.config.AUTH_JWT_SECRET, { expiresIn: 60 }),
      jwt.sign(payload, '', { algorithm: 'none' }),
    ];
    for (const token of bad) await me().set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('rejects a token missing a required claim (fullName)', async () => {
    const s = await session();
    const { iat: _i, exp: _e, fullName: _f, ...payload } = jwt.decode(s.accessToken) as Record<string, unknown>;
    const token = jwt.sign(payload, t.config.AUTH_JWT_SECRET, { expiresIn: 60 });
    await me().set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('rejects a valid token once the account is no longer active', async () => {
    const s = await session();
    await t.deps.models.User.updateOne({ _id: s.user.id }, { $set: { status: 'DISABLED' } });
    await me().set('Authorization', `Bearer ${s.accessToken}`).expect(401);
  });
});
