import { expect } from 'chai';
import type { Caller } from '../src/identity.js';
import { createRevocationSet } from '../src/revocation.js';
import { createOpenStreams, sessionEndedEvent, type StreamEnd } from '../src/streams.js';

const NOW = 1_800_000_000_000;
const caller = (sid: string, expInSeconds = 900): Caller => ({
  userId: 'u1',
  role: 'ADMIN',
  sid,
  iat: NOW / 1000 - 60,
  exp: NOW / 1000 + expInSeconds,
});

describe('gateway streams: open event streams end with their session', () => {
  it('a sweep ends the streams of revoked sessions and expired tokens, each once, and keeps the rest', () => {
    const streams = createOpenStreams();
    const revocations = createRevocationSet(3600_000);
    const ends: Array<[string, StreamEnd]> = [];
    streams.open(caller('a'), (r) => ends.push(['a', r]));
    streams.open(caller('b'), (r) => ends.push(['b', r]));
    streams.open(caller('c', 5), (r) => ends.push(['c', r]));
    expect(streams.sweep(revocations, NOW)).to.deep.equal({ revoked: 0, expired: 0 });
    revocations.add([{ sid: 'a', userId: 'u1', revokedAt: new Date(NOW).toISOString() }], NOW);
    expect(streams.sweep(revocations, NOW + 6000)).to.deep.equal({ revoked: 1, expired: 1 });
    expect(streams.sweep(revocations, NOW + 7000)).to.deep.equal({ revoked: 0, expired: 0 });
    expect(ends).to.deep.equal([
      ['a', 'revoked'],
      ['c', 'expired'],
    ]);
    expect(streams.size).to.equal(1);
  });

  it('a stream forgotten when it closed is never ended', () => {
    const streams = createOpenStreams();
    let ended = 0;
    const forget = streams.open(caller('a', 1), () => (ended += 1));
    forget();
    streams.sweep(undefined, NOW + 5000);
    expect([ended, streams.size]).to.deep.equal([0, 0]);
  });

  it('the last event names the reason as an SSE event', () => {
    expect(sessionEndedEvent('expired')).to.equal('event: session-ended\ndata: {"reason":"expired"}\n\n');
  });
});
