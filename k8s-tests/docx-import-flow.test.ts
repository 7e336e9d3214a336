// The document-import flow on a real API server, Kafka and MongoDB: uploads go through the real
// service's API onto the DocxImportJob's queue, the real operator scales the worker Deployment on
// the queue's depth and reports it (`kubectl get dij`), and local `docx-worker` processes, run with
// the environment the operator gives the worker pods, drain it. There is no kubelet, so the
// Deployment's spec.replicas is the scaling signal and the workers run beside the test.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { mongo } from 'mongoose';
import { TOPICS } from '../kafka/topics.js';
import { GROUP, VERSION, type DocxImportJob, type DocxImportJobStatus } from '../operator/src/api/docx-import-job.js';
import { makeDocx } from '../services/document-import/test/parser/support/build-docx.js';
import { kubectl } from './helpers/cluster.js';
import { dumpOnFailure } from './helpers/dump-on-failure.js';
import { kafkaBrokers } from './helpers/kafka-queue.js';
import {
  createJob,
  createNamespace,
  deleteNamespace,
  getJob,
  installCrd,
  kube,
  readDeployment,
  uniqueSuffix,
  type Kube,
} from './helpers/kube.js';
import { OperatorProcess } from './helpers/operator-process.js';
import { operatorKubeconfig, removeKubeconfigs } from './helpers/operator-rbac.js';
import { PlatformProcess, freePort, serviceReady } from './helpers/platform-process.js';
import { waitFor } from './helpers/wait.js';

const JOB = 'docx-parser';
const WORKERS = `${JOB}-workers`;
const UPLOADS = 6;
const SCALING = { minWorkers: 1, maxWorkers: 3, jobsPerWorker: 2, scaleDownDelaySeconds: 2, scaleDownStep: 1 };
const TEACHER = { 'X-Organization-Id': 'org-k8s', 'X-User-Id': 'teacher-k8s', 'X-User-Role': 'TEACHER' };

/** `kubectl get dij` as a person reads it: header column → cell (cells sit under their header). */
async function dijColumns(namespace: string): Promise<Record<string, string>> {
  const [head = '', row = ''] = (await kubectl(['get', 'dij', JOB, '-n', namespace])).split('\n');
  const starts = [...head.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index }));
  return Object.fromEntries(starts.map((c, i) => [c.name, row.slice(c.at, starts[i + 1]?.at).trim()]));
}

/** `n` questions, so each job's parse result tells which upload it came from. */
async function questionsDocx(n: number): Promise<Buffer> {
  const blocks = Array.from({ length: n }, (_, i) => [
    `Câu ${i + 1}. ${i + 1} + ${i + 1} bằng bao nhiêu?`,
    `A. ${2 * i + 2}\tB. ${2 * i + 3}\tC. ${2 * i + 4}\tD. ${2 * i + 5}`,
    'Đáp án: A',
  ]).flat();
  return Buffer.from(await makeDocx(blocks));
}

describe('document import on a real API server, Kafka and MongoDB: the operator scales the workers as the API queues jobs', function () {
  const suffix = uniqueSuffix();
  const topic = `${TOPICS.docxImportJobs}.flow-${suffix}`;
  const eventsTopic = `${TOPICS.docxImportJobEvents}.flow-${suffix}`;
  const group = `docx-parser-flow-${suffix}`;
  const database = `edu_docx_flow_${suffix}`;
  let k: Kube;
  let ns: string;
  let kubeconfig: string;
  let spool: string;
  let operator: OperatorProcess | undefined;
  let service: PlatformProcess | undefined;
  const workers: PlatformProcess[] = [];
  let base: string;
  let env: Record<string, string>;

  before(async () => {
    k = kube();
    await installCrd();
    ns = await createNamespace(k, 'dij-flow');
    kubeconfig = await operatorKubeconfig(k, ns);
    spool = mkdtempSync(path.join(os.tmpdir(), 'docx-flow-spool-'));
    const mongoUri = process.env.MONGODB_URI;
    if (!mongoUri) throw new Error('MONGODB_URI is not set: run the suite with k8s-tests/.mocharc.json');
    // What the chart gives the service and the worker pods, pointed at this test's queue and database.
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      MONGODB_URI: mongoUri,
      MONGODB_DB: database,
      KAFKA_BROKERS: kafkaBrokers(),
      DOCX_IMPORT_PAYLOAD_DIR: spool,
      DOCX_IMPORT_EVENTS_TOPIC: eventsTopic,
      DOCX_WORKER_SESSION_TIMEOUT_MS: '6000',
    };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = new PlatformProcess('document-import', {
      ...env,
      PORT: String(port),
      DOCX_IMPORT_TOPIC: topic,
      DOCX_IMPORT_CONSUMER_GROUP: group,
      WORKER_CONCURRENCY: '2',
      // The burst below uploads all at once, as one teacher: the default spool cap (4) would answer 503
      // UPLOADS_BUSY, and the default shares (2 per teacher, 3 per school) 429 RATE_LIMITED.
      UPLOAD_MAX_CONCURRENT: String(UPLOADS),
      UPLOAD_MAX_PER_CLIENT: String(UPLOADS),
      UPLOAD_MAX_PER_ORGANIZATION: String(UPLOADS),
    });
    await serviceReady(service, base); // it has created the queue's topic by now
    operator = new OperatorProcess({ kubeconfig, namespace: ns, brokers: kafkaBrokers() });
    await operator.leading();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' && process.env.K8S_TESTS_DUMP !== '1') return;
    const procs = [service, ...workers].filter((p): p is PlatformProcess => p !== undefined);
    await dumpOnFailure(ns, [
      ...(operator ? [{ name: `operator (pid ${operator.pid})`, log: operator.log() }] : []),
      ...procs.map((p) => ({ name: `${p.command} (pid ${p.pid})`, log: p.log() })),
    ]);
  });

  after(async () => {
    await Promise.all([...workers.map((w) => w.stop()), service?.stop(), operator?.stop('SIGKILL')]);
    removeKubeconfigs(ns ?? '');
    if (k && ns) await deleteNamespace(k, ns);
    rmSync(spool, { recursive: true, force: true });
    await dropDatabase().catch(() => undefined);
    await deleteTopics([topic, `${topic}.dlq`, eventsTopic]).catch(() => undefined);
  });

  async function dropDatabase(): Promise<void> {
    const client = await mongo.MongoClient.connect(env.MONGODB_URI!);
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  }

  async function deleteTopics(topics: string[]): Promise<void> {
    const admin = new Kafka({
      clientId: 'k8s-tests',
      brokers: kafkaBrokers().split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      await admin.deleteTopics({ topics });
    } finally {
      await admin.disconnect();
    }
  }

  const replicas = async (): Promise<number | undefined> => (await readDeployment(k, ns, WORKERS))?.spec?.replicas;
  const waitReplicas = (n: number): Promise<true> =>
    waitFor(`${WORKERS} to have ${n} replicas`, async () => (await replicas()) === n || undefined);
  const waitStatus = (what: string, ok: (s: DocxImportJobStatus) => boolean): Promise<DocxImportJobStatus> =>
    waitFor(`status: ${what}`, async () => {
      const status = (await getJob(k, ns, JOB)).status;
      return status && ok(status) ? status : undefined;
    });

  const api = async (method: string, route: string, body?: FormData): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${route}`, { method, headers: TEACHER, body });
    const json = (await res.json()) as { data?: Record<string, unknown> };
    if (!res.ok || !json.data) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  const upload = async (questions: number): Promise<Record<string, unknown>> => {
    const form = new FormData();
    form.append('file', new Blob([await questionsDocx(questions)]), `de-${questions}.docx`);
    return api('POST', '/v1/import/docx/qas/jobs', form);
  };

  it('scales the worker Deployment up as uploads queue through the API, shows the queue in kubectl get dij, and back down to minWorkers as local workers drain it', async () => {
    const dij: DocxImportJob = {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'DocxImportJob',
      metadata: { name: JOB, namespace: ns },
      spec: {
        queue: { topic, consumerGroup: group },
        worker: {
          concurrency: 2,
          template: {
            spec: {
              containers: [
                // The operator sets the program (node dist/services/cli.js docx-worker) itself.
                { name: 'worker', image: 'registry.invalid/edu-platform:test' },
              ],
            },
          },
        },
        scaling: SCALING,
      },
    };
    await createJob(k, dij);
    await waitReplicas(SCALING.minWorkers);
    await waitStatus('the empty queue read', (s) => s.queue?.totalPending === 0);

    const submitted = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => upload(i + 1)));
    expect(submitted.map((j) => j.status)).to.deep.equal(Array(UPLOADS).fill('PENDING'));
    await waitReplicas(SCALING.maxWorkers); // ceil(6 / 2) = 3 = maxWorkers
    const queued = await waitStatus(`${UPLOADS} pending`, (s) => s.queue?.totalPending === UPLOADS);
    expect(queued).to.deep.include({ desiredWorkers: 3, readyWorkers: 0, workerDeployment: WORKERS });
    const shown = await waitFor('kubectl get dij to show the waiting queue', async () => {
      const row = await dijColumns(ns);
      return row.WAITING === String(UPLOADS) ? row : undefined;
    });
    expect(shown).to.include({ NAME: JOB, WAITING: '6', ACTIVE: '0', DESIRED: '3', READY: '0' });
    // No worker has run yet: the jobs are still waiting, as the API says too.
    for (const job of submitted)
      expect((await api('GET', `/v1/import/docx/jobs/${String(job.id)}`)).status).to.equal('PENDING');

    // The local workers get exactly the queue settings the operator put into the worker pods.
    const container = (await readDeployment(k, ns, WORKERS))?.spec?.template.spec?.containers[0];
    // Literal values only: the credentials come from Secrets the local workers get from `env` instead.
    const injected = Object.fromEntries(
      (container?.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])),
    );
    expect(injected).to.include({
      DOCX_IMPORT_TOPIC: topic,
      DOCX_IMPORT_CONSUMER_GROUP: group,
      WORKER_CONCURRENCY: '2',
    });
    for (let i = 0; i < 2; i++) workers.push(new PlatformProcess('docx-worker', { ...env, ...injected }));

    for (const [i, job] of submitted.entries()) {
      const done = await waitFor(`job ${String(job.id)} COMPLETED`, async () => {
        if (workers.some((w) => !w.running)) throw new Error('a docx-worker exited');
        const detail = await api('GET', `/v1/import/docx/jobs/${String(job.id)}`);
        if (detail.status === 'FAILED') throw new Error(`job failed: ${JSON.stringify(detail.errorSummary)}`);
        return detail.status === 'COMPLETED' ? detail : undefined;
      });
      expect((done.parseResultJson as { questions: unknown[] }).questions, `upload ${i + 1}`).to.have.length(i + 1);
      expect(done).to.not.have.property('queue');
    }

    await waitReplicas(SCALING.minWorkers);
    const drained = await waitStatus('the queue drained', (s) => s.queue?.totalPending === 0);
    expect(drained.queue).to.include({ waiting: 0, active: 0 });
    const emptied = await waitFor('kubectl get dij to show an empty queue', async () => {
      const row = await dijColumns(ns);
      return row.WAITING === '0' && row.DESIRED === '1' ? row : undefined;
    });
    expect(emptied).to.include({ ACTIVE: '0', READY: '0' });
    expect(
      workers.every((w) => w.running),
      'the workers are still up',
    ).to.equal(true);
  });
});
