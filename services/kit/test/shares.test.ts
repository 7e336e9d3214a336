import { expect } from 'chai';
import { createShares } from '../src/core/index.js';

describe('kit: shares of a pool (pure)', () => {
  const caps = { total: 4, perHolder: { client: 2, organization: 3 } };

  it('one client gets its share, the others the rest; past the total every holder is refused', () => {
    const s = createShares<'client' | 'organization'>(caps);
    const a = { client: 'teacher-a', organization: 'org-a' };
    expect(s.acquire(a).ok).to.equal(true);
    expect(s.acquire(a).ok).to.equal(true);
    expect(s.acquire(a)).to.deep.equal({ ok: false, limit: 'client', max: 2 });
    // another teacher of the same school: the school's share is 3
    expect(s.acquire({ client: 'teacher-b', organization: 'org-a' }).ok).to.equal(true);
    expect(s.acquire({ client: 'teacher-c', organization: 'org-a' })).to.deep.equal({
      ok: false,
      limit: 'organization',
      max: 3,
    });
    expect(s.acquire({ client: 'teacher-d', organization: 'org-d' }).ok).to.equal(true);
    expect(s.acquire({ client: 'teacher-e', organization: 'org-e' })).to.deep.equal({
      ok: false,
      limit: 'total',
      max: 4,
    });
    expect(s.held()).to.equal(4);
    expect(s.held('organization', 'org-a')).to.equal(3);
  });

  it('release is idempotent and forgets holders with nothing held; a refused acquire counts nothing', () => {
    const s = createShares<'client' | 'organization'>(caps);
    const one = s.acquire({ client: 'c' });
    const two = s.acquire({ client: 'c' });
    expect(s.acquire({ client: 'c' }).ok).to.equal(false);
    expect(s.held('client', 'c')).to.equal(2);
    if (!one.ok || !two.ok) throw new Error('expected slots');
    one.release();
    one.release();
    expect(s.held('client', 'c')).to.equal(1);
    two.release();
    expect([s.held(), s.held('client', 'c')]).to.deep.equal([0, 0]);
  });

  it('a holder kind left out, or a cap of 0, is not capped', () => {
    const s = createShares<'client' | 'organization'>({ total: 0, perHolder: { client: 0 } });
    for (let i = 0; i < 100; i += 1) expect(s.acquire({ client: 'c', organization: 'o' }).ok).to.equal(true);
    expect(s.held()).to.equal(100);
  });
});
