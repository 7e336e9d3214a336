// The trust boundary as an attacker meets it: odd header spellings, tokens that never expire,
// roles claimed outside their organization, the own inbox as an ADMIN, cross-site cookie writes.
// Over HTTP against the gateway, in front of real HTTP upstreams that record what reached them.
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { normalizeHeaderName } from '../src/headers.js';
import {
  INTERNAL,
  SECRET,
  accessToken,
  rawRequest,
  startTestGateway,
  startUpstream,
  type Seen,
  type TestGateway,
  type TestUpstream,
} from './support.js';

/** The client header names an attacker tries, each meaning a header only the gateway may set. */
const FORGED: Record<string, string> = {
  X_User_Id: 'victim',
  'x.user.role': 'ADMIN',
  'X-USER-ROLE': 'ADMIN',
  X__Actor__Id: 'victim',
  X_Actor_Role: 'ADMIN',
  X_Actor_Scope: 'all',
  'x-actor-scope': 'all',
  XOrganizationId: 'org-b',
  x_organization_id: 'org-b',
  X_Internal_Token: 'forged-forged-forged',
  X_Forwarded_For: '6.6.6.6',
  'X-Forwarded-For': '6.6.6.6',
  'X-Forwarded-Host': 'evil.example',
  Forwarded: 'for=6.6.6.6',
  'X-Real-IP': '6.6.6.6',
  X_Real_IP: '6.6.6.6',
  'True-Client-IP': '6.6.6.6',
  X_Request_Id: 'forged',
};

const compact = (name: string) => normalizeHeaderName(name).replace(/-/g, '');
const forgedNames = new Set(Object.keys(FORGED).map(compact));

/** Every header the upstream received whose name folds to one of the forged ones, as name: value. */
function trustedArrived(seen: Seen): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < seen.rawHeaders.length; i += 2) {
    const name = seen.rawHeaders[i]!;
    if (forgedNames.has(compact(name)) || compact(name).startsWith('xactor') || compact(name).startsWith('xuser')) {
      out[name] = seen.rawHeaders[i + 1]!;
    }
  }
  return out;
}

describe('gateway: the trust boundary against forged headers, tokens, roles and cross-site writes', function () {
  this.timeout(30000);
  let up: TestUpstream;
  let legacy: TestUpstream;
  let gw: TestGateway;

  before(async () => {
    up = await startUpstream();
    legacy = await startUpstream();
    gw = await startTestGateway({
      GATEWAY_AUTH_URL: up.url,
      GATEWAY_ANALYTICS_URL: up.url,
      GATEWAY_NOTIFICATIONS_URL: up.url,
      GATEWAY_PARENT_ALERTS_URL: up.url,
      GATEWAY_DOCUMENT_IMPORT_URL: up.url,
      GATEWAY_LEGACY_URL: legacy.url,
    });
  });
  after(async () => {
    await gw?.close();
    await up?.close();
    await legacy?.close();
  });

  const last = (u: TestUpstream) => u.seen[u.seen.length - 1]!;

  describe('headers', () => {
    it('no odd spelling of an actor, organization, internal or address header reaches a token-table service', async () => {
      const token = accessToken({ sub: 'teacher-1' });
      const res = await rawRequest(`${gw.url}/api/analytics/results`, {
        headers: { ...FORGED, Authorization: `Bearer ${token}` },
      });
      expect(res.status, res.body).to.equal(200);
      expect(trustedArrived(last(up))).to.deep.equal({
        'x-request-id': res.headers['x-request-id'],
        'x-forwarded-for': '127.0.0.1',
        'x-internal-token': INTERNAL,
        'x-user-id': 'teacher-1',
        'x-user-role': 'TEACHER',
        'x-actor-id': 'teacher-1',
        'x-actor-role': 'TEACHER',
        'x-organization-id': 'local',
      });
      expect(res.headers['x-request-id']).to.not.equal('forged');
    });

    it('nor the auth service (credentials pass, no actor), nor the legacy system (no internal token either)', async () => {
      const token = accessToken();
      const auth = await rawRequest(`${gw.url}/api/auth/me`, {
        headers: { ...FORGED, Authorization: `Bearer ${token}` },
      });
      expect(auth.status).to.equal(200);
      expect(trustedArrived(last(up))).to.deep.equal({
        'x-request-id': auth.headers['x-request-id'],
        'x-forwarded-for': '127.0.0.1',
        'x-internal-token': INTERNAL,
      });
      expect(last(up).headers.authorization).to.equal(`Bearer ${token}`);
      const old = await rawRequest(`${gw.url}/api/classrooms/c1`, {
        headers: { ...FORGED, Authorization: 'Bearer x' },
      });
      expect(old.status).to.equal(200);
      expect(trustedArrived(last(legacy))).to.deep.equal({
        'x-request-id': old.headers['x-request-id'],
        'x-forwarded-for': '127.0.0.1',
      });
    });
  });

  describe('tokens', () => {
    it('an access token without exp, or living longer than the maximum, is 401 invalid token', async () => {
      const forever = accessToken({}, {});
      const res = await gw.request.get('/api/notifications').set('Authorization', `Bearer ${forever}`).expect(401);
      expect([res.body.error.code, res.body.message]).to.deep.equal(['UNAUTHENTICATED', 'Invalid access token']);
      expect(res.headers['www-authenticate']).to.contain('invalid_token');
      const year = accessToken({}, { expiresIn: '365d' });
      await gw.request.get('/api/notifications').set('Authorization', `Bearer ${year}`).expect(401);
      const noIat = jwt.sign(
        { sub: 'u1', type: 'access', role: 'TEACHER', fullName: 'x', exp: Math.floor(Date.now() / 1000) + 600 },
        SECRET,
        { algorithm: 'HS256', noTimestamp: true },
      );
      await gw.request.get('/api/notifications').set('Authorization', `Bearer ${noIat}`).expect(401);
      await gw.request.get('/api/notifications').set('Authorization', `Bearer ${accessToken()}`).expect(200);
    });
  });

  describe('roles per organization', () => {
    const twoSchools = (globalRole: string) =>
      accessToken({
        sub: 'multi-1',
        role: globalRole,
        defaultOrganizationId: 'school-a',
        memberships: [
          { organizationId: 'school-a', role: 'STUDENT' },
          { organizationId: 'school-b', role: 'TEACHER' },
        ],
      });

    it('a global TEACHER who is a STUDENT in the requested organization is refused analytics (403)', async () => {
      const before = up.seen.length;
      const home = await gw.request
        .get('/api/analytics/results')
        .set('Authorization', `Bearer ${twoSchools('TEACHER')}`)
        .expect(403);
      expect(home.body.error.code).to.equal('FORBIDDEN');
      await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${twoSchools('TEACHER')}`, 'X-Organization-Id': 'school-a' })
        .expect(403);
      expect(up.seen.length).to.equal(before);
    });

    it('the membership role is what the service is told, even where it is above the global role', async () => {
      await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${twoSchools('STUDENT')}`, 'X-Organization-Id': 'school-b' })
        .expect(200);
      expect(last(up).headers).to.include({
        'x-user-role': 'TEACHER',
        'x-actor-role': 'TEACHER',
        'x-organization-id': 'school-b',
      });
      await gw.request
        .get('/api/notifications')
        .set({ Authorization: `Bearer ${twoSchools('TEACHER')}` })
        .expect(200);
      expect(last(up).headers).to.include({ 'x-actor-role': 'STUDENT', 'x-organization-id': 'school-a' });
    });

    it('an organization without a membership is 403, also the token default one', async () => {
      const res = await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${twoSchools('ADMIN')}`, 'X-Organization-Id': 'school-c' })
        .expect(403);
      expect(res.body.message).to.equal('Not a member of the requested organization');
      const away = accessToken({
        defaultOrganizationId: 'local',
        memberships: [{ organizationId: 'o2', role: 'TEACHER' }],
      });
      await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${away}`, 'X-Organization-Id': 'local' })
        .expect(403);
      // Without a header it acts in no organization, and analytics needs one.
      await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${away}` })
        .expect(403);
    });

    it('a token without a memberships claim keeps its global role in its default organization only', async () => {
      const legacyToken = accessToken({ role: 'TEACHER', defaultOrganizationId: 'local' });
      await gw.request.get('/api/analytics/results').set('Authorization', `Bearer ${legacyToken}`).expect(200);
      expect(last(up).headers).to.include({ 'x-user-role': 'TEACHER', 'x-organization-id': 'local' });
      await gw.request
        .get('/api/analytics/results')
        .set({ Authorization: `Bearer ${legacyToken}`, 'X-Organization-Id': 'org-b' })
        .expect(403);
    });
  });

  describe('the own inbox', () => {
    it('an ADMIN listing notifications is scoped to itself: X-Actor-Scope self, its own userId only', async () => {
      const admin = accessToken({ sub: 'admin-1', role: 'ADMIN' });
      await gw.request
        .get('/api/notifications?userId=victim&page=2&user%49d=v2&userId[]=v3&organizationId=o&filter=UNREAD')
        .set({ Authorization: `Bearer ${admin}`, 'X-Actor-Scope': 'all' })
        .expect(200);
      expect(last(up).url).to.equal('/v1/notifications?page=2&filter=UNREAD&userId=admin-1');
      expect(last(up).headers['x-actor-scope']).to.equal('self');
      expect(last(up).headers['x-actor-role']).to.equal('ADMIN');
      for (const path of ['/api/notifications/n1', '/api/notifications/preferences']) {
        await gw.request
          .get(path)
          .set({ Authorization: `Bearer ${admin}` })
          .expect(200);
        expect(last(up).headers['x-actor-scope'], path).to.equal('self');
      }
    });

    it('parent alerts are scoped too and their list never forwards a userId', async () => {
      const parent = accessToken({ sub: 'parent-1', role: 'PARENT' });
      await gw.request.get('/api/parent/alerts?userId=victim&q=x').set('Authorization', `Bearer ${parent}`).expect(200);
      expect(last(up).url).to.equal('/v1/parent/alerts?q=x');
      expect(last(up).headers['x-actor-scope']).to.equal('self');
    });

    it('other tables carry no scope', async () => {
      await gw.request.get('/api/analytics/results').set('Authorization', `Bearer ${accessToken()}`).expect(200);
      expect(last(up).headers).to.not.have.property('x-actor-scope');
    });
  });

  describe('cross-site writes with the access cookie', () => {
    const cookie = () => ({ Cookie: `platform.accessToken=${accessToken({ sub: 'victim-1' })}` });

    it('a cross-site cookie POST is 403 before anything is forwarded (Sec-Fetch-Site or a foreign Origin)', async () => {
      const before = up.seen.length;
      for (const headers of [
        { 'Sec-Fetch-Site': 'cross-site' },
        { 'Sec-Fetch-Site': 'same-site', Origin: `${gw.url}` },
        { Origin: 'https://evil.example' },
        { Referer: 'https://evil.example/form.html' },
        { Origin: 'null' },
        {},
      ]) {
        const res = await gw.request
          .post('/api/notifications/delete-all')
          .set({ ...cookie(), ...headers })
          .expect(403);
        expect([res.body.error.code, res.body.error.details.reason], JSON.stringify(headers)).to.deep.equal([
          'FORBIDDEN',
          'CSRF_REJECTED',
        ]);
      }
      expect(up.seen.length).to.equal(before);
    });

    it('a cross-site form upload into the teacher library never reaches the import service', async () => {
      const before = up.seen.length;
      const res = await gw.request
        .post('/api/exam-import/teacher-library')
        .set({ ...cookie(), Origin: 'https://evil.example' })
        .attach('file', Buffer.from('PK\x03\x04 not really'), 'de-thi.docx')
        .expect(403);
      expect(res.body.error.details.reason).to.equal('CSRF_REJECTED');
      expect(up.seen.length).to.equal(before);
    });

    it('a same-origin cookie POST, a Bearer POST from anywhere and a cross-site cookie GET pass', async () => {
      const host = new URL(gw.url).host;
      await gw.request
        .post('/api/notifications/delete-all')
        .set({ ...cookie(), 'Sec-Fetch-Site': 'same-origin' })
        .expect(200);
      await gw.request
        .post('/api/notifications/delete-all')
        .set({ ...cookie(), Origin: `http://${host}` })
        .expect(200);
      await gw.request
        .post('/api/notifications/read-all')
        .set({ ...cookie(), Referer: `http://${host}/app/inbox` })
        .expect(200);
      await gw.request
        .post('/api/notifications/delete-all')
        .set({ Authorization: `Bearer ${accessToken()}`, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://x.example' })
        .expect(200);
      await gw.request
        .get('/api/notifications')
        .set({ ...cookie(), 'Sec-Fetch-Site': 'cross-site' })
        .expect(200);
    });

    it('GATEWAY_ALLOWED_ORIGINS replaces the Host rule', async () => {
      const g = await startTestGateway({
        GATEWAY_NOTIFICATIONS_URL: up.url,
        GATEWAY_ALLOWED_ORIGINS: 'https://app.example, https://admin.example:8443',
      });
      try {
        const host = new URL(g.url).host;
        const post = (origin: string) =>
          g.request.post('/api/notifications/read-all').set({ ...cookie(), Origin: origin });
        await post('https://app.example').expect(200);
        await post('https://admin.example:8443').expect(200);
        await post(`http://${host}`).expect(403);
        await post('https://app.example.evil.example').expect(403);
      } finally {
        await g.close();
      }
    });
  });

  describe('the client address and production config', () => {
    it('toward auth, X-Forwarded-For is the one address the gateway resolved, never the client chain', async () => {
      await gw.request
        .post('/api/auth/login')
        .set('X-Forwarded-For', '6.6.6.6, 7.7.7.7')
        .send({ email: 'a@b.vn', password: 'x' })
        .expect(200);
      expect(last(up).headers['x-forwarded-for']).to.equal('127.0.0.1');
      const behind = await startTestGateway({ GATEWAY_AUTH_URL: up.url, GATEWAY_TRUST_PROXY: '1' });
      try {
        await behind.request
          .post('/api/auth/login')
          .set('X-Forwarded-For', '6.6.6.6, 1.1.1.1')
          .send({ email: 'a@b.vn', password: 'x' })
          .expect(200);
        expect(last(up).headers['x-forwarded-for']).to.equal('1.1.1.1');
      } finally {
        await behind.close();
      }
    });

    it('production refuses to start without INTERNAL_API_TOKEN, with one line naming it', async () => {
      let message = '';
      try {
        await startTestGateway({ NODE_ENV: 'production', INTERNAL_API_TOKEN: undefined });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).to.equal('config: "INTERNAL_API_TOKEN" is required in production');
    });
  });
});
