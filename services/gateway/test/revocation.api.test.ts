// Logout and account disable reach the gateway within a poll: the revocation feed, served first by
// a real HTTP server speaking exactly the feed's interface, then by the real auth service.
import http from 'node:http';
import type net from 'node:net';
import { expect } from 'chai';
import { authService } from '../../auth/src/service.js';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import {
  INTERNAL,
  SECRET,
  accessToken,
  closedPort,
  email,
  openStream,
  startTestGateway,
  startUpstream,
  until,
  type TestGateway,
  type TestUpstream,
} from './support.js';

interface Feed {
  url: string;
  /** Each poll's `since` and internal token, in order. */
  calls: Array<{ since: string | null; token: string | undefined }>;
  /** Each answer's `until`, in order. */
  untils: string[];
  revoke(item: { sid?: string | null; userId: string; revokedAt?: string }): void;
  /** The next answers are 503 while set. */
  down: boolean;
  close(): Promise<void>;
}

/** GET /v1/auth/revocations?since=: `{ success, data: { items, until } }`, each item once. */
async function startFeed(): Promise<Feed> {
  const pending: Array<{ sid?: string | null; userId: string; revokedAt: string }> = [];
  const feed = {
    calls: [] as Feed['calls'],
    untils: [] as string[],
    down: false,
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    const token = req.headers['x-internal-token'] as string | undefined;
    feed.calls.push({ since: url.searchParams.get('since'), token });
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/v1/auth/revocations' || token !== INTERNAL) return answer(403, { success: false });
    if (feed.down) return answer(503, { success: false });
    const until = new Date().toISOString();
    feed.untils.push(until);
    answer(200, { success: true, message: 'OK', data: { items: pending.splice(0), until } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(feed, {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    revoke: (item: { sid?: string | null; userId: string; revokedAt?: string }) =>
      pending.push({ ...item, revokedAt: item.revokedAt ?? new Date().toISOString() }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

describe('gateway: revoked sessions are refused within a poll of the revocation feed', function () {
  this.timeout(60000);
  let up: TestUpstream;
  let feed: Feed;
  let gw: TestGateway;
  let startedAt = 0;
  let readyAt = 0;

  before(async () => {
    up = await startUpstream();
    feed = await startFeed();
    startedAt = Date.now();
    gw = await startTestGateway({
      GATEWAY_AUTH_URL: feed.url,
      GATEWAY_NOTIFICATIONS_URL: up.url,
      GATEWAY_DOCUMENT_IMPORT_URL: up.url,
      GATEWAY_REVOCATION_POLL_MS: '50',
      GATEWAY_MAX_TOKEN_LIFETIME_SECONDS: '3600',
    });
    readyAt = Date.now();
  });
  after(async () => {
    await gw?.close();
    await feed?.close();
    await up?.close();
  });

  const inbox = (token: string) => gw.request.get('/api/notifications').set('Authorization', `Bearer ${token}`);

  it('a restarted gateway reads from now minus the longest token lifetime, with the internal token; then from each until', async () => {
    await until('three polls', () => feed.calls.length >= 3);
    const first = Date.parse(feed.calls[0]!.since!);
    expect(first).to.be.within(startedAt - 3600_000, readyAt - 3600_000);
    expect(feed.calls.every((c) => c.token === INTERNAL)).to.equal(true);
    expect(feed.calls[1]!.since).to.equal(feed.untils[0]);
    expect(feed.calls[2]!.since).to.equal(feed.untils[1]);
  });

  it('a revoked sid is 401 Access token revoked at the next poll, though the token was accepted (and cached) before', async () => {
    const token = accessToken({ sub: 'user-1', sid: 'session-1' });
    const other = accessToken({ sub: 'user-1', sid: 'session-2' });
    await inbox(token).expect(200);
    feed.revoke({ sid: 'session-1', userId: 'user-1' });
    await until('the revoked session is refused', async () => (await inbox(token)).status === 401);
    const res = await inbox(token).expect(401);
    expect([res.body.error.code, res.body.message]).to.deep.equal(['UNAUTHENTICATED', 'Access token revoked']);
    expect(res.headers['www-authenticate']).to.contain('invalid_token');
    // The same user's other session is not touched.
    await inbox(other).expect(200);
  });

  it('a user-wide revocation (no sid) refuses that user tokens issued before it, not later ones', async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = accessToken({ sub: 'user-2', iat: now - 10 });
    feed.revoke({ sid: null, userId: 'user-2', revokedAt: new Date((now - 5) * 1000).toISOString() });
    await until('the older token is refused', async () => (await inbox(old)).status === 401);
    await inbox(accessToken({ sub: 'user-2', iat: now })).expect(200);
  });

  it('while the feed is down the gateway keeps serving, and says so in its metrics', async () => {
    feed.down = true;
    try {
      await until('a failed poll is counted', async () =>
        /gateway_revocation_feed_failures_total [1-9]/.test(
          (await gw.request.get('/metrics').set('X-Internal-Token', INTERNAL)).text,
        ),
      );
      const metrics = (await gw.request.get('/metrics').set('X-Internal-Token', INTERNAL)).text;
      expect(metrics).to.match(/gateway_revocation_feed_up 0/);
      expect(metrics).to.match(/gateway_revoked_sessions [1-9]/);
      await inbox(accessToken({ sub: 'user-3', sid: 'session-3' })).expect(200);
    } finally {
      feed.down = false;
    }
    await until('the feed is up again', async () =>
      /gateway_revocation_feed_up 1/.test((await gw.request.get('/metrics').set('X-Internal-Token', INTERNAL)).text),
    );
  });

  const EVENTS = '/api/exam-import/algorithm-jobs/events';
  const stream = (token: string) => openStream(`${gw.url}${EVENTS}`, { Authorization: `Bearer ${token}` });
  const ended = (reason: string) => `event: session-ended\ndata: {"reason":"${reason}"}\n\n`;

  it("an event stream of a revoked session ends with a session-ended event; the same user's other session streams on (issue 33, 7)", async () => {
    const revoked = await stream(accessToken({ sub: 'user-4', sid: 'session-4a' }));
    const other = await stream(accessToken({ sub: 'user-4', sid: 'session-4b' }));
    try {
      expect([revoked.status, other.status]).to.deep.equal([200, 200]);
      await until('both streams are held upstream', () => up.held.size >= 2);
      const upstreamBefore = up.held.size;
      feed.revoke({ sid: 'session-4a', userId: 'user-4' });
      await until("the revoked session's stream ends", () => revoked.ended());
      expect(revoked.body().endsWith(ended('revoked'))).to.equal(true);
      // the gateway let go of the upstream stream too, and of the client's stream slot
      await until('the upstream stream is closed', () => up.held.size === upstreamBefore - 1);
      expect(other.ended()).to.equal(false);
      const metrics = (await gw.request.get('/metrics').set('X-Internal-Token', INTERNAL)).text;
      expect(metrics).to.match(/gateway_event_streams_ended_total\{reason="revoked"\} 1/);
      expect(gw.running.gateway.streams.size).to.equal(1);
    } finally {
      revoked.close();
      other.close();
    }
  });

  it("a user-wide revocation (account disabled) ends that user's streams opened before it", async () => {
    const now = Math.floor(Date.now() / 1000);
    const s = await stream(accessToken({ sub: 'user-5', iat: now - 10 }));
    try {
      feed.revoke({ sid: null, userId: 'user-5', revokedAt: new Date((now - 5) * 1000).toISOString() });
      await until('the stream ends', () => s.ended());
      expect(s.body().endsWith(ended('revoked'))).to.equal(true);
    } finally {
      s.close();
    }
  });

  it('an event stream ends when its access token expires, though nothing revoked it', async () => {
    const s = await stream(accessToken({ sub: 'user-6', sid: 'session-6' }, { expiresIn: 2 }));
    try {
      expect(s.status).to.equal(200);
      await until("the stream ends at the token's expiry", () => s.ended());
      expect(s.body().endsWith(ended('expired'))).to.equal(true);
    } finally {
      s.close();
    }
  });

  it('with GATEWAY_REVOCATION_FAIL_CLOSED_MS, a feed unreachable for longer makes token tables 503', async () => {
    const g = await startTestGateway({
      GATEWAY_AUTH_URL: `http://127.0.0.1:${await closedPort()}`,
      GATEWAY_NOTIFICATIONS_URL: up.url,
      GATEWAY_REVOCATION_POLL_MS: '50',
      GATEWAY_REVOCATION_FAIL_CLOSED_MS: '200',
    });
    try {
      const token = accessToken();
      await until('token tables fail closed', async () => {
        const res = await g.request.get('/api/notifications').set('Authorization', `Bearer ${token}`);
        return res.status === 503 && res.body.error.code === 'DEPENDENCY_UNAVAILABLE';
      });
      expect(g.logs.text).to.contain('revocation feed unreachable');
    } finally {
      await g.close();
    }
  });
});

describe('gateway: logout at the real auth service revokes the access token at the gateway', function () {
  this.timeout(60000);
  let auth: TestService<unknown, unknown> | undefined;
  let up: TestUpstream | undefined;
  let gw: TestGateway | undefined;

  before(async () => {
    auth = (await startTestService(authService, {
      file: import.meta.url,
      env: {
        INTERNAL_API_TOKEN: INTERNAL,
        AUTH_JWT_SECRET: SECRET,
        AUTH_BCRYPT_COST: '4',
        AUTH_TOKEN_BCRYPT_COST: '4',
        AUTH_REVOCATION_FEED_LAG_MS: '0',
      },
    })) as TestService<unknown, unknown>;
    up = await startUpstream();
    gw = await startTestGateway({
      GATEWAY_AUTH_URL: auth.url,
      GATEWAY_NOTIFICATIONS_URL: up.url,
      GATEWAY_REVOCATION_POLL_MS: '100',
    });
  });
  after(async () => {
    await gw?.close();
    await up?.close();
    await auth?.close();
  });

  it('a logged-out session access token is refused; a second session of the same user still works', async () => {
    const body = { email: email('revoke'), password: 'Mật-khẩu-2026', fullName: 'Người Dùng' };
    await gw!.request.post('/api/auth/register').send(body).expect(201);
    const login = async () => {
      const res = await gw!.request.post('/api/auth/login').send({ email: body.email, password: body.password });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data as { accessToken: string; refreshToken: string };
    };
    const one = await login();
    const two = await login();
    const inbox = (t: string) => gw!.request.get('/api/notifications').set('Authorization', `Bearer ${t}`);
    await inbox(one.accessToken).expect(200);
    const out = await gw!.request.post('/api/auth/logout').send({ refreshToken: one.refreshToken }).expect(200);
    expect(out.body.data.revoked).to.equal(true);
    await until('the logged-out access token is refused', async () => (await inbox(one.accessToken)).status === 401);
    expect((await inbox(one.accessToken)).body.message).to.equal('Access token revoked');
    await inbox(two.accessToken).expect(200);
  });
});
