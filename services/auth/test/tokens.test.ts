import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { verifyAccessToken as verifyAccess, type AccessClaims } from '../../kit/src/core/index.js';
import { refreshDigest, signAccessToken, signRefreshToken, verifyRefreshToken } from '../src/domain/tokens.js';

/** The check GET /v1/auth/me makes (the kit's, with its defaults), as claims or null. */
function verifyAccessToken(token: string, secret: string, now: Date) {
  const checked = verifyAccess(token, secret, Math.floor(now.getTime() / 1000));
  return checked.ok ? checked.claims : null;
}

const settings = { secret: 's'.repeat(40), accessTtlSeconds: 900, refreshTtlSeconds: 3600 };
const now = new Date('2026-06-01T08:00:00Z');
const access: AccessClaims = {
  sub: 'u1',
  type: 'access',
  role: 'STUDENT',
  accountCode: 'AC0123456789',
  fullName: 'Trần Thị Bình',
  email: 'binh@example.vn',
  defaultOrganizationId: 'org_1',
  sid: 'family-1',
  memberships: [{ organizationId: 'org_1', role: 'STUDENT' }],
};

describe('tokens (pure)', () => {
  it('access token: carries exactly the contract claims plus sid, memberships, iat and exp', () => {
    const decoded = jwt.decode(signAccessToken(access, settings, now)) as Record<string, unknown>;
    expect(Object.keys(decoded).sort()).to.deep.equal([
      'accountCode',
      'defaultOrganizationId',
      'email',
      'exp',
      'fullName',
      'iat',
      'memberships',
      'role',
      'sid',
      'sub',
      'type',
    ]);
    expect(decoded.memberships).to.deep.equal([{ organizationId: 'org_1', role: 'STUDENT' }]);
    expect(decoded.exp).to.equal(Math.floor(now.getTime() / 1000) + 900);
  });

  it('refresh token: carries exactly sub, type=refresh, jti plus iat and exp', () => {
    const token = signRefreshToken({ sub: 'u1', type: 'refresh', jti: 'abcdefghijklmnopqrstuvwx' }, settings, now);
    const decoded = jwt.decode(token) as Record<string, unknown>;
    expect(Object.keys(decoded).sort()).to.deep.equal(['exp', 'iat', 'jti', 'sub', 'type']);
    expect(verifyRefreshToken(token, settings.secret, now)).to.deep.equal({
      sub: 'u1',
      type: 'refresh',
      jti: 'abcdefghijklmnopqrstuvwx',
    });
  });

  it('the secret as a key object signs exactly what the string did: tokens issued before still verify', () => {
    const iat = Math.floor(now.getTime() / 1000);
    const plain = jwt.sign({ ...access, iat }, settings.secret, { algorithm: 'HS256', expiresIn: 900 });
    expect(signAccessToken(access, settings, now)).to.equal(plain);
    expect(verifyAccessToken(plain, settings.secret, now)?.sub).to.equal('u1');
  });

  it('verifyAccessToken: rejects an expired token at the injected clock', () => {
    const token = signAccessToken(access, settings, now);
    expect(verifyAccessToken(token, settings.secret, new Date(now.getTime() + 899_000))).to.not.equal(null);
    expect(verifyAccessToken(token, settings.secret, new Date(now.getTime() + 901_000))).to.equal(null);
  });

  it('verifyAccessToken: rejects another secret, a refresh token, and alg=none', () => {
    const token = signAccessToken(access, settings, now);
    expect(verifyAccessToken(token, 'another-secret-of-enough-length', now)).to.equal(null);
    const refresh = signRefreshToken({ sub: 'u1', type: 'refresh', jti: 'abcdefghijklmnopqrstuvwx' }, settings, now);
    expect(verifyAccessToken(refresh, settings.secret, now)).to.equal(null);
    const none = jwt.sign({ ...access }, '', { algorithm: 'none' });
    expect(verifyAccessToken(none, settings.secret, now)).to.equal(null);
  });

  it("verifyAccessToken: requires sub, role and fullName (the legacy guard's claims)", () => {
    const noName = jwt.sign({ ...access, fullName: '', iat: Math.floor(now.getTime() / 1000) }, settings.secret, {
      algorithm: 'HS256',
      expiresIn: 60,
    });
    expect(verifyAccessToken(noName, settings.secret, now)).to.equal(null);
  });

  it('verifyAccessToken: rejects a token without exp (it would never expire) or without sid (never revocable)', () => {
    const iat = Math.floor(now.getTime() / 1000);
    const noExp = jwt.sign({ ...access, iat }, settings.secret, { algorithm: 'HS256' });
    expect(verifyAccessToken(noExp, settings.secret, now)).to.equal(null);
    const { sid: _sid, ...noSid } = access;
    const withoutSid = jwt.sign({ ...noSid, iat }, settings.secret, { algorithm: 'HS256', expiresIn: 60 });
    expect(verifyAccessToken(withoutSid, settings.secret, now)).to.equal(null);
  });

  it('verifyRefreshToken: rejects an access token and a malformed jti', () => {
    expect(verifyRefreshToken(signAccessToken(access, settings, now), settings.secret, now)).to.equal(null);
    const bad = jwt.sign(
      { sub: 'u1', type: 'refresh', jti: '$bad', iat: Math.floor(now.getTime() / 1000) },
      settings.secret,
      { expiresIn: 60 },
    );
    expect(verifyRefreshToken(bad, settings.secret, now)).to.equal(null);
  });

  it("refreshDigest: is the 64-character SHA-256 hex, within bcrypt's 72-byte input", () => {
    const digest = refreshDigest('x'.repeat(5000));
    expect(digest).to.match(/^[0-9a-f]{64}$/);
    expect(refreshDigest('a')).to.equal('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });
});
