import { expect } from 'chai';
import Joi from 'joi';
import jwt from 'jsonwebtoken';
import {
  accessCookie,
  accessTokenOf,
  assertTokenSecretSafe,
  ConfigError,
  DEV_JWT_SECRET,
  signToken,
  tokenConfig,
  verifyAccessToken,
  verifyToken,
  type AccessClaims,
} from '../src/core/index.js';

const SECRET = 's'.repeat(40);
const NOW = 1_800_000_000;
const claims: AccessClaims = {
  sub: 'u1',
  type: 'access',
  role: 'TEACHER',
  accountCode: 'AC1',
  fullName: 'Cô Lan',
  email: 'lan@example.vn',
  defaultOrganizationId: 'org_1',
  sid: 'family-1',
  memberships: [{ organizationId: 'org_1', role: 'TEACHER' }],
};
const sign = (c: object, opts: jwt.SignOptions = {}, secret = SECRET) =>
  jwt.sign({ iat: NOW, ...c }, secret, { algorithm: 'HS256', expiresIn: 900, ...opts });
const without = (key: keyof AccessClaims) => Object.fromEntries(Object.entries(claims).filter(([k]) => k !== key));

describe('kit access token: signing and verification (pure)', () => {
  it('verifyAccessToken: accepts what signToken issues, with the claims and the whole payload', () => {
    const checked = verifyAccessToken(signToken(claims, SECRET, 900, NOW), SECRET, NOW + 10);
    expect(checked.ok).to.equal(true);
    if (!checked.ok) return;
    const { payload, ...verified } = checked.claims;
    expect(verified).to.deep.equal({
      sub: 'u1',
      role: 'TEACHER',
      fullName: 'Cô Lan',
      exp: NOW + 900,
      sid: 'family-1',
      iat: NOW,
    });
    expect(payload).to.include({ email: 'lan@example.vn', type: 'access' });
  });

  it('signToken: signs exactly what jsonwebtoken does with the string secret (HS256, iat = now)', () => {
    const plain = jwt.sign({ ...claims, iat: NOW }, SECRET, { algorithm: 'HS256', expiresIn: 900 });
    expect(signToken(claims, SECRET, 900, NOW)).to.equal(plain);
  });

  it('verifyAccessToken: an expired token is expired at the given clock, with no tolerance', () => {
    const token = sign(claims);
    expect(verifyAccessToken(token, SECRET, NOW + 899).ok).to.equal(true);
    expect(verifyAccessToken(token, SECRET, NOW + 900)).to.deep.equal({ ok: false, reason: 'expired' });
    const later = sign(claims, { notBefore: 60 });
    expect(verifyAccessToken(later, SECRET, NOW + 59)).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('verifyAccessToken: refuses alg=none and any algorithm but HS256, even with the right secret', () => {
    const none = jwt.sign({ ...claims, iat: NOW, exp: NOW + 900 }, '', { algorithm: 'none' });
    expect(verifyAccessToken(none, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(verifyAccessToken(sign(claims, { algorithm: 'HS512' }), SECRET, NOW)).to.deep.equal({
      ok: false,
      reason: 'invalid',
    });
  });

  it('verifyAccessToken: refuses a tampered payload, another secret and garbage', () => {
    const [head, , sig] = sign(claims).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'ADMIN', iat: NOW, exp: NOW + 900 })).toString(
      'base64url',
    );
    expect(verifyAccessToken(`${head}.${forged}.${sig}`, SECRET, NOW).ok).to.equal(false);
    expect(verifyAccessToken(sign(claims, {}, 'x'.repeat(40)), SECRET, NOW).ok).to.equal(false);
    expect(verifyAccessToken('not.a.token', SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(verifyAccessToken('', SECRET, NOW).ok).to.equal(false);
  });

  it('verifyAccessToken: a refresh token is not-access; a missing or empty sub, role, fullName, sid or exp is invalid', () => {
    const refresh = sign({ sub: 'u1', type: 'refresh', jti: 'j'.repeat(20) });
    expect(verifyAccessToken(refresh, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'not-access' });
    for (const key of ['sub', 'role', 'fullName', 'sid'] as const) {
      expect(verifyAccessToken(sign(without(key)), SECRET, NOW).ok, key).to.equal(false);
      expect(verifyAccessToken(sign({ ...claims, [key]: '' }), SECRET, NOW).ok, key).to.equal(false);
    }
    const noExp = jwt.sign({ ...claims, iat: NOW }, SECRET, { algorithm: 'HS256' });
    expect(verifyAccessToken(noExp, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('verifyAccessToken: allowMissingSid accepts a token without sid but never an empty one', () => {
    const legacy = verifyAccessToken(sign(without('sid')), SECRET, NOW, { allowMissingSid: true });
    expect(legacy.ok && legacy.claims.sid).to.equal(undefined);
    expect(legacy.ok).to.equal(true);
    expect(verifyAccessToken(sign({ ...claims, sid: '' }), SECRET, NOW, { allowMissingSid: true }).ok).to.equal(false);
  });

  it('verifyAccessToken: maxLifetimeSeconds requires iat and bounds exp from iat and from now', () => {
    const opts = { maxLifetimeSeconds: 3600 };
    expect(verifyAccessToken(sign(claims, { expiresIn: 3600 }), SECRET, NOW, opts).ok).to.equal(true);
    expect(verifyAccessToken(sign(claims, { expiresIn: 3601 }), SECRET, NOW, opts).ok).to.equal(false);
    const noIat = jwt.sign({ ...claims, exp: NOW + 900 }, SECRET, { algorithm: 'HS256', noTimestamp: true });
    expect(verifyAccessToken(noIat, SECRET, NOW).ok).to.equal(true);
    expect(verifyAccessToken(noIat, SECRET, NOW, opts).ok).to.equal(false);
    const backdated = sign({ ...claims, iat: NOW - 100 }, { expiresIn: 3650 });
    expect(verifyAccessToken(backdated, SECRET, NOW - 100, opts).ok).to.equal(false);
  });

  it('verifyToken: reports expired apart from invalid and never throws', () => {
    const refresh = sign({ sub: 'u1', type: 'refresh' });
    expect(verifyToken(refresh, SECRET, NOW)).to.deep.include({ ok: true });
    expect(verifyToken(refresh, SECRET, NOW + 900)).to.deep.equal({ ok: false, reason: 'expired' });
    expect(verifyToken('x'.repeat(9000), SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
  });
});

describe('kit access token: reading it from a request (pure)', () => {
  it('accessTokenOf: the Bearer token wins over the cookie; a malformed Authorization falls back to the cookie', () => {
    const cookie = 'platform.accessToken=fromcookie';
    expect(accessTokenOf({ authorization: 'Bearer abc', cookie })).to.equal('abc');
    expect(accessTokenOf({ authorization: 'bearer  abc ' })).to.equal('abc');
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearerabc']) {
      expect(accessTokenOf({ authorization, cookie }), authorization).to.equal('fromcookie');
      expect(accessTokenOf({ authorization }), authorization).to.equal(undefined);
    }
    expect(accessTokenOf({})).to.equal(undefined);
  });

  it('accessCookie: the first cookie of that name, percent-decoded; empty or badly encoded is none', () => {
    expect(accessCookie('a=1; platform.accessToken=d%2Eef; b=2')).to.equal('d.ef');
    expect(accessCookie('platform.accessToken=one; platform.accessToken=two')).to.equal('one');
    expect(accessCookie('xplatform.accessToken=no; platform.accessTokenx=no')).to.equal(undefined);
    expect(accessCookie('platform.accessToken=')).to.equal(undefined);
    expect(accessCookie('platform.accessToken=%ZZ')).to.equal(undefined);
    expect(accessCookie('=x; garbage')).to.equal(undefined);
    expect(accessCookie(undefined)).to.equal(undefined);
  });

  it('accessCookie: a value in double quotes (RFC 6265 cookie-value) is read without them', () => {
    expect(accessCookie('platform.accessToken="abc.def"')).to.equal('abc.def');
    expect(accessCookie('theme=dark; platform.accessToken= "abc" ')).to.equal('abc');
    expect(accessCookie('platform.accessToken=""')).to.equal(undefined);
    expect(accessTokenOf({ cookie: 'platform.accessToken="abc"' })).to.equal('abc');
  });
});

describe('kit access token: the secret in config', () => {
  const schema = Joi.object({ NODE_ENV: Joi.string().default('development'), ...tokenConfig });

  it('tokenConfig: defaults AUTH_JWT_SECRET to the development secret and refuses one under 16 characters', () => {
    expect(schema.validate({}).value.AUTH_JWT_SECRET).to.equal(DEV_JWT_SECRET);
    expect(schema.validate({ AUTH_JWT_SECRET: 'short' }).error).to.not.equal(undefined);
  });

  it('assertTokenSecretSafe: production refuses the development secret and one under 32 characters', () => {
    const message =
      'config: "AUTH_JWT_SECRET" must be set to a non-default secret of at least 32 characters in production';
    for (const secret of [DEV_JWT_SECRET, 'x'.repeat(31)]) {
      expect(() => assertTokenSecretSafe({ NODE_ENV: 'production', AUTH_JWT_SECRET: secret }))
        .to.throw(ConfigError)
        .with.property('message', message);
    }
    expect(() => assertTokenSecretSafe({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'x'.repeat(32) })).to.not.throw();
    expect(() => assertTokenSecretSafe({ NODE_ENV: 'development', AUTH_JWT_SECRET: DEV_JWT_SECRET })).to.not.throw();
  });
});
