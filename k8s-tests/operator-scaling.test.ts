// The DocxImportJob operator, run as a real process (`node --import tsx operator/src/main.ts`) under
// a ServiceAccount with only the operator's RBAC, against the API server and a real Kafka topic.
// There is no kubelet: scaling is judged by the Deployment's spec.replicas, readiness by its status.
import { expect } from 'chai';
import {
  GROUP,
  PLURAL,
  VERSION,
  type Condition,
  type DocxImportJob,
  type DocxImportJobStatus,
  type ScalingSpec,
} from '../operator/src/api/docx-import-job.js';
import { apiServerRestartUnsupported, restartApiServer } from './helpers/cluster.js';
import { dumpOnFailure } from './helpers/dump-on-failure.js';
import { TestQueue, kafkaBrokers } from './helpers/kafka-queue.js';
import {
  createJob,
  createNamespace,
  deleteNamespace,
  getJob,
  installCrd,
  kube,
  namespaceEvents,
  readDeployment,
  type Kube,
} from './helpers/kube.js';
import { OperatorProcess, counterValue } from './helpers/operator-process.js';
import { operatorKubeconfig, removeKubeconfigs, withServer } from './helpers/operator-rbac.js';
import { SilencingProxy } from './helpers/tcp-proxy.js';
import { sleep, waitFor } from './helpers/wait.js';

const JOB = 'parse';
const WORKERS = `${JOB}-workers`;

describe('docx-import-operator on a real API server and Kafka', function () {
  let k: Kube;
  let brokers: string;
  let ns: string;
  let queue: TestQueue;
  let kubeconfig: string;
  let operators: OperatorProcess[];

  before(async () => {
    k = kube();
    brokers = kafkaBrokers();
    await installCrd();
  });

  beforeEach(async () => {
    ns = await createNamespace(k, 'dij-op');
    queue = new TestQueue();
    // More partitions than any test's maxWorkers: the operator never scales past the partition count.
    await queue.create(12);
    kubeconfig = await operatorKubeconfig(k, ns);
    operators = [];
  });

  afterEach(async function () {
    // K8S_TESTS_DUMP=1 prints the same dump for passing tests, to see what the operator did.
    if (this.currentTest?.state === 'failed' || process.env.K8S_TESTS_DUMP === '1') {
      await dumpOnFailure(
        ns,
        operators.map((op, i) => ({ name: `operator #${i + 1} (pid ${op.pid})`, log: op.log() })),
      );
    }
    await Promise.all(operators.map((op) => op.stop('SIGKILL')));
    removeKubeconfigs(ns);
    await queue.close();
    await deleteNamespace(k, ns);
  });

  const startOperator = (opts: { kubeconfig?: string; env?: Record<string, string> } = {}): OperatorProcess => {
    const op = new OperatorProcess({
      kubeconfig: opts.kubeconfig ?? kubeconfig,
      namespace: ns,
      brokers,
      env: opts.env,
    });
    operators.push(op);
    return op;
  };

  const jobWith = (scaling: Partial<ScalingSpec>): DocxImportJob => ({
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
        jobsPerWorker: 5,
        scaleDownDelaySeconds: 300,
        scaleDownStep: 1,
        ...scaling,
      },
    },
  });

  const patchScaling = (scaling: Partial<ScalingSpec>): Promise<unknown> =>
    k.custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
      name: JOB,
      body: [{ op: 'add', path: '/spec/scaling', value: scaling }],
    });

  const replicas = async (): Promise<number | undefined> => (await readDeployment(k, ns, WORKERS))?.spec?.replicas;

  const waitReplicas = (n: number): Promise<true> =>
    waitFor(`${WORKERS} to have ${n} replicas`, async () => (await replicas()) === n || undefined);

  const waitStatus = (
    what: string,
    ok: (s: DocxImportJobStatus, job: DocxImportJob) => boolean,
  ): Promise<DocxImportJobStatus> =>
    waitFor(`status: ${what}`, async () => {
      const job = await getJob(k, ns, JOB);
      return job.status && ok(job.status, job) ? job.status : undefined;
    });

  const condition = (s: DocxImportJobStatus, type: string): string => {
    const c = s.conditions?.find((x: Condition) => x.type === type);
    return c ? `${c.status}/${c.reason}` : 'absent';
  };

  /** Waits until the operator has finished `n` more reconciles than now (a count, not a clock). */
  const moreReconciles = async (op: OperatorProcess, n: number): Promise<void> => {
    const start = counterValue(await op.metrics(), 'docx_import_operator_reconcile_total');
    await waitFor(
      `${n} more reconciles`,
      async () => counterValue(await op.metrics(), 'docx_import_operator_reconcile_total') >= start + n,
    );
  };

  it('scales the workers up at once as jobs pile up, reports the queue in status, and steps down after the delay as a consumer drains it', async () => {
    const op = startOperator();
    await op.leading();
    const created = await createJob(
      k,
      jobWith({ minWorkers: 1, maxWorkers: 4, jobsPerWorker: 5, scaleDownDelaySeconds: 4, scaleDownStep: 1 }),
    );
    await waitReplicas(1);
    const owner = (await readDeployment(k, ns, WORKERS))?.metadata?.ownerReferences?.[0];
    expect(owner).to.include({ kind: 'DocxImportJob', name: JOB, uid: created.metadata?.uid, controller: true });

    await queue.push(12);
    await waitReplicas(3);
    const at12 = await waitStatus('12 pending', (s) => s.queue?.totalPending === 12);
    expect(at12).to.deep.include({
      desiredWorkers: 3,
      readyWorkers: 0,
      observedGeneration: created.metadata?.generation,
      workerDeployment: WORKERS,
    });
    expect(at12.queue).to.include({ totalPending: 12, active: 0, waiting: 12 });
    expect(condition(at12, 'Ready')).to.equal('True/Reconciled');
    expect(condition(at12, 'QueueDepthAvailable')).to.equal('True/LagRead');
    expect(condition(at12, 'WorkersAvailable')).to.equal('False/WorkersNotReady');
    expect(await queue.lag()).to.equal(12);

    await queue.push(18);
    await waitReplicas(4);
    const at30 = await waitStatus('30 pending', (s) => s.queue?.totalPending === 30);
    expect(condition(at30, 'ScalingLimited')).to.equal('True/MaxWorkersReached');

    const seen: Array<{ replicas: number; at: number }> = [{ replicas: 4, at: Date.now() }];
    let recording = true;
    const recorder = (async () => {
      while (recording) {
        const r = await replicas().catch(() => undefined);
        if (r !== undefined && r !== seen[seen.length - 1]?.replicas) seen.push({ replicas: r, at: Date.now() });
        await sleep(100);
      }
    })();
    const consumed = new Set<string>();
    await queue.startConsuming((jobId) => consumed.add(jobId));
    await waitStatus('the queue drained', (s) => s.queue?.totalPending === 0);
    await waitFor('the recorder to see 1 replica', async () => seen[seen.length - 1]?.replicas === 1);
    recording = false;
    await recorder;

    expect(consumed.size).to.equal(30);
    expect(seen.map((s) => s.replicas)).to.deep.equal([4, 3, 2, 1]);
    // Each step waits out the delay after the previous one (status times have one-second resolution).
    for (let i = 2; i < seen.length; i++)
      expect((seen[i]?.at ?? 0) - (seen[i - 1]?.at ?? 0)).to.be.at.least(4000 - 1500);
    const events = (await namespaceEvents(k, ns)).filter((e) => e.object === `DocxImportJob/${JOB}`);
    const messages = (reason: string): string[] =>
      events.filter((e) => e.reason === reason).map((e) => e.message.replace(/:.*/, ''));
    expect(messages('WorkersCreated')).to.deep.equal(['Created worker Deployment parse-workers with 1 replicas']);
    expect(
      messages('ScaledUp').filter((m) => m.endsWith(' to 4 replicas')),
      'one scale-up reached maxWorkers',
    ).to.have.length(1);
    expect(messages('ScaledDown')).to.have.members([
      'Scaled parse-workers from 4 to 3 replicas',
      'Scaled parse-workers from 3 to 2 replicas',
      'Scaled parse-workers from 2 to 1 replicas',
    ]);
  });

  it('keeps the workers when the queue depth cannot be read, says why in a condition, and resumes on the next good reading', async () => {
    const op = startOperator();
    await op.leading();
    // minWorkers 0 and no delay: an operator that took a failed reading for "empty" would go to zero at once.
    await createJob(k, jobWith({ minWorkers: 0, jobsPerWorker: 5, scaleDownDelaySeconds: 0, scaleDownStep: 10 }));
    await queue.push(10);
    await waitReplicas(2);

    await queue.deleteTopic();
    const broken = await waitStatus('QueueDepthAvailable False', (s) =>
      condition(s, 'QueueDepthAvailable').startsWith('False/'),
    );
    expect(condition(broken, 'Ready')).to.equal('False/QueueDepthUnavailable');
    expect(broken.queue?.totalPending).to.equal(10);
    await moreReconciles(op, 5);
    expect(await replicas()).to.equal(2);
    expect((await getJob(k, ns, JOB)).status?.desiredWorkers).to.equal(2);
    const warnings = (await namespaceEvents(k, ns)).filter(
      (e) => e.type === 'Warning' && e.reason === 'QueueDepthUnavailable',
    );
    expect(warnings).to.have.length(1);

    // Kafka finishes a topic deletion asynchronously; creating the name again succeeds once it has.
    await waitFor('the topic to be created again', async () => queue.createTopic(12));
    const healed = await waitStatus(
      'QueueDepthAvailable True again',
      (s) => condition(s, 'QueueDepthAvailable') === 'True/LagRead',
    );
    expect(healed.queue?.totalPending).to.equal(0);
    await waitReplicas(0);
  });

  it('writes nothing to the API server while nothing changes', async () => {
    const op = startOperator();
    await op.leading();
    await createJob(k, jobWith({ minWorkers: 2 }));
    await waitReplicas(2);
    await waitStatus('the first status', (s) => condition(s, 'Ready') === 'True/Reconciled');
    await moreReconciles(op, 2);
    const writes = (text: string): number =>
      counterValue(text, 'docx_import_operator_kube_requests_total', { verb: 'patch' }) +
      counterValue(text, 'docx_import_operator_kube_requests_total', { verb: 'create', resource: 'events' });
    const before = writes(await op.metrics());
    await moreReconciles(op, 5);
    expect(writes(await op.metrics())).to.equal(before);
  });

  it("loses no change made while the operator was down: a crashed operator's successor converges on queue and spec", async () => {
    const first = startOperator();
    await first.leading();
    await createJob(k, jobWith({ minWorkers: 1, jobsPerWorker: 5 }));
    await waitReplicas(1);
    await first.stop('SIGKILL');

    await queue.push(20);
    await patchScaling({
      minWorkers: 1,
      maxWorkers: 10,
      jobsPerWorker: 10,
      scaleDownDelaySeconds: 300,
      scaleDownStep: 1,
    });
    const generation = (await getJob(k, ns, JOB)).metadata?.generation;
    expect(generation).to.equal(2);

    const second = startOperator();
    await second.leading();
    await waitReplicas(2);
    const status = await waitStatus(
      'generation 2 observed with 20 pending',
      (s) => s.observedGeneration === 2 && s.queue?.totalPending === 20,
    );
    expect(status.desiredWorkers).to.equal(2);
    expect(status.conditions?.every((c) => c.observedGeneration === 2)).to.equal(true);
  });

  // Whether the watches come back through 410 Gone, a plain resume or a fresh list after the leader
  // stepped down depends on timing; the outcome must not. The 410 path has its own deterministic
  // test (reflector-gone.test.ts).
  it('loses no change across an API server restart: changes during and after it are reconciled', async function () {
    const unsupported = apiServerRestartUnsupported();
    if (unsupported) {
      console.log(`      skipped: ${unsupported}`);
      this.skip();
    }
    const op = startOperator();
    await op.leading();
    await createJob(k, jobWith({ minWorkers: 1, jobsPerWorker: 2 }));
    await waitReplicas(1);

    await Promise.all([restartApiServer(), queue.push(6)]);
    expect(op.running, 'the operator survives the API server restart').to.equal(true);
    await waitReplicas(3);

    await patchScaling({
      minWorkers: 1,
      maxWorkers: 10,
      jobsPerWorker: 1,
      scaleDownDelaySeconds: 300,
      scaleDownStep: 1,
    });
    await waitReplicas(6);
    const status = await waitStatus(
      'generation 2 observed with 6 pending',
      (s) => s.observedGeneration === 2 && s.queue?.totalPending === 6,
    );
    expect(status.desiredWorkers).to.equal(6);
  });

  it('re-lists when its watches go silent without an error (the watchdog), and reconciles the change they missed', async () => {
    const server = new URL(k.kc.getCurrentCluster()?.server ?? '');
    const proxy = new SilencingProxy({ host: server.hostname, port: Number(server.port || 443) });
    const port = await proxy.start();
    try {
      // 5 s watches: a healthy watch ends and reconnects within 5 s, so 35 s of silence means stalled.
      // No leader election here: a silenced lease renewal would make it step down and re-list anyway.
      const env = { WATCH_TIMEOUT_SECONDS: '5', LEADER_ELECTION: 'false' };
      const op = startOperator({ kubeconfig: withServer(kubeconfig, `https://127.0.0.1:${port}`), env });
      await op.ready();
      await createJob(k, jobWith({ minWorkers: 1 }));
      await waitReplicas(1);
      await moreReconciles(op, 2);
      expect(proxy.silenceOpenConnections(), 'connections silenced').to.be.greaterThan(0);

      await patchScaling({
        minWorkers: 3,
        maxWorkers: 10,
        jobsPerWorker: 5,
        scaleDownDelaySeconds: 300,
        scaleDownStep: 1,
      });
      await waitReplicas(3);
      await waitStatus('generation 2 observed', (s) => s.observedGeneration === 2);
      expect(
        counterValue(await op.metrics(), 'docx_import_operator_watch_restarts_total', { reason: 'stalled' }),
      ).to.be.greaterThan(0);
    } finally {
      await proxy.stop();
    }
  });

  it('elects one leader through the Lease, and the standby takes over when the leader dies', async () => {
    const a = startOperator();
    const b = startOperator();
    await Promise.all([a.ready(), b.ready()]);
    const leader = await waitFor('one of two operators to lead', async () => {
      const leading = [a, b].filter((op) => op.records('started leading').length > 0);
      return leading.length > 0 ? leading : undefined;
    });
    expect(leader).to.have.length(1);
    const [winner] = leader as [OperatorProcess];
    const standby = winner === a ? b : a;
    const lease = await k.coordination.readNamespacedLease({ name: 'docx-import-operator', namespace: ns });
    expect(lease.spec?.holderIdentity).to.equal(winner.records('docx-import-operator listening')[0]?.identity);

    await createJob(k, jobWith({ minWorkers: 1, jobsPerWorker: 5 }));
    await waitReplicas(1);
    await winner.stop('SIGKILL');
    await queue.push(15);
    await standby.leading();
    await waitReplicas(3);
    expect(standby.records('started leading')).to.have.length(1);
  });
});
