import { expect } from 'chai';
import type http from 'node:http';
import { Registry } from 'prom-client';
import { boundPort, startHttpServer } from '../src/http.js';

// The operator's /metrics over HTTP, as a scraper (or anyone else on the network) would call it.
describe('operator HTTP server', () => {
  const token = 'metrics-token-0123456789abcdef';
  let guarded: http.Server;
  let open: http.Server;
  const state = { leader: () => true, synced: () => true };

  before(async () => {
    guarded = await startHttpServer(0, new Registry(), state, token);
    open = await startHttpServer(0, new Registry(), state);
  });
  after(() => {
    guarded.close();
    open.close();
  });

  const get = (server: http.Server, path: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${boundPort(server)}${path}`, { headers });

  it('answers /metrics 401 without the bearer token, with a wrong one, and in another scheme', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${token}` },
    ];
    for (const headers of attempts) {
      const res = await get(guarded, '/metrics', headers);
      expect(res.status, JSON.stringify(headers)).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      expect(await res.text()).to.not.include('# HELP');
    }
  });

  it('answers /metrics with the token, and the probes without it', async () => {
    expect((await get(guarded, '/metrics', { authorization: `Bearer ${token}` })).status).to.equal(200);
    expect((await get(guarded, '/healthz')).status).to.equal(200);
    expect((await get(guarded, '/readyz')).status).to.equal(200);
  });

  it('leaves /metrics open when no token is configured (development)', async () => {
    expect((await get(open, '/metrics')).status).to.equal(200);
  });
});
