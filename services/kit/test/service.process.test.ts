import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startChild } from './support/child-process.js';
import { testDbName, testKafkaBrokers, testMongoUri } from './support/servers.js';

const tiny = fileURLToPath(new URL('./support/tiny-service.ts', import.meta.url));

const startTiny = (env: Record<string, string>) => startChild(tiny, env);

describe('kit runService (process)', function () {
  this.timeout(60000);

  it('on SIGTERM: readiness fails, hooks run, HTTP drains, workers stop, then Kafka, then MongoDB; exit 0', async () => {
    const proc = startTiny({
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: testDbName('kit', 'service_process'),
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      PORT: '0',
    });
    const { port } = await proc.waitFor('tiny service listening');
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    const slow = fetch(`${base}/v1/slow`);
    await proc.waitFor('slow request started');
    proc.child.kill('SIGTERM');
    const res = await slow;
    expect(res.status).to.equal(200);
    const run = await proc.exited;
    expect(run.code).to.equal(0);
    const shutdown = proc
      .messages()
      .map((m) => m.msg)
      .filter((m) => !['request', 'tiny service listening', 'mongodb connected', 'slow request started'].includes(m));
    expect(shutdown).to.deep.equal([
      'shutting down: draining requests',
      'before drain hook',
      'slow request answered',
      'worker stopped',
      'background workers stopped',
      'kafka closed',
      'mongodb closed',
      'shutdown complete',
    ]);
  });

  it('exits 1 with one line naming a missing variable', async () => {
    const run = await startTiny({ PORT: '0' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('config: "MONGODB_URI" is required\n');
    expect(run.stdout).to.equal('');
  });

  it("exits 1 with one line naming a service's own malformed variable", async () => {
    const run = await startTiny({ MONGODB_URI: testMongoUri(), PORT: '0', TINY_LABEL: 'far too long' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('config: "TINY_LABEL" length must be less than or equal to 5 characters long\n');
  });
});
