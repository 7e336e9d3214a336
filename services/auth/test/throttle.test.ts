import { expect } from 'chai';
import { currentWindow, strictest, throttleVerdict } from '../src/domain/throttle.js';

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

describe('currentWindow (pure)', () => {
  const policy10m = { maxFailures: 5, windowSeconds: 600 };

  it('names the same epoch-aligned window for every moment inside it', () => {
    const a = currentWindow('account:a@b.vn', policy10m, new Date('2026-01-01T00:10:00.000Z'));
    const b = currentWindow('account:a@b.vn', policy10m, new Date('2026-01-01T00:19:59.999Z'));
    expect(a).to.deep.equal(b);
    expect(a.start.toISOString()).to.equal('2026-01-01T00:10:00.000Z');
    expect(a.end.toISOString()).to.equal('2026-01-01T00:20:00.000Z');
  });

  it('moves to a new window at the boundary, and keeps keys apart', () => {
    const a = currentWindow('account:a@b.vn', policy10m, new Date('2026-01-01T00:19:59.999Z'));
    const b = currentWindow('account:a@b.vn', policy10m, new Date('2026-01-01T00:20:00.000Z'));
    expect(b.id).to.not.equal(a.id);
    expect(currentWindow('address:1.2.3.4', policy10m, a.start).id).to.not.equal(a.id);
  });
});
