import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { backoffMs, withTimeout, canonicalDigest, canonicalJson } from '../src/core/index.js';

const rejection = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
};

describe('kit timing and digest helpers (pure)', () => {
  it('backoffMs doubles per failure from initialMs and stops at maxMs', () => {
    const steps = { initialMs: 100, maxMs: 500 };
    expect([0, 1, 2, 3, 4, 5].map((f) => backoffMs(steps, f))).to.deep.equal([100, 100, 200, 400, 500, 500]);
    // The operator's keyed queue: 250 ms doubling, capped at 30 s.
    const operator = { initialMs: 250, maxMs: 30_000 };
    expect([1, 2, 3, 4, 10, 50].map((f) => backoffMs(operator, f))).to.deep.equal([
      250, 500, 1000, 2000, 30_000, 30_000,
    ]);
  });

  it('withTimeout passes through a value or a rejection that comes first', async () => {
    expect(await withTimeout(Promise.resolve(7), 1000)).to.equal(7);
    const err = await rejection(withTimeout(Promise.reject(new Error('boom')), 1000));
    expect(err.message).to.equal('boom');
  });

  it('withTimeout rejects with its message once the time is up, default or given', async () => {
    const never = new Promise<never>(() => undefined);
    expect((await rejection(withTimeout(never, 5))).message).to.equal('timed out after 5 ms');
    expect((await rejection(withTimeout(never, 5, 'no answer within 5 ms'))).message).to.equal('no answer within 5 ms');
  });

  it('withTimeout swallows a later rejection of the losing work (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let fail!: (e: Error) => void;
      const late = new Promise<never>((_, reject) => (fail = reject));
      await rejection(withTimeout(late, 5));
      fail(new Error('too late'));
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('canonicalDigest is the SHA-256 hex of canonicalJson: key order ignored', () => {
    const value = { b: [1, { y: 2, x: 'é' }], a: null, skip: undefined };
    expect(canonicalDigest(value)).to.equal(createHash('sha256').update(canonicalJson(value)).digest('hex'));
    expect(canonicalDigest(value)).to.equal(canonicalDigest({ a: null, b: [1, { x: 'é', y: 2 }] }));
    expect(canonicalDigest({ a: 1 })).to.equal('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});
