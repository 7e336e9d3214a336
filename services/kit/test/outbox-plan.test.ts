import { expect } from 'chai';
import type { OutboxStampRow } from '../src/data/index.js';
import { afterFailure, backoffDelayMs, coalesceStamps, heldPrefix, selectDue } from '../src/data/outbox-plan.js';

const stamp = (u: string, key: string, id: string): OutboxStampRow => ({
  u,
  key,
  id,
  topic: 't',
  v: id,
  at: new Date(0),
});
const now = new Date('2026-01-01T00:00:10Z');
const entry = (id: string, key: string, seq: number, extra: { due?: number; leaseUntil?: number } = {}) => ({
  _id: id,
  key,
  seq,
  nextAttemptAt: new Date(extra.due ?? 0),
  leaseUntil: extra.leaseUntil === undefined ? null : new Date(extra.leaseUntil),
});

describe('outbox plan (pure)', () => {
  it('coalesceStamps: one unit\u2019s stamps for one key keep only the last, at the last one\u2019s place', () => {
    const out = coalesceStamps([
      stamp('A', 'k', 'a1'),
      stamp('B', 'k', 'b1'),
      stamp('A', 'k', 'a2'),
      stamp('A', 'j', 'a3'),
    ]);
    expect(out.map((s) => s.id)).to.deep.equal(['b1', 'a2', 'a3']);
  });

  it('selectDue: takes each key\u2019s free run from its oldest entry and stops at a leased, backing-off or dead-blocked one', () => {
    const window = [
      entry('k1', 'k', 1),
      entry('j1', 'j', 2, { leaseUntil: now.getTime() + 1000 }),
      entry('k2', 'k', 3),
      entry('j2', 'j', 4),
      entry('m1', 'm', 5, { due: now.getTime() + 1 }),
      entry('m2', 'm', 6),
      entry('d1', 'd', 7),
      entry('x1', 'x', 8, { leaseUntil: now.getTime() - 1 }),
    ];
    expect(selectDue(window, new Set(['d']), now, 10)).to.deep.equal(['k1', 'k2', 'x1']);
    expect(selectDue(window, new Set(), now, 2)).to.deep.equal(['k1', 'k2']);
  });

  it('heldPrefix: publishes per key only the leading run actually held and releases what follows a lost entry', () => {
    const req = [entry('k1', 'k', 1), entry('k2', 'k', 2), entry('k3', 'k', 3), entry('j1', 'j', 4)];
    const { publish, release } = heldPrefix(req, new Set(['k1', 'k3', 'j1']));
    expect(publish.map((e) => e._id)).to.deep.equal(['k1', 'j1']);
    expect(release.map((e) => e._id)).to.deep.equal(['k3']);
  });

  it('backoff doubles from the base up to the cap; the bound makes an entry dead with its error', () => {
    const policy = { baseMs: 100, capMs: 500, maxAttempts: 5 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy))).to.deep.equal([100, 200, 400, 500, 500]);
    expect(afterFailure({ attempts: 0 }, 'boom', policy, now)).to.deep.equal({
      status: 'pending',
      attempts: 1,
      lastError: 'boom',
      nextAttemptAt: new Date(now.getTime() + 100),
    });
    expect(afterFailure({ attempts: 4 }, 'boom', policy, now)).to.deep.equal({
      status: 'dead',
      attempts: 5,
      lastError: 'boom',
    });
  });
});
