import { expect } from 'chai';
import {
  backoffSeconds,
  backoffVerdict,
  currentWindow,
  inBackoff,
  loginKeys,
  strictest,
  windowVerdict,
} from '../src/domain/throttle.js';

const policy = { freeFailures: 5, maxDelaySeconds: 900, windowSeconds: 900 };
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const row = (count: number, lastAt = t0) => ({ count, lastAt, expiresAt: at(900) });

describe('backoff throttle (pure)', () => {
  it('backoffSeconds: free failures cost nothing, then 1 s doubling per failure, capped', () => {
    expect([0, 4, 5, 6, 7, 10].map((n) => backoffSeconds(n, policy))).to.deep.equal([0, 0, 1, 2, 4, 32]);
    expect(backoffSeconds(15, policy)).to.equal(900);
    expect(backoffSeconds(10_000, policy)).to.equal(900);
    expect(backoffSeconds(10_000, { ...policy, maxDelaySeconds: 30 })).to.equal(30);
  });

  it('backoffVerdict: allows below the free failures, and with no row', () => {
    expect(backoffVerdict(undefined, policy, t0)).to.deep.equal({ allowed: true });
    expect(backoffVerdict(row(4), policy, t0)).to.deep.equal({ allowed: true });
  });

  it('backoffVerdict: refuses until the earned wait since the last failure has passed, Retry-After rounded up', () => {
    expect(backoffVerdict(row(8), policy, at(0.5))).to.deep.equal({ allowed: false, retryAfterSeconds: 8 });
    expect(backoffVerdict(row(8), policy, at(7.99))).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
    expect(backoffVerdict(row(8), policy, at(8))).to.deep.equal({ allowed: true });
  });

  it('backoffVerdict and inBackoff: an expired row counts as no row (the quiet window forgets)', () => {
    const expired = { count: 50, lastAt: t0, expiresAt: at(10) };
    expect(backoffVerdict(expired, policy, at(10))).to.deep.equal({ allowed: true });
    expect(inBackoff(expired, policy, at(10))).to.equal(false);
    expect(inBackoff(expired, policy, at(9))).to.equal(true);
  });

  it('strictest: the longest wait wins; all allowed stays allowed', () => {
    expect(strictest([{ allowed: true }, { allowed: true }])).to.deep.equal({ allowed: true });
    expect(
      strictest([
        { allowed: false, retryAfterSeconds: 5 },
        { allowed: true },
        { allowed: false, retryAfterSeconds: 30 },
      ]),
    ).to.deep.equal({ allowed: false, retryAfterSeconds: 30 });
  });

  it('loginKeys: the pair, the address, the account and the known-address marker are distinct keys', () => {
    const k = loginKeys('a@b.vn', '192.0.2.1');
    expect(new Set(Object.values(k)).size).to.equal(4);
    expect(loginKeys('a@b.vn', '192.0.2.2').account).to.equal(k.account);
    expect(loginKeys('a@b.vn', '192.0.2.2').pair).to.not.equal(k.pair);
  });
});

describe('fixed windows (pure)', () => {
  it('currentWindow: names the same epoch-aligned window for every moment inside it', () => {
    const a = currentWindow('register:192.0.2.1', 600, new Date('2026-01-01T00:10:00.000Z'));
    const b = currentWindow('register:192.0.2.1', 600, new Date('2026-01-01T00:19:59.999Z'));
    expect(a).to.deep.equal(b);
    expect(a.start.toISOString()).to.equal('2026-01-01T00:10:00.000Z');
    expect(a.end.toISOString()).to.equal('2026-01-01T00:20:00.000Z');
    expect(currentWindow('register:192.0.2.1', 600, a.end).id).to.not.equal(a.id);
  });

  it('windowVerdict: allows up to max attempts, then refuses until the window ends', () => {
    const w = currentWindow('register:x', 600, t0);
    expect(windowVerdict(3, 3, w, at(1))).to.deep.equal({ allowed: true });
    expect(windowVerdict(4, 3, w, at(100.2))).to.deep.equal({ allowed: false, retryAfterSeconds: 500 });
  });
});
