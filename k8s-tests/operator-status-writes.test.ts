// How many status writes the operator makes while workers commit steadily: its own status writes
// must not feed reconciles, and queue-only changes are written at most once per interval. Writes are
// counted by a watch of our own on the DocxImportJob (nothing but the operator writes to it here).
import { expect } from 'chai';
import { GROUP, PLURAL, VERSION, type DocxImportJob, type ScalingSpec } from '../operator/src/api/docx-import-job.js';
import { dumpOnFailure } from './helpers/dump-on-failure.js';
import { TestQueue, kafkaBrokers } from './helpers/kafka-queue.js';
import {
  createJob,
  createNamespace,
  deleteNamespace,
  getJob,
  installCrd,
  kube,
  readDeployment,
  type Kube,
} from './helpers/kube.js';
import { OperatorProcess, counterValue } from './helpers/operator-process.js';
import { operatorKubeconfig, removeKubeconfigs } from './helpers/operator-rbac.js';
import { waitFor } from './helpers/wait.js';
import { ModifiedCounter } from './helpers/watch-count.js';

const JOB = 'parse';
const WORKERS = `${JOB}-workers`;
const BACKLOG = 1000;
/** One commit per 100 ms: the lag changes ten times a second, as with a busy worker fleet. */
const COMMIT_EVERY_MS = 100;

describe('docx-import-operator status writes under steady commits', function () {
  let k: Kube;
  let ns: string;
  let queue: TestQueue;
  let kubeconfig: string;
  let operators: OperatorProcess[];
  let counters: ModifiedCounter[];

  before(async () => {
    k = kube();
    await installCrd();
  });

  beforeEach(async () => {
    ns = await createNamespace(k, 'dij-sw');
    queue = new TestQueue();
    await queue.create(3);
    kubeconfig = await operatorKubeconfig(k, ns);
    operators = [];
    counters = [];
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' || process.env.K8S_TESTS_DUMP === '1') {
      await dumpOnFailure(
        ns,
        operators.map((op, i) => ({ name: `operator #${i + 1} (pid ${op.pid})`, log: op.log() })),
      );
    }
    for (const c of counters) c.stop();
    await Promise.all(operators.map((op) => op.stop('SIGKILL')));
    removeKubeconfigs(ns);
    await queue.close();
    await deleteNamespace(k, ns);
  });

  const startOperator = (env: Record<string, string>): OperatorProcess => {
    const op = new OperatorProcess({ kubeconfig, namespace: ns, brokers: kafkaBrokers(), env });
    operators.push(op);
    return op;
  };

  // Replicas stay at 1 whatever the lag does (1000 jobs per worker, never fewer than 1 pending),
  // so every status change in the window is a queue-only one.
  const steadyJob = (scaling: Partial<ScalingSpec> = {}): DocxImportJob => ({
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'DocxImportJob',
    metadata: { name: JOB, namespace: ns },
    spec: {
      queue: { topic: queue.topic, consumerGroup: queue.group },
      worker: {
        concurrency: 2,
        template: { spec: { containers: [{ name: 'parser', image: 'registry.invalid/docx-parser:test' }] } },
      },
      scaling: {
        minWorkers: 1,
        maxWorkers: 10,
        jobsPerWorker: 100_000,
        scaleDownDelaySeconds: 300,
        scaleDownStep: 1,
        ...scaling,
      },
    },
  });

  const settle = async (): Promise<DocxImportJob> => {
    await waitFor(`${WORKERS} at 1 replica`, async () => (await readDeployment(k, ns, WORKERS))?.spec?.replicas === 1);
    return waitFor('the first status with the whole backlog', async () => {
      const job = await getJob(k, ns, JOB);
      return job.status?.queue?.totalPending === BACKLOG ? job : undefined;
    });
  };

  const countWrites = async (job: DocxImportJob): Promise<ModifiedCounter> => {
    const path = `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL}`;
    const counter = await ModifiedCounter.start(k.kc, path, JOB, job.metadata?.resourceVersion ?? '');
    counters.push(counter);
    return counter;
  };

  it('writes queue-only status changes at most once per QUEUE_STATUS_INTERVAL_SECONDS, and the status still follows the queue', async () => {
    // 24 s of commits with a 3 s interval, RESYNC 1 s: the same bound logic as a minute with 5 s, in less time.
    const intervalSec = 3;
    const op = startOperator({ QUEUE_STATUS_INTERVAL_SECONDS: String(intervalSec) });
    await op.leading();
    await queue.push(BACKLOG);
    await createJob(k, steadyJob());
    const settled = await settle();

    const writes = await countWrites(settled);
    const startedAt = Date.now();
    const committer = await queue.commitSteadily(COMMIT_EVERY_MS);
    await waitFor('240 commits', async () => (await queue.lag()) <= BACKLOG - 240, { intervalMs: 500 });
    const commits = await committer.stop();
    const lag = await queue.lag();
    // Once the commits stop, the last figures reach status within an interval (a deferred change).
    const final = await waitFor(`status to show the final lag ${lag}`, async () => {
      const job = await getJob(k, ns, JOB);
      return job.status?.queue?.totalPending === lag ? job : undefined;
    });
    const elapsedSec = (Date.now() - startedAt) / 1000;
    const written = writes.read();

    // Writes that only move queue figures are at least the interval apart: at most one per interval
    // of the window plus the one at its start. Before the fix, every 1 s resync wrote (and each
    // write's watch echo triggered another reconcile and write): a count near the number of commits.
    const bound = Math.floor(elapsedSec / intervalSec) + 1;
    expect(written, `${written} status writes in ${elapsedSec.toFixed(1)} s, ${commits} commits`).to.be.at.most(bound);
    expect(written, 'the status followed the queue during the window').to.be.at.least(2);
    expect(final.status?.desiredWorkers).to.equal(1);
    const metrics = await op.metrics();
    expect(counterValue(metrics, 'docx_import_operator_status_writes_total', { result: 'deferred' })).to.be.greaterThan(
      0,
    );
  });

  it('does not reconcile on the watch echo of its own status write (resync off, no rate limit)', async () => {
    // With no resync and no limit, the only triggers left are watch events. The Deployment's events
    // are real triggers; the DocxImportJob's are all the operator's own writes coming back.
    const op = startOperator({ QUEUE_STATUS_INTERVAL_SECONDS: '0', RESYNC_SECONDS: '3600' });
    await op.leading();
    await queue.push(BACKLOG);
    await createJob(k, steadyJob());
    const settled = await settle();
    const deployment = await readDeployment(k, ns, WORKERS);
    const deploymentPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const deploymentEvents = await ModifiedCounter.start(
      k.kc,
      deploymentPath,
      WORKERS,
      deployment?.metadata?.resourceVersion ?? '',
    );
    counters.push(deploymentEvents);
    const writes = await countWrites(settled);
    const reconcilesBefore = counterValue(await op.metrics(), 'docx_import_operator_reconcile_total');

    // As fast as one worker can commit: the lag moves within every reconcile's round trip, so an
    // echo-driven reconcile would always find something new to write.
    const committer = await queue.commitSteadily(0);
    await waitFor('10 commits', async () => (await queue.lag()) <= BACKLOG - 10, { intervalMs: 500 });
    // One real trigger in the window: a spec change that leaves the replicas alone. It must cost one
    // reconcile and one write; an operator fed by its own echo would go on writing until the end.
    await k.custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
      name: JOB,
      body: [{ op: 'replace', path: '/spec/scaling/scaleDownDelaySeconds', value: 301 }],
    });
    await waitFor('400 commits', async () => (await queue.lag()) <= BACKLOG - 400, { intervalMs: 200 });
    await committer.stop();
    const reconciles = counterValue(await op.metrics(), 'docx_import_operator_reconcile_total') - reconcilesBefore;
    // The counting watch also saw the spec change itself.
    const written = writes.read() - 1;
    const triggers = deploymentEvents.read();

    // Each status write needs a reconcile, and each reconcile a trigger that is not its own echo: the
    // Deployment's events and the spec change (plus one reconcile that may have been under way when
    // counting began). Before the fix each write's echo started the next reconcile, which saw a new
    // lag and wrote again, from the spec change to the end of the window.
    const detail = `${written} writes, ${reconciles} reconciles, ${triggers} Deployment events`;
    expect(written, detail).to.be.at.least(1);
    expect(written, detail).to.be.at.most(triggers + 2);
    expect(reconciles, detail).to.be.at.most(triggers + 2);
    expect((await getJob(k, ns, JOB)).status?.observedGeneration).to.equal(2);
  });
});
