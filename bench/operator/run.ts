// Operator bench: how fast does a queue change reach the worker Deployment, and how many API
// requests does a reconcile cost? Runs the real operator against the cluster in KUBECONFIG (else
// the local control plane) and KAFKA_BROKERS (else the local test Kafka).
//
//   node --import tsx bench/operator/run.ts
//
// Reaction = from the Kafka write being acknowledged to the watch event carrying the Deployment's
// new spec.replicas, over 10 changes (5 fills, 5 drains). The baseline is a bare GET of that
// Deployment, measured in the same run, so the reaction reads as a multiple of one round trip.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, Watch, type V1Deployment } from '@kubernetes/client-node';
import { Kafka, logLevel } from 'kafkajs';
import { TOPICS } from '../../kafka/topics.js';
import { GROUP, PLURAL, VERSION } from '../../operator/src/api/docx-import-job.js';
import { startOperator, type OperatorChild } from './operator-child.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHANGES = 10;
const RESYNC_SECONDS = 1;
const BASELINE_GETS = 30;

/** `make bench-operator` runs this through scripts/with-servers.sh, which provides these. */
function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run \`make bench-operator\` (scripts/with-servers.sh --cluster)`);
  return value;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const ms = (x: number): string => `${x.toFixed(1)} ms`;

function counter(text: string, name: string, match: (labels: string) => boolean = () => true): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([^{\s]+)(\{[^}]*\})?\s+([0-9.eE+-]+)$/.exec(line);
    if (m && m[1] === name && match(m[2] ?? '')) sum += Number(m[3]);
  }
  return sum;
}

/** Resolves with the arrival time of the first watch event showing `replicas`. */
class ReplicaWatch {
  private waiters: Array<{ want: number; resolve: (at: number) => void }> = [];
  private abort: AbortController | undefined;

  async start(kc: KubeConfig, namespace: string, name: string): Promise<void> {
    this.abort = await new Watch(kc).watch(
      `/apis/apps/v1/namespaces/${namespace}/deployments`,
      { fieldSelector: `metadata.name=${name}` },
      (_type: string, obj: V1Deployment) => {
        const at = performance.now();
        const replicas = obj.spec?.replicas;
        this.waiters = this.waiters.filter((w) => (w.want === replicas ? (w.resolve(at), false) : true));
      },
      () => undefined,
    );
  }

  next(want: number): Promise<number> {
    return new Promise((resolve) => this.waiters.push({ want, resolve }));
  }

  stop(): void {
    this.abort?.abort();
  }
}

async function main(): Promise<void> {
  const kubeconfig = requiredEnv('KUBECONFIG');
  const brokers = requiredEnv('KAFKA_BROKERS');
  const kubectl = requiredEnv('KUBECTL');
  execFileSync(
    kubectl,
    [
      '--kubeconfig',
      kubeconfig,
      'apply',
      '--server-side',
      '--force-conflicts',
      '-f',
      path.join(root, 'crds', 'docximportjobs.imports.edu-platform.io.yaml'),
    ],
    { stdio: 'ignore' },
  );

  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const suffix = randomBytes(3).toString('hex');
  const ns = `bench-operator-${suffix}`;
  const topic = `${TOPICS.docxImportJobs}.bench-${suffix}`;
  const consumerGroup = `docx-parsers-bench-${suffix}`;
  const kafka = new Kafka({ clientId: 'bench-operator', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const watch = new ReplicaWatch();
  const worker = new HeldConsumer(kafka.consumer({ groupId: consumerGroup }), topic);
  let op: OperatorChild | undefined;

  try {
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    await worker.start();

    op = startOperator(root, {
      KUBECONFIG: kubeconfig,
      KAFKA_BROKERS: brokers,
      OPERATOR_NAMESPACE: ns,
      RESYNC_SECONDS: String(RESYNC_SECONDS),
      // The operator builds worker pods only from images it allows (issue 20): the bench's image.
      WORKER_ALLOWED_IMAGES: 'registry.invalid/docx-parser',
    });
    await op.leading();
    await custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'DocxImportJob',
        metadata: { name: 'bench', namespace: ns },
        spec: {
          queue: { topic, consumerGroup },
          worker: {
            template: { spec: { containers: [{ name: 'parser', image: 'registry.invalid/docx-parser:bench' }] } },
          },
          // Every change moves the target at once in either direction: one job per worker, no delay.
          scaling: { minWorkers: 1, maxWorkers: 50, jobsPerWorker: 1, scaleDownDelaySeconds: 0, scaleDownStep: 1000 },
        },
      },
    });
    await watch.start(kc, ns, 'bench-workers');
    await waitFor(
      async () =>
        (await apps.readNamespacedDeployment({ name: 'bench-workers', namespace: ns }).catch(() => undefined))?.spec
          ?.replicas === 1,
    );
    await sleep(2 * RESYNC_SECONDS * 1000);

    const before = await op.metrics();
    const reactions: number[] = [];
    let produced = 0;
    for (let i = 0; i < CHANGES; i++) {
      const fill = i % 2 === 0;
      const want = fill ? 4 + i : 1;
      // A random pause: follow-up reconciles of the last change (our status write, the Deployment's
      // status) must not pick this change up early, and the change must land anywhere in the resync period.
      await sleep(1500 + Math.random() * RESYNC_SECONDS * 1000);
      const seen = watch.next(want);
      produced += fill ? want : 0;
      const t0 = fill ? await push(producer, topic, want) : await worker.commitAll(produced);
      reactions.push((await seen) - t0);
    }
    await sleep(2 * RESYNC_SECONDS * 1000);
    const after = await op.metrics();

    const gets: number[] = [];
    for (let i = 0; i < BASELINE_GETS; i++) {
      const t = performance.now();
      await apps.readNamespacedDeployment({ name: 'bench-workers', namespace: ns });
      gets.push(performance.now() - t);
    }
    report(reactions, gets, before, after);
  } finally {
    watch.stop();
    await worker.stop().catch(() => undefined);
    await op?.stop();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await core.deleteNamespace({ name: ns }).catch(() => undefined);
  }
}

async function push(producer: ReturnType<Kafka['producer']>, topic: string, count: number): Promise<number> {
  await producer.send({ topic, messages: Array.from({ length: count }, (_, j) => ({ key: `job-${j}`, value: '{}' })) });
  return performance.now();
}

/**
 * A worker that fetches every job but commits only when told: the commit is one acknowledged
 * request, so the moment the queue shrinks is known exactly (admin.setOffsets joins and leaves the
 * group around its commit, which would blur it by seconds).
 */
class HeldConsumer {
  private readonly next = new Map<number, number>();
  private fetched = 0;

  constructor(
    private readonly consumer: ReturnType<Kafka['consumer']>,
    private readonly topic: string,
  ) {}

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        this.next.set(partition, Number(message.offset) + 1);
        this.fetched += 1;
      },
    });
  }

  /** Waits until every produced job was fetched, then commits them all; returns the ack time. */
  async commitAll(produced: number): Promise<number> {
    await waitFor(async () => this.fetched >= produced);
    await this.consumer.commitOffsets(
      [...this.next].map(([partition, offset]) => ({ topic: this.topic, partition, offset: String(offset) })),
    );
    return performance.now();
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}

function report(reactions: number[], gets: number[], before: string, after: string): void {
  const delta = (name: string, match?: (labels: string) => boolean): number =>
    counter(after, name, match) - counter(before, name, match);
  const reconciles = delta('docx_import_operator_reconcile_total');
  const req = (verb: string, resource: string): number =>
    delta(
      'docx_import_operator_kube_requests_total',
      (l) => l.includes(`verb="${verb}"`) && l.includes(`resource="${resource}"`),
    );
  const parts = {
    'apply deployments': req('patch', 'deployments'),
    'patch docximportjobs/status': req('patch', 'docximportjobs/status'),
    'create events': req('create', 'events'),
  };
  const reconcileRequests = Object.values(parts).reduce((a, b) => a + b, 0);
  const lease = req('update', 'leases') + req('get', 'leases');
  const all = delta('docx_import_operator_kube_requests_total');
  const baseline = median(gets);
  const lines = [
    `operator bench: ${CHANGES} queue changes (5 fills, 5 drains), RESYNC_SECONDS=${RESYNC_SECONDS}`,
    `  reaction, Kafka write acked -> Deployment spec.replicas seen: median ${ms(median(reactions))}, max ${ms(Math.max(...reactions))}`,
    `  baseline, bare GET of the Deployment (median of ${BASELINE_GETS}): ${ms(baseline)}`,
    `  reaction / baseline: median ${(median(reactions) / baseline).toFixed(1)}x, max ${(Math.max(...reactions) / baseline).toFixed(1)}x`,
    `    (the queue is polled once per resync: expected reaction ~ RESYNC_SECONDS/2 = ${RESYNC_SECONDS * 500} ms plus one reconcile)`,
    `  reconciles in the window: ${reconciles}; API requests they made: ${reconcileRequests} = ${(reconcileRequests / Math.max(1, reconciles)).toFixed(2)} per reconcile`,
    `    per scaling change: ${(reconcileRequests / CHANGES).toFixed(2)} (${Object.entries(parts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
    `  status writes: ${delta('docx_import_operator_status_writes_total', (l) => l.includes('result="written"'))} written, ${delta('docx_import_operator_status_writes_total', (l) => l.includes('result="deferred"'))} deferred (queue-only changes within QUEUE_STATUS_INTERVAL_SECONDS)`,
    `    idle reconciles (no change) make none; lease renewals in the window: ${lease}; all requests incl. lease and watches: ${all}`,
    `  raw reactions (ms): ${reactions.map((r) => r.toFixed(0)).join(' ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

async function waitFor(probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('bench: timed out waiting for the operator');
    await sleep(100);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
