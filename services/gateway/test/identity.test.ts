import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { admit } from '../src/access.js';
import { forwardHeaders, isTrustedHeader, normalizeHeaderName, responseHeaders } from '../src/headers.js';
import { cachedVerifier, resolveOrganization, verifyCaller, type Caller } from '../src/identity.js';
import { AppError, accessTokenOf } from '../../kit/src/core/index.js';

const SECRET = 'g'.repeat(40);
const NOW = 1_800_000_000;
const claims = {
  sub: 'u1',
  type: 'access',
  role: 'TEACHER',
  accountCode: 'AC1',
  fullName: 'Cô Lan',
  email: 'lan@example.vn',
  defaultOrganizationId: 'local',
};
const sign = (c: Record<string, unknown>, opts: jwt.SignOptions = {}, secret = SECRET) =>
  jwt.sign({ iat: NOW, ...c }, secret, { algorithm: 'HS256', expiresIn: 900, ...opts });
const teacher: Caller = { userId: 'u1', role: 'TEACHER', defaultOrganizationId: 'local', iat: NOW, exp: NOW + 900 };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

describe('gateway: identity at the edge (pure)', () => {
  it('reads Bearer first, then the platform.accessToken cookie', () => {
    expect(accessTokenOf({ authorization: 'Bearer abc', cookie: 'platform.accessToken=def' })).to.equal('abc');
    expect(accessTokenOf({ authorization: 'bearer  abc ' })).to.equal('abc');
    expect(accessTokenOf({ cookie: 'a=1; platform.accessToken=d%2Eef; b=2' })).to.equal('d.ef');
    expect(accessTokenOf({ authorization: 'Basic xyz' })).to.equal(undefined);
    expect(accessTokenOf({ cookie: 'platform.accessToken=%ZZ' })).to.equal(undefined);
    expect(accessTokenOf({})).to.equal(undefined);
  });

  it('accepts an access token signed as the auth service signs it', () => {
    const v = verifyCaller(sign(claims), SECRET, NOW + 10);
    expect(v).to.deep.equal({ ok: true, caller: teacher });
  });

  it('refuses expired, refresh, wrongly signed, unsigned and incomplete tokens', () => {
    expect(verifyCaller(sign(claims), SECRET, NOW + 901)).to.deep.equal({ ok: false, reason: 'expired' });
    const refresh = sign({ sub: 'u1', type: 'refresh', jti: 'j'.repeat(20) });
    expect(verifyCaller(refresh, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'not-access' });
    expect(verifyCaller(sign(claims, {}, 'x'.repeat(40)), SECRET, NOW).ok).to.equal(false);
    const none = jwt.sign({ ...claims, iat: NOW }, '', { algorithm: 'none' });
    expect(verifyCaller(none, SECRET, NOW).ok).to.equal(false);
    expect(verifyCaller(sign({ ...claims, role: 'ROOT' }), SECRET, NOW).ok).to.equal(false);
    expect(verifyCaller(sign({ ...claims, fullName: '' }), SECRET, NOW).ok).to.equal(false);
    expect(verifyCaller(sign({ ...claims, sub: 'a b' }), SECRET, NOW).ok).to.equal(false);
    expect(verifyCaller('x'.repeat(9000), SECRET, NOW).ok).to.equal(false);
  });

  it('a remembered token still expires, waits for nbf, and a refused one is never remembered', () => {
    const verify = cachedVerifier(SECRET, { max: 2 });
    const token = sign(claims);
    expect(verify(token, NOW + 10)).to.deep.equal({ ok: true, caller: teacher });
    expect(verify(token, NOW + 899)).to.deep.equal({ ok: true, caller: teacher });
    expect(verify(token, NOW + 900)).to.deep.equal({ ok: false, reason: 'expired' });
    expect(verify(token, NOW + 10)).to.deep.equal({ ok: true, caller: teacher });
    const later = sign(claims, { notBefore: 60 });
    expect(verify(later, NOW + 30).ok).to.equal(false);
    expect(verify(later, NOW + 61).ok).to.equal(true);
    expect(verify(later, NOW + 30).ok).to.equal(false);
    const forged = sign(claims, {}, 'x'.repeat(40));
    expect(verify(forged, NOW).ok).to.equal(false);
    expect(verify(forged, NOW).ok).to.equal(false);
    const refresh = sign({ sub: 'u1', type: 'refresh', jti: 'j'.repeat(20) });
    expect(verify(refresh, NOW)).to.deep.equal({ ok: false, reason: 'not-access' });
    // Bounded: a third token pushes the oldest out, and each still verifies on its own.
    const other = sign({ ...claims, sub: 'u2' });
    expect(verify(other, NOW).ok && verify(other, NOW).ok && verify(token, NOW).ok).to.equal(true);
  });

  it('refuses a token without exp, without iat, or living longer than the maximum', () => {
    const noExp = jwt.sign({ ...claims, iat: NOW }, SECRET, { algorithm: 'HS256' });
    expect(verifyCaller(noExp, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
    const noIat = jwt.sign({ ...claims, exp: NOW + 900 }, SECRET, { algorithm: 'HS256', noTimestamp: true });
    expect(verifyCaller(noIat, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
    const year = sign(claims, { expiresIn: 365 * 86400 });
    expect(verifyCaller(year, SECRET, NOW)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(verifyCaller(sign(claims, { expiresIn: 3600 }), SECRET, NOW, 3600).ok).to.equal(true);
    expect(verifyCaller(sign(claims, { expiresIn: 3601 }), SECRET, NOW, 3600).ok).to.equal(false);
    // An iat in the past does not stretch a token that still lives too long from now.
    const backdated = sign({ ...claims, iat: NOW - 100 }, { expiresIn: 3650 });
    expect(verifyCaller(backdated, SECRET, NOW - 100, 3600).ok).to.equal(false);
    expect(cachedVerifier(SECRET)(noExp, NOW).ok).to.equal(false);
  });

  it('reads the session id and memberships with their roles; entries without a role name nothing', () => {
    const v = verifyCaller(
      sign({
        ...claims,
        sid: 's-1',
        memberships: [{ organizationId: 'o2', role: 'STUDENT' }, 'o3', 7, { organizationId: 'o4' }, { x: 1 }],
      }),
      SECRET,
      NOW,
    );
    expect(v.ok && v.caller.memberships).to.deep.equal([{ organizationId: 'o2', role: 'STUDENT' }]);
    expect(v.ok && v.caller.sid).to.equal('s-1');
    expect(verifyCaller(sign({ ...claims, sid: 'a b' }), SECRET, NOW).ok).to.equal(false);
    const legacy = verifyCaller(sign(claims), SECRET, NOW);
    expect(legacy.ok && legacy.caller.memberships).to.equal(undefined);
  });

  it('organization rule with memberships: only member organizations, with the membership role', () => {
    const member: Caller = {
      ...teacher,
      memberships: [
        { organizationId: 'local', role: 'ADMIN' },
        { organizationId: 'o2', role: 'STUDENT' },
      ],
    };
    expect(resolveOrganization(member, undefined)).to.deep.equal({ ok: true, organizationId: 'local', role: 'ADMIN' });
    expect(resolveOrganization(member, 'o2')).to.deep.equal({ ok: true, organizationId: 'o2', role: 'STUDENT' });
    expect(resolveOrganization(member, 'o9')).to.deep.equal({ ok: false });
    // The default organization without a membership there: no organization, unless it is asked for.
    const away: Caller = { ...teacher, memberships: [{ organizationId: 'o2', role: 'TEACHER' }] };
    expect(resolveOrganization(away, undefined)).to.deep.equal({ ok: true, role: 'TEACHER' });
    expect(resolveOrganization(away, 'local')).to.deep.equal({ ok: false });
  });

  it('organization rule without a memberships claim: the default organization only, global role', () => {
    expect(resolveOrganization(teacher, undefined)).to.deep.equal({
      ok: true,
      organizationId: 'local',
      role: 'TEACHER',
    });
    expect(resolveOrganization(teacher, 'local')).to.deep.equal({ ok: true, organizationId: 'local', role: 'TEACHER' });
    expect(resolveOrganization(teacher, 'o2')).to.deep.equal({ ok: false });
    const none: Caller = { userId: 'u', role: 'PARENT', iat: NOW, exp: NOW + 900 };
    expect(resolveOrganization(none, undefined)).to.deep.equal({ ok: true, organizationId: undefined, role: 'PARENT' });
  });

  it('guards: no token 401, bad token 401, wrong role 403, foreign organization 403, no organization 403', () => {
    const guard = { identity: 'token', roles: ['ADMIN', 'TEACHER'], requireOrganization: true } as const;
    expect(refusal(() => admit(guard, undefined, undefined)).code).to.equal('UNAUTHENTICATED');
    const expired = refusal(() => admit(guard, { ok: false, reason: 'expired' }, undefined));
    expect([expired.code, expired.message, expired.headers?.['WWW-Authenticate']]).to.deep.equal([
      'UNAUTHENTICATED',
      'Access token expired',
      'Bearer realm="edu-platform", error="invalid_token"',
    ]);
    const student = { ok: true as const, caller: { ...teacher, role: 'STUDENT' as const } };
    expect(refusal(() => admit(guard, student, undefined)).code).to.equal('FORBIDDEN');
    const revoked = refusal(() => admit(guard, { ok: false, reason: 'revoked' }, undefined));
    expect([revoked.code, revoked.message]).to.deep.equal(['UNAUTHENTICATED', 'Access token revoked']);
    // Global TEACHER, STUDENT in the organization asked for: the membership decides.
    const studentThere = {
      ok: true as const,
      caller: { ...teacher, memberships: [{ organizationId: 'o2', role: 'STUDENT' as const }] },
    };
    expect(refusal(() => admit(guard, studentThere, 'o2')).code).to.equal('FORBIDDEN');
    expect(refusal(() => admit(guard, { ok: true, caller: teacher }, 'other')).code).to.equal('FORBIDDEN');
    const orgless = { ok: true as const, caller: { ...teacher, defaultOrganizationId: undefined } };
    expect(refusal(() => admit(guard, orgless, undefined)).code).to.equal('FORBIDDEN');
    expect(admit({ identity: 'token' }, orgless, undefined)).to.deep.equal({ userId: 'u1', role: 'TEACHER' });
    expect(admit(guard, { ok: true, caller: teacher }, undefined).organizationId).to.equal('local');
    expect(admit({ identity: 'token', scope: 'self' }, { ok: true, caller: teacher }, undefined)).to.deep.equal({
      userId: 'u1',
      role: 'TEACHER',
      organizationId: 'local',
      scope: 'self',
    });
  });

  it('forwarded headers: client actor and internal headers gone, ours set, hop-by-hop dropped', () => {
    const out = forwardHeaders(
      {
        host: 'public.example',
        'x-user-id': 'admin',
        'x-user-role': 'ADMIN',
        'x-actor-id': 'admin',
        'x-actor-whatever': 'x',
        'x-organization-id': 'other',
        'x-internal-token': 'guess',
        'x-request-id': 'theirs',
        'x-forwarded-for': '10.0.0.9',
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        'transfer-encoding': 'chunked',
        expect: '100-continue',
        authorization: 'Bearer t',
        cookie: 'platform.accessToken=t',
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      {
        actor: { userId: 'u1', role: 'TEACHER', organizationId: 'local' },
        keepCredentials: false,
        internalToken: 'i'.repeat(20),
        requestId: 'r1',
        clientAddress: '1.2.3.4',
      },
    );
    expect(out).to.deep.equal({
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-request-id': 'r1',
      'x-forwarded-for': '1.2.3.4',
      'x-internal-token': 'i'.repeat(20),
      'x-user-id': 'u1',
      'x-user-role': 'TEACHER',
      'x-actor-id': 'u1',
      'x-actor-role': 'TEACHER',
      'x-organization-id': 'local',
    });
  });

  it('trusted headers are recognised in every spelling a hop may fold to the same name', () => {
    for (const name of [
      'x_user_id',
      'x.user.id',
      'x--user--id',
      'xuserid',
      'x_actor_role',
      'x-actor-scope',
      'x_organization_id',
      'x_internal_token',
      'x_forwarded_for',
      'x-forwarded-host',
      'forwarded',
      'x-real-ip',
      'x_real_ip',
      'true-client-ip',
      'x_request_id',
    ]) {
      expect(isTrustedHeader(name), name).to.equal(true);
    }
    for (const name of ['content-type', 'accept', 'authorization', 'x-custom', 'user-agent', 'cookie']) {
      expect(isTrustedHeader(name), name).to.equal(false);
    }
    expect(normalizeHeaderName('X__User.ID_')).to.equal('x-user-id');
  });

  it('the auth table keeps credentials and adds no actor', () => {
    const out = forwardHeaders(
      { authorization: 'Bearer t', cookie: 'c=1', 'x-user-id': 'forged' },
      { keepCredentials: true, requestId: 'r', clientAddress: '::1' },
    );
    expect(out).to.deep.equal({
      authorization: 'Bearer t',
      cookie: 'c=1',
      'x-request-id': 'r',
      'x-forwarded-for': '::1',
    });
  });

  it('response headers lose hop-by-hop ones only', () => {
    expect(
      responseHeaders({
        'content-type': 'text/event-stream',
        'transfer-encoding': 'chunked',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        'x-request-id': 'r',
      }),
    ).to.deep.equal({ 'content-type': 'text/event-stream', 'x-request-id': 'r' });
  });
});
