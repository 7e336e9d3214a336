import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { consumedVerdict } from '../src/domain/refresh.js';
import { newUser, startAuth, type TestAuth } from './support.js';

const RACED = 'Refresh token was just used by a concurrent request; use the newest refresh token';
const REUSED = 'Refresh token was already used; the session has been revoked';

describe('refresh: two tabs at once versus a replay', () => {
  let t: TestAuth;
  let now: Date;
  before(async () => (t = await startAuth(import.meta.url, { AUTH_REFRESH_REUSE_GRACE_SECONDS: '5' })));
  after(() => t.close());
  beforeEach(async () => {
    await t.clear();
    now = new Date();
    t.deps.clock = () => now;
  });

  const session = async () => (await request(t.app).post('/v1/auth/register').send(newUser()).expect(201)).body.data;
  const refresh = (token: string) => request(t.app).post('/v1/auth/refresh').send({ refreshToken: token });
  const jtiOf = (token: string) => (jwt.decode(token) as { jti: string }).jti;
  const later = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));
  const family = async (userId: string) => t.deps.models.TokenFamily.findOne({ userId }).lean();
  const reuseCount = async () => {
    const text = (await request(t.app).get('/metrics').expect(200)).text;
    return Number(/^auth_refresh_token_reuse_total (\d+)/m.exec(text)?.[1]);
  };

  it('of 20 concurrent refreshes one wins and the session survives the 19 losers', async () => {
    const s = await session();
    const before = await reuseCount();
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(s.refreshToken)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).to.have.length(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(losers.map((r) => r.status)).to.deep.equal(Array(19).fill(401));
    for (const r of losers) expect(r.body).to.deep.include({ success: false, message: RACED });
    expect((await family(s.user.id))?.revokedAt).to.equal(null);
    expect(await reuseCount()).to.equal(before);
    // Only the winner's successor is alive: every loser's stored successor was revoked.
    const alive = await t.deps.models.RefreshToken.find({ userId: s.user.id, revokedAt: null }).lean();
    expect(alive.map((r) => r.jti)).to.deep.equal([jtiOf(winners[0]!.body.data.refreshToken)]);
    await refresh(winners[0]!.body.data.refreshToken).expect(200);
  });

  it('refuses a token presented again within the grace period without revoking the session', async () => {
    const s = await session();
    const next = (await refresh(s.refreshToken).expect(200)).body.data;
    later(4);
    const again = await refresh(s.refreshToken);
    expect(again.status).to.equal(401);
    expect(again.body).to.deep.equal({ success: false, message: RACED, error: { code: 'UNAUTHENTICATED' } });
    expect((await family(s.user.id))?.revokedAt).to.equal(null);
    await refresh(next.refreshToken).expect(200);
  });

  it('treats a token presented after the grace period as a replay: the whole session is revoked', async () => {
    const s = await session();
    const before = await reuseCount();
    const next = (await refresh(s.refreshToken).expect(200)).body.data;
    later(6);
    const replay = await refresh(s.refreshToken);
    expect(replay.status).to.equal(401);
    expect(replay.body.message).to.equal(REUSED);
    expect((await family(s.user.id))?.revokedReason).to.equal('reuse_detected');
    expect(await reuseCount()).to.equal(before + 1);
    await refresh(next.refreshToken).expect(401);
  });

  it('with a grace of 0 every second presentation is a replay', async () => {
    const s = await session();
    t.deps.settings.refreshReuseGraceSeconds = 0;
    try {
      await refresh(s.refreshToken).expect(200);
      expect((await refresh(s.refreshToken)).body.message).to.equal(REUSED);
    } finally {
      t.deps.settings.refreshReuseGraceSeconds = 5;
    }
  });
});

describe('consumedVerdict', () => {
  const at = new Date('2026-11-21T10:00:00Z');
  const plus = (ms: number) => new Date(at.getTime() + ms);
  const rotated = { revokedAt: at, revokedReason: 'rotated' };

  it('is a race inside the grace period and a replay from its end on', () => {
    expect(consumedVerdict(rotated, plus(4999), 5)).to.equal('raced');
    expect(consumedVerdict(rotated, plus(5000), 5)).to.equal('replayed');
    expect(consumedVerdict(rotated, plus(-50), 5)).to.equal('raced');
    expect(consumedVerdict(rotated, at, 0)).to.equal('replayed');
  });

  it('is neither for a token ended by logout, a revoked family or a lost race', () => {
    for (const reason of ['logout', 'reuse_detected', 'race_lost']) {
      expect(consumedVerdict({ revokedAt: at, revokedReason: reason }, plus(1), 5)).to.equal('dead');
    }
  });
});
