import { expect } from 'chai';
import { createRateLimiter } from '../src/rate-limit.js';

describe('gateway: rate limiter (pure)', () => {
  it('allows a burst, then refuses with the seconds until a token is back', () => {
    const rl = createRateLimiter({ ratePerSecond: 0.5, burst: 3 });
    expect([1, 2, 3].map(() => rl.take('a', 0).ok)).to.deep.equal([true, true, true]);
    expect(rl.take('a', 0)).to.deep.equal({ ok: false, retryAfterSeconds: 2 });
    expect(rl.take('a', 1000)).to.deep.equal({ ok: false, retryAfterSeconds: 1 });
    expect(rl.take('a', 2000).ok).to.equal(true);
  });

  it('keeps clients apart', () => {
    const rl = createRateLimiter({ ratePerSecond: 1, burst: 1 });
    expect(rl.take('a', 0).ok).to.equal(true);
    expect(rl.take('a', 0).ok).to.equal(false);
    expect(rl.take('b', 0).ok).to.equal(true);
  });

  it('refills up to the burst only', () => {
    const rl = createRateLimiter({ ratePerSecond: 10, burst: 2 });
    rl.take('a', 0);
    const after = [1, 2, 3].map(() => rl.take('a', 3_600_000).ok);
    expect(after).to.deep.equal([true, true, false]);
  });

  it('a clock going back does not mint tokens', () => {
    const rl = createRateLimiter({ ratePerSecond: 1, burst: 1 });
    expect(rl.take('a', 10_000).ok).to.equal(true);
    expect(rl.take('a', 0).ok).to.equal(false);
    expect(rl.take('a', 10_500).ok).to.equal(false);
  });

  it('rate 0 is off', () => {
    const rl = createRateLimiter({ ratePerSecond: 0, burst: 1 });
    expect([1, 2, 3].every(() => rl.take('a', 0).ok)).to.equal(true);
  });

  it('stays bounded: idle clients go first, then the oldest', () => {
    const rl = createRateLimiter({ ratePerSecond: 1, burst: 2, maxClients: 3 });
    rl.take('a', 0);
    rl.take('b', 0);
    rl.take('c', 0);
    rl.take('d', 5000); // a, b, c are full again by now: forgotten
    expect(rl.size).to.equal(1);
    for (const k of ['e', 'f', 'g']) rl.take(k, 5000);
    expect(rl.size).to.equal(3);
  });
});
