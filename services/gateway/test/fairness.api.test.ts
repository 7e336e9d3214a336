// One misbehaving client against everyone else: open streams and requests in flight are capped
// per client, a request waiting for an upstream socket past the queue timeout is answered 503,
// and every slot comes back whichever way its exchange ends.
import { expect } from 'chai';
import {
  accessToken,
  closedPort,
  openStream,
  sendHeld,
  startTestGateway,
  startUpstream,
  until,
  type OpenStream,
  type TestGateway,
  type TestUpstream,
} from './support.js';

const EVENTS = '/api/exam-import/algorithm-jobs/events';

describe('gateway: fairness under one misbehaving client', function () {
  this.timeout(30000);
  let up: TestUpstream;
  const gateways: TestGateway[] = [];
  const streams: Array<{ close(): void }> = [];

  before(async () => {
    up = await startUpstream();
  });
  afterEach(() => {
    streams.splice(0).forEach((s) => s.close());
    up.release();
  });
  after(async () => {
    for (const g of gateways) await g.close();
    await up?.close();
  });

  async function gateway(env: Record<string, string>): Promise<TestGateway> {
    const g = await startTestGateway({
      GATEWAY_DOCUMENT_IMPORT_URL: up.url,
      GATEWAY_NOTIFICATIONS_URL: up.url,
      ...env,
    });
    gateways.push(g);
    return g;
  }
  const idle = (g: TestGateway) => () => {
    const s = g.running.gateway.fairness.stats();
    return s.inFlight === 0 && s.streams === 0 && s.clients === 0;
  };
  const open = async (g: TestGateway, token: string, path = EVENTS): Promise<OpenStream> => {
    const s = await openStream(`${g.url}${path}`, { Authorization: `Bearer ${token}` });
    streams.push(s);
    return s;
  };
  const hold = (g: TestGateway, token: string, path: string) => {
    const h = sendHeld(`${g.url}${path}`, { Authorization: `Bearer ${token}` });
    streams.push(h);
    return h;
  };

  it('a client opening 20 event streams gets 4; its 5th and later are 429 while another client still gets through', async () => {
    const g = await gateway({ GATEWAY_MAX_STREAMS_PER_CLIENT: '4', GATEWAY_MAX_CONCURRENT_PER_CLIENT: '16' });
    const greedy = accessToken({ sub: 'greedy' });
    const opened = await Promise.all(Array.from({ length: 20 }, () => open(g, greedy)));
    const statuses = opened.map((s) => s.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(4);
    expect(statuses.filter((s) => s === 429)).to.have.length(16);
    const refused = opened.find((s) => s.status === 429)!;
    await until('the refusal body', () => refused.body().endsWith('}'));
    expect(JSON.parse(refused.body()).error).to.deep.equal({
      code: 'RATE_LIMITED',
      details: { reason: 'CLIENT_STREAM_LIMIT' },
    });
    expect(Number(refused.headers['retry-after'])).to.be.greaterThan(0);
    expect(g.running.gateway.fairness.stats().streams).to.equal(4);

    const other = accessToken({ sub: 'other' });
    expect((await open(g, other)).status).to.equal(200);
    await g.request.get('/api/exam-import/jobs/j1/status').set('Authorization', `Bearer ${other}`).expect(200);
    // Plain requests of the greedy client still pass: streams have their own cap.
    await g.request.get('/api/exam-import/jobs/j1/status').set('Authorization', `Bearer ${greedy}`).expect(200);

    streams.splice(0).forEach((s) => s.close());
    await until('every stream slot is given back', idle(g));
    expect((await open(g, greedy)).status).to.equal(200);
  });

  it('an answer that turns out to be an event stream counts against the stream cap too', async () => {
    const g = await gateway({ GATEWAY_MAX_STREAMS_PER_CLIENT: '1' });
    const token = accessToken({ sub: 'sneaky' });
    expect((await open(g, token, '/api/notifications/events')).status).to.equal(200);
    const second = await open(g, token, '/api/notifications/events');
    expect(second.status).to.equal(429);
    streams.splice(0).forEach((s) => s.close());
    await until('slots back to zero', idle(g));
  });

  it('past its requests in flight a client gets 429; another client is served; slots return to zero', async () => {
    const g = await gateway({ GATEWAY_MAX_CONCURRENT_PER_CLIENT: '2' });
    const greedy = accessToken({ sub: 'greedy-2' });
    const held = [hold(g, greedy, '/api/notifications/hold-1'), hold(g, greedy, '/api/notifications/hold-2')];
    await until('two requests held upstream', () => up.held.size === 2);
    const third = await g.request.get('/api/notifications/n3').set('Authorization', `Bearer ${greedy}`).expect(429);
    expect(third.body.error.details.reason).to.equal('CLIENT_CONCURRENCY_LIMIT');
    expect(third.headers['retry-after']).to.equal('1');
    await g.request
      .get('/api/notifications/n4')
      .set('Authorization', `Bearer ${accessToken({ sub: 'someone-else' })}`)
      .expect(200);
    expect(g.running.gateway.fairness.stats()).to.deep.equal({ clients: 1, inFlight: 2, streams: 0 });
    up.release();
    expect(await Promise.all(held.map((h) => h.answered))).to.deep.equal([200, 200]);
    await until('slots back to zero after the answers', idle(g));
    await g.request.get('/api/notifications/n5').set('Authorization', `Bearer ${greedy}`).expect(200);
  });

  it('a client that hangs up, an upstream that times out and one that is down all give their slot back', async () => {
    const g = await gateway({
      GATEWAY_MAX_CONCURRENT_PER_CLIENT: '2',
      GATEWAY_NOTIFICATIONS_TIMEOUT_MS: '200',
      GATEWAY_ANALYTICS_URL: `http://127.0.0.1:${await closedPort()}`,
    });
    const token = accessToken({ sub: 'leaky' });
    hold(g, token, '/api/exam-import/jobs/hold-x/status');
    await until('one request held', () => up.held.size === 1);
    expect(g.running.gateway.fairness.stats().inFlight).to.equal(1);
    // The client hangs up: the gateway closes the upstream request and gives the slot back.
    streams.splice(0).forEach((s) => s.close());
    await until('the hung-up request is gone upstream and at the gateway', () => up.held.size === 0);
    await until('its slot is back', idle(g));
    // A held answer the gateway gives up on: 504 after the table timeout.
    await g.request.get('/api/notifications/hold-y').set('Authorization', `Bearer ${token}`).expect(504);
    // An upstream that is not there: 503.
    await g.request.get('/api/analytics/results').set('Authorization', `Bearer ${token}`).expect(503);
    up.release();
    await until('slots back to zero', idle(g));
  });

  it('a request waiting for an upstream socket past the queue timeout is 503 with Retry-After, not a hang', async () => {
    const g = await gateway({
      GATEWAY_MAX_SOCKETS: '1',
      GATEWAY_QUEUE_TIMEOUT_MS: '300',
      GATEWAY_MAX_CONCURRENT_PER_CLIENT: '0',
      GATEWAY_NOTIFICATIONS_TIMEOUT_MS: '60000',
    });
    const a = accessToken({ sub: 'holder' });
    const b = accessToken({ sub: 'waiter' });
    const holder = hold(g, a, '/api/notifications/hold-1');
    await until('the only socket is held', () => up.held.size === 1);
    const queued = await g.request.get('/api/notifications/n2').set('Authorization', `Bearer ${b}`).expect(503);
    expect(queued.body.error).to.deep.include({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(queued.body.error.details.reason).to.equal('UPSTREAM_QUEUE_TIMEOUT');
    expect(queued.headers['retry-after']).to.equal('1');
    up.release();
    expect(await holder.answered).to.equal(200);
    // The socket goes back to the pool: the next request is served, none was leaked to the abandoned one.
    await g.request.get('/api/notifications/n3').set('Authorization', `Bearer ${b}`).expect(200);
    await until('slots back to zero', idle(g));
  });
});
