import { expect } from 'chai';
import { strictest, throttleVerdict } from '../src/domain/throttle.js';

const policy = { maxFailures: 3, windowSeconds: 60 };
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

describe('throttleVerdict (pure)', () => {
  it('allows with no window and below the limit', () => {
    expect(throttleVerdict(null, policy, t0)).to.deep.equal({ allowed: true });
    expect(throttleVerdict({ count: 2, windowStart: t0 }, policy, at(10))).to.deep.equal({ allowed: true });
  });

  it('blocks at the limit until the window ends, with Retry-After rounded up', () => {
    expect(throttleVerdict({ count: 3, windowStart: t0 }, policy, at(10.2))).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 50,
    });
    expect(throttleVerdict({ count: 9, windowStart: t0 }, policy, at(59.9))).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 1,
    });
  });

  it('allows again once the window is over', () => {
    expect(throttleVerdict({ count: 9, windowStart: t0 }, policy, at(60))).to.deep.equal({ allowed: true });
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
});
