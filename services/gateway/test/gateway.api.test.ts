// The gateway in front of the real auth, analytics and notification services (their own databases,
// the internal token required): identities come from tokens, never from what a client claims.
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { authService } from '../../auth/src/service.js';
import { put, snapshot, startAnalytics, type TestAnalytics } from '../../analytics/test/support.js';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import { startNotification, type TestNotification } from '../../notification/test/support.js';
import {
  INTERNAL,
  SECRET,
  closedPort,
  email,
  rawServer,
  startTestGateway,
  until,
  type TestGateway,
} from './support.js';

interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string };
}

describe('gateway: public /api in front of the real auth, analytics and notification services', function () {
  this.timeout(60000);
  let auth: TestService<unknown, unknown> | undefined;
  let analytics: TestAnalytics | undefined;
  let notification: TestNotification | undefined;
  let gw: TestGateway | undefined;
  const sessions: Record<string, Session> = {};

  before(async () => {
    const internal = { INTERNAL_API_TOKEN: INTERNAL };
    auth = (await startTestService(authService, {
      file: import.meta.url,
      env: { ...internal, AUTH_JWT_SECRET: SECRET, AUTH_BCRYPT_COST: '4', AUTH_TOKEN_BCRYPT_COST: '4' },
    })) as TestService<unknown, unknown>;
    analytics = await startAnalytics(import.meta.url, internal);
    notification = await startNotification(import.meta.url, internal);
    gw = await startTestGateway({
      GATEWAY_AUTH_URL: auth.url,
      GATEWAY_ANALYTICS_URL: analytics.url,
      GATEWAY_NOTIFICATIONS_URL: notification.url,
      GATEWAY_PARENT_ALERTS_URL: notification.url,
    });
    for (const role of ['TEACHER', 'PARENT', 'STUDENT']) {
      const body = { email: email(role.toLowerCase()), password: 'Mật-khẩu-2026', fullName: `Người ${role}`, role };
      await gw.request.post('/api/auth/register').send(body).expect(201);
      const login = await gw.request.post('/api/auth/login').send({ email: body.email, password: body.password });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      expect(login.body.message).to.equal('Logged in');
      sessions[role] = login.body.data as Session;
    }
  });
  after(async () => {
    await gw?.close();
    await notification?.close();
    await analytics?.close();
    await auth?.close();
  });

  const bearer = (role: string) => ({ Authorization: `Bearer ${sessions[role]!.accessToken}` });

  it('register and login went through; me answers for the Bearer token and for the cookie', async () => {
    const me = await gw!.request.get('/api/auth/me').set(bearer('TEACHER')).expect(200);
    expect(me.body.data.id ?? me.body.data.user?.id).to.equal(sessions.TEACHER!.user.id);
    const viaCookie = await gw!.request
      .get('/api/auth/me')
      .set('Cookie', `platform.accessToken=${sessions.PARENT!.accessToken}`)
      .expect(200);
    expect(JSON.stringify(viaCookie.body.data)).to.contain(sessions.PARENT!.user.id);
  });

  it('a quoted cookie (RFC 6265) is read alike by the gateway and by auth behind it', async () => {
    const res = await gw!.request
      .get('/api/auth/me')
      .set('Cookie', `platform.accessToken="${sessions.PARENT!.accessToken}"`)
      .expect(200);
    expect(JSON.stringify(res.body.data)).to.contain(sessions.PARENT!.user.id);
  });

  it('refresh and logout pass the refresh token through to the auth service', async () => {
    const refreshed = await gw!.request
      .post('/api/auth/refresh')
      .send({ refreshToken: sessions.STUDENT!.refreshToken });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    sessions.STUDENT = refreshed.body.data as Session;
    const out = await gw!.request.post('/api/auth/logout').send({ refreshToken: 'garbage' }).expect(200);
    expect(out.body.data.revoked).to.equal(false);
  });

  /** Self-registration gives every account its own organization, as its default membership. */
  const homeOf = (role: string) =>
    (jwt.decode(sessions[role]!.accessToken) as { defaultOrganizationId: string }).defaultOrganizationId;

  it('a TEACHER reads analytics of the token organization; the service sees only what the gateway says', async () => {
    await put(analytics!, 'att-local', snapshot(), homeOf('TEACHER')).set('X-Internal-Token', INTERNAL).expect(200);
    await put(analytics!, 'att-other', snapshot(), 'org-b').set('X-Internal-Token', INTERNAL).expect(200);
    const res = await gw!.request.get('/api/analytics/results').set(bearer('TEACHER')).expect(200);
    const ids = (res.body.data.items as Array<{ attemptId: string }>).map((r) => r.attemptId);
    expect(ids).to.deep.equal(['att-local']);
    const weak = await gw!.request.get('/api/analytics/weak-topics').set(bearer('TEACHER'));
    expect(weak.status).to.equal(200);
  });

  it('a STUDENT and a PARENT are refused analytics (403); no token is 401, never forwarded', async () => {
    for (const role of ['STUDENT', 'PARENT']) {
      const res = await gw!.request.get('/api/analytics/results').set(bearer(role)).expect(403);
      expect(res.body).to.deep.include({ success: false });
      expect(res.body.error.code).to.equal('FORBIDDEN');
    }
    const anon = await gw!.request.get('/api/analytics/results').expect(401);
    expect(anon.headers['www-authenticate']).to.match(/^Bearer/);
    // A forged identity without a token is still no identity.
    await gw!.request.get('/api/analytics/results').set({ 'X-User-Id': 'x', 'X-User-Role': 'ADMIN' }).expect(401);
  });

  it('an organization the token does not allow is 403; the own one is taken', async () => {
    const foreign = await gw!.request
      .get('/api/analytics/results')
      .set({ ...bearer('TEACHER'), 'X-Organization-Id': 'org-b' })
      .expect(403);
    expect(foreign.body.message).to.equal('Not a member of the requested organization');
    const own = await gw!.request
      .get('/api/analytics/results')
      .set({ ...bearer('TEACHER'), 'X-Organization-Id': homeOf('TEACHER') })
      .expect(200);
    expect(own.body.data.items).to.have.length(1);
    // The old shared default organization is not the self-registered teacher's.
    await gw!.request
      .get('/api/analytics/results')
      .set({ ...bearer('TEACHER'), 'X-Organization-Id': 'local' })
      .expect(403);
  });

  it('a PARENT reads its inbox and its alerts; forged actor headers from the client never reach the service', async () => {
    const parentId = sessions.PARENT!.user.id;
    const svc = notification!.request;
    const asService = { 'X-Internal-Token': INTERNAL };
    await svc
      .post('/v1/notifications')
      .set(asService)
      .send({ userId: parentId, type: 'INFO', title: 'Của phụ huynh' })
      .expect(201);
    await svc
      .post('/v1/notifications')
      .set(asService)
      .send({ userId: 'victim', type: 'INFO', title: 'Của người khác' })
      .expect(201);
    await svc
      .post('/v1/alerts/weak-topic')
      .set(asService)
      .send({
        studentId: 'stu-1',
        parentIds: [parentId],
        alertKey: 'k1',
        topics: [{ topic: 'Hàm số', wrongCount: 3, attemptCount: 4, accuracy: 0.25 }],
      })
      .expect((r) => expect(r.status, JSON.stringify(r.body)).to.be.oneOf([200, 201]));

    const forged = {
      ...bearer('PARENT'),
      'X-User-Id': 'victim',
      'X-Actor-Id': 'victim',
      'X-Actor-Role': 'ADMIN',
      'X-User-Role': 'ADMIN',
      'X-Internal-Token': 'forged-forged-forged',
    };
    const inbox = await gw!.request.get('/api/notifications?userId=victim').set(forged).expect(200);
    const owners = new Set((inbox.body.data.items as Array<{ userId: string }>).map((n) => n.userId));
    expect([...owners]).to.deep.equal([parentId]);
    expect(inbox.body.data.items.length).to.be.greaterThan(0);

    const alerts = await gw!.request.get('/api/parent/alerts').set(forged).expect(200);
    expect(alerts.body.data.items.length).to.be.greaterThan(0);
    expect(new Set(alerts.body.data.items.map((n: { userId: string }) => n.userId))).to.deep.equal(new Set([parentId]));

    const prefs = await gw!.request.get('/api/alerts/preferences').set(bearer('PARENT')).expect(200);
    expect(prefs.body.data).to.have.property('enabledTypes');
  });

  it('an ADMIN token on the public inbox lists its own notifications only, never every user', async () => {
    const adminId = `admin-${Date.now()}`;
    const asService = { 'X-Internal-Token': INTERNAL };
    for (const userId of [adminId, 'someone-else']) {
      await notification!.request
        .post('/v1/notifications')
        .set(asService)
        .send({ userId, type: 'INFO', title: `Cho ${userId}` })
        .expect(201);
    }
    const admin = jwt.sign(
      {
        sub: adminId,
        type: 'access',
        role: 'ADMIN',
        fullName: 'Quản trị',
        defaultOrganizationId: 'local',
        memberships: [{ organizationId: 'local', role: 'ADMIN' }],
      },
      SECRET,
      { algorithm: 'HS256', expiresIn: 900 },
    );
    for (const query of ['', '?userId=someone-else']) {
      const res = await gw!.request
        .get(`/api/notifications${query}`)
        .set('Authorization', `Bearer ${admin}`)
        .expect(200);
      const owners = new Set((res.body.data.items as Array<{ userId: string }>).map((n) => n.userId));
      expect([...owners], query).to.deep.equal([adminId]);
    }
  });

  it('parent alerts need the PARENT role', async () => {
    const res = await gw!.request.get('/api/parent/alerts').set(bearer('TEACHER')).expect(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });

  it('an expired token and a type=refresh token are refused with 401', async () => {
    const claims = jwt.decode(sessions.TEACHER!.accessToken) as Record<string, unknown>;
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = jwt.sign({ ...claims, iat: past - 900, exp: past }, SECRET, { algorithm: 'HS256' });
    const res = await gw!.request.get('/api/analytics/results').set('Authorization', `Bearer ${expired}`).expect(401);
    expect(res.body.message).to.equal('Access token expired');
    const refresh = await gw!.request
      .get('/api/notifications')
      .set('Authorization', `Bearer ${sessions.TEACHER!.refreshToken}`)
      .expect(401);
    expect(res.headers['www-authenticate']).to.contain('invalid_token');
    expect(refresh.body.error.code).to.equal('UNAUTHENTICATED');
  });

  it('the server runs the gateway listener alone: /api never goes through Express', () => {
    const { server, gateway } = gw!.running;
    expect(server.listeners('request')).to.deep.equal([gateway.listener]);
  });

  it('request ids go through both ways; the gateway counts each table in /metrics', async () => {
    const res = await gw!.request
      .get('/api/auth/me')
      .set({ ...bearer('TEACHER'), 'X-Request-Id': 'trace-42.a' })
      .expect(200);
    expect(res.headers['x-request-id']).to.equal('trace-42.a');
    await until('the auth service logs the request id', () => auth!.logs.text.includes('"reqId":"trace-42.a"'));
    const made = await gw!.request
      .get('/api/auth/me')
      .set({ ...bearer('TEACHER'), 'X-Request-Id': 'bad id!' })
      .expect(200);
    expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const metrics = await gw!.request.get('/metrics').set('X-Internal-Token', INTERNAL).expect(200);
    expect(metrics.text).to.match(
      /gateway_request_duration_seconds_count\{table="auth",method="GET",status="200"\} \d+/,
    );
    expect(metrics.text).to.match(
      /gateway_request_duration_seconds_count\{table="analytics",method="GET",status="403"\} \d+/,
    );
  });

  it('unmapped /api paths are 404, other methods on a mapped path 405 with Allow, in the envelope', async () => {
    for (const path of ['/api/analytics/exams/e1/summary', '/api', '/api/notifications/n1/read/x']) {
      const res = await gw!.request.get(path).set(bearer('TEACHER'));
      expect(res.status, path).to.equal(404);
      expect(res.body.error.code).to.equal('ROUTE_NOT_FOUND');
    }
    for (const [method, path, allow] of [
      ['get', '/api/auth/login', 'POST'],
      ['post', '/api/notifications', 'GET, HEAD'],
      ['delete', '/api/notifications/preferences/', 'GET, PATCH, HEAD'],
      ['put', '/api/notifications/n1/read', 'POST'],
    ] as const) {
      const res = await gw!.request[method](path).set(bearer('TEACHER'));
      expect([res.status, res.headers.allow, res.body.error.code], `${method} ${path}`).to.deep.equal([
        405,
        allow,
        'METHOD_NOT_ALLOWED',
      ]);
    }
    await gw!.request.get('/healthz').expect(200);
    await gw!.request.get('/readyz').expect(200);
    const doc = await gw!.request.get('/v1/openapi.json').expect(200);
    expect(doc.body['x-decisions'].length).to.be.greaterThan(5);
  });

  describe('configuration and failures', () => {
    const extra: Array<{ close(): Promise<void> }> = [];
    after(async () => {
      for (const c of extra.reverse()) await c.close();
    });
    async function gateway(env: Record<string, string>) {
      const g = await startTestGateway(env);
      extra.push(g);
      return g;
    }

    it('a switched-off table answers 404 while the others still work', async () => {
      const g = await gateway({
        GATEWAY_TABLE_ANALYTICS: 'off',
        GATEWAY_AUTH_URL: auth!.url,
        GATEWAY_ANALYTICS_URL: analytics!.url,
      });
      const res = await g.request.get('/api/analytics/results').set(bearer('TEACHER')).expect(404);
      expect(res.body.error.code).to.equal('ROUTE_NOT_FOUND');
      await g.request.get('/api/auth/me').set(bearer('TEACHER')).expect(200);
    });

    it('production switches every table off unless it is switched on', async () => {
      const g = await gateway({
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: SECRET,
        GATEWAY_TABLE_AUTH: 'on',
        GATEWAY_AUTH_URL: auth!.url,
        GATEWAY_ANALYTICS_URL: analytics!.url,
      });
      await g.request.get('/api/analytics/results').set(bearer('TEACHER')).expect(404);
      await g.request.get('/api/auth/me').set(bearer('TEACHER')).expect(200);
      expect(g.running.gateway.enabled).to.deep.equal(['auth']);
    });

    it('unmapped paths go to the legacy system with credentials, without actor headers or the internal token', async () => {
      const seen: string[] = [];
      const legacy = await rawServer((s) => {
        s.once('data', (chunk) => {
          seen.push(chunk.toString('latin1'));
          s.end(
            'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"legacy":1}'.replace(
              '11',
              '12',
            ),
          );
        });
      });
      extra.push(legacy);
      const g = await gateway({ GATEWAY_LEGACY_URL: `${legacy.url}/base`, GATEWAY_AUTH_URL: auth!.url });
      const res = await g.request
        .get('/api/classrooms/c1?x=1')
        .set({ ...bearer('TEACHER'), 'X-User-Id': 'forged', 'X-Internal-Token': 'forged-forged-forged' })
        .expect(200);
      expect(res.body).to.deep.equal({ legacy: 1 });
      const head = seen.join('').toLowerCase();
      expect(head.startsWith('get /base/api/classrooms/c1?x=1 http/1.1')).to.equal(true);
      expect(head).to.contain('authorization: bearer');
      expect(head).to.not.contain('x-user-id');
      expect(head).to.not.contain('x-internal-token');
    });

    it('an upstream that is down is 503, one that breaks the exchange 502, one that never answers 504', async () => {
      const down = await closedPort();
      const reset = await rawServer((s) => s.once('data', () => s.destroy()));
      const silent = await rawServer(() => undefined);
      extra.push(reset, silent);
      const g = await gateway({
        GATEWAY_AUTH_URL: `http://127.0.0.1:${down}`,
        GATEWAY_ANALYTICS_URL: reset.url,
        GATEWAY_NOTIFICATIONS_URL: silent.url,
        GATEWAY_NOTIFICATIONS_TIMEOUT_MS: '300',
      });
      const r503 = await g.request.post('/api/auth/login').send({ email: 'a@b.vn', password: 'x' }).expect(503);
      expect(r503.body.error.code).to.equal('DEPENDENCY_UNAVAILABLE');
      expect(r503.headers['retry-after']).to.equal('1');
      const r502 = await g.request.get('/api/analytics/results').set(bearer('TEACHER')).expect(502);
      expect(r502.body).to.deep.include({ success: false });
      expect(r502.body.error.code).to.equal('UPSTREAM_ERROR');
      const r504 = await g.request.get('/api/notifications').set(bearer('PARENT')).expect(504);
      expect(r504.body.error.code).to.equal('UPSTREAM_TIMEOUT');
    });

    it('past its burst a client gets 429 with Retry-After; another client is not affected', async () => {
      const g = await gateway({
        GATEWAY_RATE_LIMIT_RPS: '0.01',
        GATEWAY_RATE_LIMIT_BURST: '2',
        GATEWAY_AUTH_URL: auth!.url,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await g.request.get('/api/auth/me').set(bearer('TEACHER'))).status);
      expect(statuses).to.deep.equal([200, 200, 429]);
      const limited = await g.request.get('/api/auth/me').set(bearer('TEACHER')).expect(429);
      expect(limited.body.error.code).to.equal('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).to.be.greaterThan(0);
      await g.request.get('/api/auth/me').set(bearer('PARENT')).expect(200);
    });

    it('a bad config value stops the start with one line naming it', async () => {
      let message = '';
      try {
        await startTestGateway({ GATEWAY_TABLE_ANALYTICS: 'maybe' });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).to.match(/^config: "GATEWAY_TABLE_ANALYTICS" must be a boolean$/);
      try {
        await startTestGateway({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'edu-platform-development-only-jwt-secret' });
        message = '';
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).to.contain('"AUTH_JWT_SECRET"');
    });
  });
});
