// The gateway's revocation feed, tried as the gateway and as an attacker: every way a session ends
// (logout, refresh-token replay, account disable, membership removal) shows up, in order, paged.
import { expect } from 'chai';
import request from 'supertest';
import { startAuth, type TestAuth } from './support.js';
import { actor, claimsOf, registerUser, seedMembership } from './tenancy-support.js';

interface Item {
  sid: string;
  userId: string;
  revokedAt: string;
}

describe('GET /v1/auth/revocations and session revocation', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(async () => {
    await t.clear();
    t.deps.clock = () => new Date();
  });

  const lagMs = () => t.deps.settings.revocationFeedLagMs;
  const feed = (since: string, headers: Record<string, string> = {}) =>
    request(t.app).get('/v1/auth/revocations').query({ since }).set(headers);
  /** The feed as the gateway reads it once the lag has passed (the clock moved on, not slept). */
  const feedLater = async (since: Date) => {
    const at = new Date(Date.now() + lagMs() + 60_000);
    t.deps.clock = () => at;
    const res = await feed(since.toISOString()).expect(200);
    t.deps.clock = () => new Date();
    return res.body.data as { items: Item[]; until: string };
  };
  const me = (token: string) => request(t.app).get('/v1/auth/me').set('Authorization', `Bearer ${token}`);

  it('lists a logged-out session, whose access token me then refuses', async () => {
    const since = new Date(Date.now() - 1000);
    const u = await registerUser(t);
    await me(u.accessToken).expect(200);
    await request(t.app).post('/v1/auth/logout').send({ refreshToken: u.refreshToken }).expect(200);
    await me(u.accessToken).expect(401);
    const page = await feedLater(since);
    expect(page.items.map((i) => [i.sid, i.userId])).to.deep.equal([[claimsOf(u.accessToken).sid, u.id]]);
    expect(Date.parse(page.items[0]!.revokedAt)).to.be.at.most(Date.parse(page.until));
  });

  it('answers the envelope with until = now minus the lag, and holds back what is newer', async () => {
    const since = new Date(Date.now() - 60_000);
    const u = await registerUser(t);
    const pinned = new Date();
    t.deps.clock = () => pinned;
    await request(t.app).post('/v1/auth/logout').send({ refreshToken: u.refreshToken }).expect(200);
    const res = await feed(since.toISOString()).expect(200);
    expect(res.body).to.deep.equal({
      success: true,
      data: { items: [], until: new Date(pinned.getTime() - lagMs()).toISOString() },
      message: 'OK',
    });
    expect((await feedLater(since)).items).to.have.length(1);
  });

  it('lists the session a replayed refresh token revoked', async () => {
    const since = new Date(Date.now() - 1000);
    const u = await registerUser(t);
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: u.refreshToken }).expect(200);
    const later = new Date(Date.now() + (t.deps.settings.refreshReuseGraceSeconds + 1) * 1000);
    t.deps.clock = () => later;
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: u.refreshToken }).expect(401);
    t.deps.clock = () => new Date();
    expect((await feedLater(since)).items.map((i) => i.sid)).to.deep.equal([claimsOf(u.accessToken).sid]);
  });

  it('disabling an account (platform ADMIN) lists all its sessions; me, refresh and login refuse it', async () => {
    const since = new Date(Date.now() - 1000);
    const platform = await registerUser(t);
    await seedMembership(t, platform.id, 'platform', 'ADMIN');
    const u = await registerUser(t);
    const second = (await request(t.app).post('/v1/auth/login').send({ email: u.email, password: u.password })).body
      .data;
    const status = (body: object, headers = actor(platform.id, 'platform', 'ADMIN')) =>
      request(t.app).patch(`/v1/auth/users/${u.id}/status`).set(headers).send(body);
    expect(
      (await status({ status: 'DISABLED' }, actor(platform.id, u.defaultOrganizationId, 'ADMIN'))).status,
    ).to.equal(403);
    const res = await status({ status: 'DISABLED' });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ id: u.id, status: 'DISABLED' });
    await me(u.accessToken).expect(401);
    await me(second.accessToken).expect(401);
    await request(t.app).post('/v1/auth/refresh').send({ refreshToken: second.refreshToken }).expect(401);
    await request(t.app).post('/v1/auth/login').send({ email: u.email, password: u.password }).expect(403);
    const sids = (await feedLater(since)).items.filter((i) => i.userId === u.id).map((i) => i.sid);
    expect(sids.sort()).to.deep.equal([claimsOf(u.accessToken).sid, claimsOf(second.accessToken).sid].sort());
    await status({ status: 'ACTIVE' }).expect(200);
    await request(t.app).post('/v1/auth/login').send({ email: u.email, password: u.password }).expect(200);
  });

  it("refuses account status changes to a school's ADMIN and to forged headers (403)", async () => {
    const schoolAdmin = await registerUser(t);
    await seedMembership(t, schoolAdmin.id, 'school-a', 'ADMIN');
    const u = await registerUser(t);
    for (const headers of [actor(schoolAdmin.id, 'school-a', 'ADMIN'), actor(u.id, 'platform', 'ADMIN')]) {
      const res = await request(t.app).patch(`/v1/auth/users/${u.id}/status`).set(headers).send({ status: 'DISABLED' });
      expect(res.status).to.equal(403);
    }
    expect((await t.deps.models.User.findById(u.id).lean())?.status).to.equal('ACTIVE');
  });

  it('refuses the feed to a request that names a user (403), and a malformed or missing since (400)', async () => {
    for (const h of ['X-User-Id', 'X-Actor-Id']) {
      const res = await feed(new Date().toISOString(), { [h]: 'u1' });
      expect(res.status, h).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    }
    for (const since of ['yesterday', '2026-13-45T00:00:00Z', ''])
      expect((await feed(since)).status, since).to.equal(400);
    expect((await request(t.app).get('/v1/auth/revocations')).status).to.equal(400);
  });
});

describe('GET /v1/auth/revocations paging', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(`${import.meta.url}-paging`, { AUTH_REVOCATION_FEED_LAG_MS: '0' })));
  after(() => t.close());
  beforeEach(() => t.clear());

  const t0 = Date.parse('2026-02-01T00:00:00.000Z');
  const revoked = (n: number, at: (i: number) => number) =>
    t.deps.models.TokenFamily.insertMany(
      Array.from({ length: n }, (_, i) => ({
        _id: `fam-${String(i).padStart(5, '0')}`,
        userId: `user-${i % 7}`,
        revokedAt: new Date(at(i)),
        revokedReason: 'logout',
      })),
    );
  const page = async (since: string) =>
    (await request(t.app).get('/v1/auth/revocations').query({ since }).expect(200)).body.data as {
      items: Item[];
      until: string;
    };

  it('pages 2,500 revocations (several per millisecond) in order, at most 1,000 a page, none lost or split', async () => {
    await revoked(2500, (i) => t0 + Math.floor(i / 3));
    await t.deps.models.TokenFamily.create({ _id: 'live', userId: 'user-1', revokedAt: null, revokedReason: null });
    let since = new Date(t0 - 1).toISOString();
    const seen: string[] = [];
    for (let calls = 0; calls < 10; calls += 1) {
      const p = await page(since);
      expect(p.items.length).to.be.at.most(1000);
      for (const item of p.items)
        expect(Date.parse(item.revokedAt)).to.be.above(Date.parse(since)).and.at.most(Date.parse(p.until));
      seen.push(...p.items.map((i) => i.sid));
      if (p.items.length === 0) break;
      since = p.until;
    }
    expect(seen).to.deep.equal(Array.from({ length: 2500 }, (_, i) => `fam-${String(i).padStart(5, '0')}`));
  });

  it('never splits one millisecond across pages, even when it alone holds more than 1,000', async () => {
    await revoked(1200, () => t0);
    await t.deps.models.TokenFamily.create({
      _id: 'after',
      userId: 'u',
      revokedAt: new Date(t0 + 5),
      revokedReason: 'logout',
    });
    const first = await page(new Date(t0 - 1).toISOString());
    expect(first.items).to.have.length(1200);
    expect(first.until).to.equal(new Date(t0).toISOString());
    expect((await page(first.until)).items.map((i) => i.sid)).to.deep.equal(['after']);
  });
});
