// The worker's probe endpoint: served in-process over a WorkerHealth with the test's clock, and by
// a real `docx-worker` process on the test MongoDB and Kafka.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { EventBus } from '../../../kit/src/bus/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { waitFor } from '../../../kit/test/support/kafka-helpers.js';
import { WorkerHealth } from '../../src/worker/health.js';
import { closeHealth, serveHealth } from '../../src/worker/health-server.js';
import {
  questionsDocx,
  quietLogger,
  SCOPE,
  startWorkerProcess,
  stopWorker,
  testJobs,
  testSetup,
  type TestSetup,
  type WorkerProcess,
} from '../jobs/support.js';
import type { OpenJobs } from '../../src/domain/jobs/open.js';
import { getJob } from '../../src/domain/jobs/queries.js';
import { submitJob } from '../../src/domain/jobs/submit.js';

async function probe(port: number, path: string, method = 'GET') {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { status: string; message: string }) : null };
}

describe('docx worker /healthz and /readyz (in-process, the test’s clock)', () => {
  let now = 0;
  let health: WorkerHealth;
  let server: Server | undefined;
  let port: number;

  beforeEach(async () => {
    health = new WorkerHealth(() => now, 60_000);
    server = await serveHealth(health, { host: '127.0.0.1', port: 0 }, quietLogger());
    port = (server!.address() as AddressInfo).port;
  });
  afterEach(() => closeHealth(server));

  it('answers 503 on /readyz until the consumer joined, 200 after', async () => {
    expect(await probe(port, '/readyz')).to.deep.equal({ status: 503, body: { status: 'fail', message: 'starting' } });
    health.consuming();
    expect(await probe(port, '/readyz')).to.deep.equal({ status: 200, body: { status: 'ok', message: 'consuming' } });
  });

  it('answers 503 on /healthz once a job is in hand past the bound, naming it', async () => {
    health.consuming();
    health.jobStarted('job-9');
    expect((await probe(port, '/healthz')).status).to.equal(200);
    now += 61_000;
    expect(await probe(port, '/healthz')).to.deep.equal({
      status: 503,
      body: { status: 'fail', message: 'job job-9 in hand for 61 s (bound 60 s)' },
    });
  });

  it('answers 503 on both when the consumer failed', async () => {
    health.failed('not authorized');
    expect((await probe(port, '/healthz')).status).to.equal(503);
    expect((await probe(port, '/readyz')).status).to.equal(503);
  });

  it('answers HEAD without a body, 404 elsewhere and 405 for other methods', async () => {
    expect(await probe(port, '/healthz', 'HEAD')).to.deep.equal({ status: 200, body: null });
    expect((await probe(port, '/metrics')).status).to.equal(404);
    expect((await probe(port, '/healthz', 'POST')).status).to.equal(405);
  });
});

describe('docx worker process probes (real MongoDB and Kafka)', function () {
  this.timeout(180_000);
  let setup: TestSetup;
  let db: MongoHandle;
  let bus: EventBus;
  let jobs: OpenJobs;
  let worker: WorkerProcess | undefined;

  before(async () => {
    setup = testSetup(import.meta.url);
    ({ db, bus, jobs } = await testJobs(setup));
  });
  afterEach(async () => {
    if (worker) await stopWorker(worker);
    worker = undefined;
  });
  after(async () => {
    await jobs.close();
    await bus.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  // Port 0: the worker logs the port it got.
  const healthPort = (w: WorkerProcess) =>
    waitFor('the worker to serve its probes', () => {
      const line = w
        .output()
        .split('\n')
        .find((l) => l.includes('probes on /healthz and /readyz'));
      return line ? (JSON.parse(line) as { port: number }).port : null;
    });

  it('is ready once it consumes, live while it runs a job to COMPLETED, and leaves cleanly on SIGTERM', async () => {
    worker = startWorkerProcess({ ...setup.env, LOG_LEVEL: 'info', WORKER_HEALTH_PORT: '0' });
    const port = (await healthPort(worker))!;
    await waitFor('/readyz 200', async () => (await probe(port, '/readyz')).status === 200, 90_000);
    expect(await probe(port, '/healthz')).to.deep.equal({
      status: 200,
      body: { status: 'ok', message: 'consuming, 0 job(s) in hand' },
    });
    const { job } = await submitJob(jobs.deps, SCOPE, {
      source: { bytes: await questionsDocx(2) },
      fileName: 'probe.docx',
      jobKind: 'QAS',
      jobSource: 'UPLOAD',
    });
    await waitFor(
      'the job COMPLETED',
      async () => (await getJob(jobs.deps, SCOPE, job.id)).status === 'COMPLETED',
      90_000,
    );
    expect((await probe(port, '/healthz')).status).to.equal(200);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).to.equal(0);
    worker = undefined;
  });
});
