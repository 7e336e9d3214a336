import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../src/envelope.js';

const req = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('gateway: client address for the rate limit (pure)', () => {
  it('is the peer unless proxies are trusted', () => {
    expect(clientAddress(req('10.0.0.1', '1.1.1.1'), 0)).to.equal('10.0.0.1');
    expect(clientAddress(req('10.0.0.1'), 2)).to.equal('10.0.0.1');
  });

  it('walks back as many hops as are trusted, as Express req.ip does', () => {
    expect(clientAddress(req('10.0.0.1', '6.6.6.6, 1.1.1.1'), 1)).to.equal('1.1.1.1');
    expect(clientAddress(req('10.0.0.1', '6.6.6.6, 1.1.1.1'), 2)).to.equal('6.6.6.6');
    expect(clientAddress(req('10.0.0.1', '6.6.6.6,1.1.1.1'), 5)).to.equal('6.6.6.6');
  });
});
