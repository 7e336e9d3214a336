import { expect } from 'chai';
import request from 'supertest';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('POST /v1/auth/login', () => {
  let t: TestAuth;
  before(async () => {
    t = await startAuth(import.meta.url, {
      AUTH_LOGIN_FAILURES_PER_PAIR: '3',
      AUTH_LOGIN_FAILURES_PER_ADDRESS: '5',
      AUTH_LOGIN_FAILURES_PER_ACCOUNT: '6',
      AUTH_LOGIN_ACCOUNT_MAX_DELAY_SECONDS: '30',
      AUTH_LOGIN_WINDOW_SECONDS: '600',
      TRUST_PROXY: '1',
    });
  });
  after(() => t.close());
  beforeEach(async () => {
    await t.clear();
    // Mid-window on a pinned clock: a fixed-window boundary can never fall inside a test.
    const windowMs = 600_000;
    const pinned = new Date(Math.floor(Date.now() / windowMs) * windowMs + windowMs / 2);
    t.deps.clock = () => pinned;
  });

  // TRUST_PROXY=1: X-Forwarded-For names the client, so one test can be several addresses.
  const login = (body: object, from = '203.0.113.10') =>
    request(t.app).post('/v1/auth/login').set('X-Forwarded-For', from).send(body);
  const registered = async (over: Record<string, unknown> = {}) => {
    const body = newUser(over) as { email: string; password: string };
    await request(t.app).post('/v1/auth/register').send(body).expect(201);
    return { email: body.email, password: body.password };
  };

  it('returns the session with message "Logged in" for a trimmed, upper-case email', async () => {
    const u = await registered({ email: 'hoc.sinh@thpt.edu.vn' });
    const res = await login({ email: '  HOC.SINH@thpt.edu.vn  ', password: u.password });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, message: 'Logged in' });
    expect(res.body.data).to.include.keys(['user', 'accessToken', 'refreshToken', 'tokenType', 'expiresIn']);
    expect(res.body.data.user.email).to.equal('hoc.sinh@thpt.edu.vn');
  });

  it('stores a new refresh-token hash in a new session family on every login', async () => {
    const u = await registered();
    await login(u).expect(200);
    await login(u).expect(200);
    expect(await t.deps.models.RefreshToken.countDocuments()).to.equal(3);
    expect(await t.deps.models.TokenFamily.countDocuments()).to.equal(3);
  });

  it('fails an unknown email exactly like a wrong password (same status and body)', async () => {
    const u = await registered();
    const wrong = await login({ email: u.email, password: 'not-the-password' }, '203.0.113.1');
    const unknown = await login({ email: 'nobody@thpt.edu.vn', password: 'not-the-password' }, '203.0.113.2');
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(unknown.body).to.deep.equal(wrong.body);
    expect(wrong.body).to.deep.equal({
      success: false,
      message: 'Invalid email or password',
      error: { code: 'UNAUTHENTICATED' },
    });
  });

  it('accepts the password typed with combining diacritics (NFD) for one registered precomposed (NFC)', async () => {
    const u = await registered({ password: 'Học sinh giỏi 2026'.normalize('NFC') });
    await login({ email: u.email, password: u.password.normalize('NFD') }).expect(200);
  });

  it('never matches a password longer than 72 bytes, even when its first 72 bytes are the password', async () => {
    const u = await registered({ password: 'k'.repeat(72) });
    await login({ email: u.email, password: 'k'.repeat(72) }).expect(200);
    await login({ email: u.email, password: 'k'.repeat(72) + 'extra' }).expect(401);
  });

  const wrong = (email: string, from: string) => login({ email, password: 'wrong-password' }, from);
  const advance = (seconds: number) => {
    const at = new Date(t.deps.clock().getTime() + seconds * 1000);
    t.deps.clock = () => at;
  };

  it('backs off an (account, address) pair after 3 failures: 429 with Retry-After, even for the right password', async () => {
    const u = await registered();
    for (let i = 0; i < 3; i += 1) await wrong(u.email, '198.51.100.7').expect(401);
    const res = await login(u, '198.51.100.7');
    expect(res.status).to.equal(429);
    expect(res.body.error.code).to.equal('RATE_LIMITED');
    expect(res.headers['retry-after']).to.equal('1');
    expect(res.body.error.details).to.deep.equal({ retryAfterSeconds: 1 });
    advance(1);
    await login(u, '198.51.100.7').expect(200);
  });

  it('doubles the wait with each further failure of the pair, up to the window', async () => {
    const u = await registered();
    for (let i = 0; i < 3; i += 1) await wrong(u.email, '198.51.100.8').expect(401);
    const waits: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const refused = await wrong(u.email, '198.51.100.8').expect(429);
      waits.push(Number(refused.headers['retry-after']));
      advance(waits[i]!);
      await wrong(u.email, '198.51.100.8').expect(401);
    }
    expect(waits).to.deep.equal([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600]);
  });

  it('60 wrong passwords for the victim from address X never stop the victim logging in from address Y', async () => {
    const victim = await registered();
    let failures = 0;
    while (failures < 60) {
      const res = await wrong(victim.email, '203.0.113.66');
      if (res.status === 401) failures += 1;
      else advance(Number(res.headers['retry-after']));
    }
    const owner = await login(victim, '198.51.100.200');
    expect(owner.status, JSON.stringify(owner.body)).to.equal(200);
    await login(victim, '203.0.113.66').expect(429);
  });

  it('does not throttle other accounts from the same address range when one account is attacked', async () => {
    const victim = await registered();
    const other = await registered();
    for (let i = 0; i < 3; i += 1) await wrong(victim.email, `198.51.100.${i}`).expect(401);
    await login(other, '198.51.100.50').expect(200);
  });

  it('slows (never locks) an account guessed at from many addresses; an address it logged in from is exempt', async () => {
    const victim = await registered();
    await login(victim, '192.0.2.200').expect(200);
    // 6 free failures for the account across addresses (AUTH_LOGIN_FAILURES_PER_ACCOUNT), each address under its own 3.
    for (let i = 0; i < 6; i += 1) await wrong(victim.email, `203.0.113.${100 + i}`).expect(401);
    const fresh = await login(victim, '198.51.100.201');
    expect(fresh.status).to.equal(429);
    expect(Number(fresh.headers['retry-after'])).to.equal(1);
    await login(victim, '192.0.2.200').expect(200);
    // However long the guessing goes on, the account-wide wait stays within its cap (30 s).
    for (let i = 0; i < 20; i += 1) {
      const res = await wrong(victim.email, `203.0.113.${120 + i}`);
      if (res.status === 429) {
        expect(Number(res.headers['retry-after'])).to.be.within(1, 30);
        advance(Number(res.headers['retry-after']));
      }
    }
    const slowed = await login(victim, '198.51.100.202');
    const wait = slowed.status === 429 ? Number(slowed.headers['retry-after']) : 0;
    expect(wait).to.be.within(0, 30);
    advance(wait);
    await login(victim, '198.51.100.202').expect(200);
  });

  it("admits exactly one of 10 parallel guesses when a pair's wait ends (the turn is claimed atomically)", async () => {
    const u = await registered();
    for (let i = 0; i < 3; i += 1) await wrong(u.email, '198.51.100.9').expect(401);
    advance(1);
    const results = await Promise.all(Array.from({ length: 10 }, () => wrong(u.email, '198.51.100.9')));
    expect(results.map((r) => r.status).sort()).to.deep.equal([401, 429, 429, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('throttles a client address after 5 failures across many accounts (password spraying)', async () => {
    const u = await registered();
    for (let i = 0; i < 5; i += 1)
      await login({ email: `spray${i}@thpt.edu.vn`, password: 'Password1' }, '192.0.2.7').expect(401);
    const res = await login(u, '192.0.2.7');
    expect(res.status).to.equal(429);
    await login(u, '192.0.2.8').expect(200);
  });

  it('starts the pair over after a successful login', async () => {
    const u = await registered();
    await wrong(u.email, '198.51.100.1').expect(401);
    await wrong(u.email, '198.51.100.1').expect(401);
    await login(u, '198.51.100.1').expect(200);
    await wrong(u.email, '198.51.100.1').expect(401);
    await wrong(u.email, '198.51.100.1').expect(401);
    await login(u, '198.51.100.1').expect(200);
  });

  it('answers 429 at once when the hashing queue is full, instead of queueing without bound', async () => {
    const u = await registered();
    const saturate: Array<Promise<unknown>> = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { AUTH_HASH_CONCURRENCY: slots, AUTH_HASH_QUEUE: queue } = t.config;
    for (let i = 0; i < slots + queue; i += 1) saturate.push(t.deps.limiter.run(() => held));
    const res = await login(u);
    release();
    await Promise.all(saturate);
    expect(res.status).to.equal(429);
    expect(res.headers['retry-after']).to.equal('1');
    await login(u).expect(200);
  });

  it('refuses a disabled account with 403 after a correct password', async () => {
    const u = await registered();
    await t.deps.models.User.updateOne({ email: u.email }, { $set: { status: 'DISABLED' } });
    const res = await login(u);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });

  it('answers an empty or blank email like an unknown one: 401, not 400', async () => {
    for (const email of ['', '   ', 'x']) {
      const res = await login({ email, password: 'whatever-1' }, '203.0.113.50');
      expect(res.status, email).to.equal(401);
      expect(res.body.message).to.equal('Invalid email or password');
    }
  });

  it('refuses an operator-shaped email (NoSQL injection) with 400, not a query', async () => {
    await registered();
    const res = await login({ email: { $ne: null }, password: { $ne: null } });
    expect(res.status).to.equal(400);
    expect((res.body.error.details as Array<{ path: string }>).map((d) => d.path).sort()).to.deep.equal([
      'email',
      'password',
    ]);
  });
});
