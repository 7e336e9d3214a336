import { expect } from 'chai';
import { currentWindow } from '../src/domain/throttle.js';
import { claimTurn, clearThrottle, countAttempt, readThrottles, recordFailure } from '../src/store/throttle-store.js';
import { startAuth, type TestAuth } from './support.js';

describe('throttle store (real MongoDB)', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const now = new Date('2026-03-01T08:00:00Z');
  const later = (s: number) => new Date(now.getTime() + s * 1000);

  it('counts every one of 20 concurrent failures on a fresh key (parallel guesses cannot slip through)', async () => {
    await Promise.all(Array.from({ length: 20 }, () => recordFailure(t.deps.models, 'pair:race', now, 900)));
    expect((await readThrottles(t.deps.models, ['pair:race'])).get('pair:race')).to.deep.equal({
      count: 20,
      lastAt: now,
      expiresAt: later(900),
    });
  });

  it('starts an expired key again at 1, and a live one keeps counting with its window extended', async () => {
    await recordFailure(t.deps.models, 'k', now, 60);
    await recordFailure(t.deps.models, 'k', later(30), 60);
    expect((await readThrottles(t.deps.models, ['k'])).get('k')?.count).to.equal(2);
    await recordFailure(t.deps.models, 'k', later(80), 60);
    expect((await readThrottles(t.deps.models, ['k'])).get('k')).to.deep.include({ count: 3, expiresAt: later(140) });
    await Promise.all([1, 2, 3].map(() => recordFailure(t.deps.models, 'k', later(500), 60)));
    expect((await readThrottles(t.deps.models, ['k'])).get('k')).to.deep.include({ count: 3, lastAt: later(500) });
  });

  it('claimTurn: of 10 concurrent claims on the row as read, exactly one wins', async () => {
    for (let i = 0; i < 6; i += 1) await recordFailure(t.deps.models, 'pair:x', now, 900);
    const seen = (await readThrottles(t.deps.models, ['pair:x'])).get('pair:x')!;
    const wins = await Promise.all(
      Array.from({ length: 10 }, () => claimTurn(t.deps.models, 'pair:x', seen, later(5))),
    );
    expect(wins.filter(Boolean)).to.have.length(1);
  });

  it('countAttempt: counts concurrent attempts in one window exactly, each seeing its own count', async () => {
    const w = currentWindow('register:192.0.2.1', 600, now);
    const counts = await Promise.all(Array.from({ length: 15 }, () => countAttempt(t.deps.models, w, now)));
    expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it('clearThrottle empties only the given key', async () => {
    await recordFailure(t.deps.models, 'a', now, 60);
    await recordFailure(t.deps.models, 'b', now, 60);
    await clearThrottle(t.deps.models, 'a');
    expect([...(await readThrottles(t.deps.models, ['a', 'b'])).keys()]).to.deep.equal(['b']);
  });
});
