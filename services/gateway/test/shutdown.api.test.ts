// The gateway's SIGTERM as every service's: for SHUTDOWN_DELAY_MS it keeps answering (/api too),
// readiness failing and each response closing its connection, then stops accepting.
import { expect } from 'chai';
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from './support.js';

describe('gateway: shutdown on the kit lifecycle', function () {
  this.timeout(30000);
  let legacy: TestUpstream | undefined;
  let gw: TestGateway | undefined;

  afterEach(async () => {
    await gw?.close();
    await legacy?.close();
  });

  it('takes SHUTDOWN_DELAY_MS from config with the services’ default (0)', async () => {
    gw = await startTestGateway({});
    expect(gw.running.config.SHUTDOWN_DELAY_MS).to.equal(0);
  });

  it('with SHUTDOWN_DELAY_MS, keeps answering after the signal, readiness failing and every response closing its connection, then stops accepting', async () => {
    legacy = await startUpstream();
    gw = await startTestGateway({
      GATEWAY_LEGACY_URL: legacy.url,
      // Long enough that the requests below surely arrive inside it, on any machine.
      SHUTDOWN_DELAY_MS: '5000',
    });
    const base = gw.url;
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    const shutdown = gw.running.shutdown('test');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).to.equal(200);
    expect(health.headers.get('connection')).to.equal('close');
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).to.equal(503);
    expect(((await ready.json()) as { error: { details: { failing: string[] } } }).error.details.failing).to.deep.equal(
      ['shutdown'],
    );
    // A request routed here in the window is still proxied (the /api listener, not only Express).
    const routed = await fetch(`${base}/api/classrooms/c1`);
    expect(routed.status).to.equal(200);
    expect(routed.headers.get('connection')).to.equal('close');
    expect(legacy.seen.map((s) => s.url)).to.deep.equal(['/api/classrooms/c1']);
    await shutdown;
    const after = await fetch(`${base}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).to.equal('refused');
  });
});
