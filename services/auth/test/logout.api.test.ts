import { expect } from 'chai';
import request from 'supertest';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('POST /v1/auth/logout with whatever a client sends as the token', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const notRevoked = { success: true, data: { revoked: false }, message: 'OK' };
  const logout = (body: unknown) =>
    request(t.app)
      .post('/v1/auth/logout')
      .send(body as object);

  const bodies: Array<[string, unknown]> = [
    ['no body', undefined],
    ['an empty object', {}],
    ['an empty token', { refreshToken: '' }],
    ['a null token', { refreshToken: null }],
    ['a number', { refreshToken: 42 }],
    ['a boolean', { refreshToken: true }],
    ['an object', { refreshToken: { jti: 'x' } }],
    ['an array', { refreshToken: ['a', 'b'] }],
    ['an overlong string', { refreshToken: 'e'.repeat(10_000) }],
    ['garbage', { refreshToken: 'not.a.jwt' }],
    ['a JWT-looking string', { refreshToken: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln' }],
  ];
  for (const [what, body] of bodies) {
    it(`answers 200 revoked false for ${what}`, async () => {
      const res = await logout(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal(notRevoked);
    });
  }

  it('answers revoked false for an Authorization header that is not a Bearer token', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'garbage', 'Bearer a b']) {
      const res = await request(t.app).post('/v1/auth/logout').set('Authorization', header);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(notRevoked);
    }
  });

  it('still revokes a valid token given in the Bearer header when the body token is empty', async () => {
    const s = (await request(t.app).post('/v1/auth/register').send(newUser()).expect(201)).body.data;
    const res = await request(t.app)
      .post('/v1/auth/logout')
      .set('Authorization', `Bearer ${s.refreshToken}`)
      .send({ refreshToken: '' });
    expect(res.body.data).to.deep.equal({ revoked: true });
  });
});
