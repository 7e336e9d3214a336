import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { paceEnabled, paceVerdict, watchBodyPace, type BodyCut, type BodyPace } from '../src/core/index.js';

const PACE: BodyPace = { graceMs: 20_000, minBytesPerSecond: 1000, idleMs: 10_000 };

describe('kit: body pace (pure)', () => {
  it('a body within its grace and never idle passes; the next check is at the earliest deadline', () => {
    const v = paceVerdict(PACE, { startedMs: 0, lastChunkMs: 5000, received: 0 }, 6000);
    // idle deadline 15 000, rate deadline 20 000: the idle one is first
    expect(v).to.deep.equal({ ok: true, checkInMs: 9000 });
  });

  it('a body idle for idleMs is cut as BODY_IDLE, whatever it earned before', () => {
    const progress = { startedMs: 0, lastChunkMs: 1000, received: 10_000_000 };
    expect(paceVerdict(PACE, progress, 10_999).ok).to.equal(true);
    expect(paceVerdict(PACE, progress, 11_000)).to.deep.equal({ ok: false, reason: 'BODY_IDLE' });
  });

  it('each minBytesPerSecond bytes add a second to the grace; a trickle is cut as BODY_TOO_SLOW', () => {
    // 5000 bytes earn 5 s: the rate deadline is 25 s
    const trickle = { startedMs: 0, lastChunkMs: 24_000, received: 5000 };
    expect(paceVerdict(PACE, trickle, 24_999).ok).to.equal(true);
    expect(paceVerdict(PACE, trickle, 25_000)).to.deep.equal({ ok: false, reason: 'BODY_TOO_SLOW' });
    // one byte every two seconds never earns its keep
    const byteEvery2s = { startedMs: 0, lastChunkMs: 20_000, received: 10 };
    expect(paceVerdict(PACE, byteEvery2s, 20_010)).to.deep.equal({ ok: false, reason: 'BODY_TOO_SLOW' });
  });

  it('0 turns a rule off; both off is no watch and no check', () => {
    const noIdle = { ...PACE, idleMs: 0 };
    expect(paceVerdict(noIdle, { startedMs: 0, lastChunkMs: 0, received: 100_000 }, 60_000).ok).to.equal(true);
    const noRate = { ...PACE, minBytesPerSecond: 0 };
    expect(paceVerdict(noRate, { startedMs: 0, lastChunkMs: 59_000, received: 0 }, 60_000).ok).to.equal(true);
    expect(
      paceVerdict({ ...PACE, graceMs: 0 }, { startedMs: 0, lastChunkMs: 59_000, received: 0 }, 60_000).ok,
    ).to.equal(true);
    const off = { graceMs: 0, minBytesPerSecond: 0, idleMs: 0 };
    expect(paceEnabled(off)).to.equal(false);
    expect(paceVerdict(off, { startedMs: 0, lastChunkMs: 0, received: 0 }, 1e9)).to.deep.equal({
      ok: true,
      checkInMs: undefined,
    });
  });

  it('the watch counts the bytes, cuts once, and ends by itself when the body ends', async () => {
    const pace: BodyPace = { graceMs: 0, minBytesPerSecond: 0, idleMs: 30 };
    const idle = new PassThrough();
    const cut = new Promise<BodyCut>((resolve) => watchBodyPace(idle, pace, resolve));
    idle.write('abc');
    expect(await cut).to.equal('BODY_IDLE');

    const ended = new PassThrough();
    const cuts: BodyCut[] = [];
    const watch = watchBodyPace(ended, pace, (r) => cuts.push(r));
    ended.end('hello');
    await new Promise((r) => ended.once('end', r));
    await new Promise((r) => setTimeout(r, 60));
    expect(cuts).to.deep.equal([]);
    expect(watch.received).to.equal(5);
  });
});
