// Auth's /readyz with Kafka configured: MongoDB gates it, Kafka is reported beside it (issue 21:
// a Kafka outage must not take auth out of rotation, and the admin still sees Kafka's state).
import { expect } from 'chai';
import { testKafkaBrokers } from '../../kit/test/support/servers.js';
import { startAuth, type TestAuth } from './support.js';

describe('auth /readyz with Kafka (real broker)', function () {
  this.timeout(60000);
  let t: TestAuth;
  before(async () => {
    t = await startAuth(import.meta.url, { KAFKA_BROKERS: testKafkaBrokers().join(','), OUTBOX_PUBLISHER: 'kafka' });
  });
  after(async () => t?.close());

  it('reports kafka beside mongodb, as every service started by the kit does', async () => {
    const res = await fetch(`${t.url}/readyz`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { data: { checks: Record<string, string> } };
    expect(body.data.checks).to.deep.equal({ mongodb: 'ok', kafka: 'ok' });
  });
});
