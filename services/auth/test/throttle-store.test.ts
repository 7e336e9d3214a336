import { expect } from 'chai';
import { currentWindow } from '../src/domain/throttle.js';
import { clearFailures, readWindows, recordFailure } from '../src/store/throttle-store.js';
import { startAuth, type TestAuth } from './support.js';

describe('throttle store (real MongoDB)', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const policy = { maxFailures: 5, windowSeconds: 600 };

  it('counts every one of 20 concurrent failures on a fresh window (parallel guesses cannot slip through)', async () => {
    const w = currentWindow('account:race@thpt.edu.vn', policy, new Date());
    await Promise.all(Array.from({ length: 20 }, () => recordFailure(t.deps.models, w)));
    expect((await readWindows(t.deps.models, [w])).get(w.id)).to.deep.equal({ count: 20, windowStart: w.start });
  });

  it('clearFailures empties only the given window', async () => {
    const a = currentWindow('account:a@thpt.edu.vn', policy, new Date());
    const b = currentWindow('address:192.0.2.1', policy, new Date());
    await recordFailure(t.deps.models, a);
    await recordFailure(t.deps.models, b);
    await clearFailures(t.deps.models, a);
    const left = await readWindows(t.deps.models, [a, b]);
    expect([...left.keys()]).to.deep.equal([b.id]);
  });
});
