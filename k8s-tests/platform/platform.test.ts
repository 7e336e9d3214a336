// The whole platform in real pods (k8s-tests/node.mocharc.json on the local node,
// k8s-tests/kind.mocharc.json on kind): `helm install --wait` of the chart with every service, the
// gateway, the operator and its parser workers, against the secure profile's SASL_SSL Kafka and TLS
// MongoDB on the local node (the chart's in-cluster Kafka on kind); `helm test`; an exam flow
// through the Services (kubectl port-forward, as from a laptop); the operator scaling worker pods
// that really consume; a worker killed mid-job; a Kafka outage ridden out; a rolling `helm upgrade`
// under a steady stream through a relay pod in front of the Service; `helm uninstall`.
// The tests run in order on one release. Skips unless a node runs pods (node-setup.ts sets
// EDU_NODE=1, kind-setup.ts EDU_KIND=1; EDU_NODE_EXTERNAL=1 for any other cluster).
import { expect } from 'chai';
import { SERVICES } from '../../services/registry.js';
import { helm, kubectl } from '../helpers/cluster.js';
import { dumpOnFailure } from '../helpers/dump-on-failure.js';
import { waitFor } from '../helpers/wait.js';
import { examFlow } from './exam-flow.js';
import { jobState, tally, uploadBurst, type Importer } from '../../bench/lib/docx-imports.js';
import {
  INSTANCE,
  NAMESPACE,
  RELEASE,
  WORKERS,
  getJson,
  install,
  internalToken,
  isReady,
  jobStatus,
  againstSecureStores,
  SUITE_SECRETS,
  isSuiteStore,
  ns,
  pods,
  serviceUrl,
  workerReplicas,
  type PodJson,
} from './release.js';
import { steadyLoad } from './steady.js';
import { inClusterBroker, kafkaOutage, secureBroker } from './kafka-outage.js';
import { relayTo } from './relay.js';

const LONG = { timeoutMs: 10 * 60_000, intervalMs: 1000 };
// Enough 120-question files that one quarter-core worker needs tens of seconds for them.
const BURST = 60;

interface Workload {
  metadata: { name: string };
  spec: { replicas?: number };
  status: { readyReplicas?: number };
}

async function workloadsReady(): Promise<string[]> {
  const items = (await getJson<{ items: Workload[] }>(['get', 'deployments,statefulsets', '-l', INSTANCE])).items;
  return items.filter((w) => (w.status.readyReplicas ?? 0) < (w.spec.replicas ?? 1)).map((w) => w.metadata.name);
}

describe('the platform in pods on a real node', function () {
  let importer: Importer;
  let token = '';

  before(function () {
    if (process.env.EDU_NODE !== '1' && process.env.EDU_KIND !== '1' && process.env.EDU_NODE_EXTERNAL !== '1') {
      console.log('      skipped: no node runs pods (run with k8s-tests/node.mocharc.json)');
      this.skip();
    }
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const podList = await kubectl(ns(['get', 'pods', '-o', 'wide'])).catch((e: Error) => e.message);
    process.stderr.write(`----- pods in ${NAMESPACE} -----\n${podList}\n`);
    const operatorLog = await kubectl(ns(['logs', `deployment/${RELEASE}-operator`, '--tail=200'])).catch(
      (e: Error) => e.message,
    );
    await dumpOnFailure(NAMESPACE, [{ name: 'operator', log: operatorLog }]);
  });

  it('helm install --wait brings every Deployment and StatefulSet of the chart to Ready', async () => {
    await install();
    expect(await workloadsReady()).to.deep.equal([]);
    const all = await pods();
    const components = new Set(all.map((p) => p.metadata.labels?.['app.kubernetes.io/component']));
    for (const { name } of SERVICES) expect(components, `a ${name} pod`).to.include(name);
    expect(components).to.include('operator');
    // On the local node Kafka is the secure profile's broker outside the cluster; elsewhere the chart's own.
    if (!againstSecureStores()) expect(components).to.include('kafka');
    // The operator creates the worker Deployment once it sees the DocxImportJob: after helm's wait.
    await waitFor(
      'the worker Deployment with minWorkers (1) Ready',
      async () => (await workerReplicas()).ready >= 1,
      LONG,
    );
    token = await internalToken();
    importer = { base: await serviceUrl('document-import'), internalToken: token, organizationId: 'org-node' };
  });

  it('helm test passes', async () => {
    const out = await helm(['test', RELEASE, '-n', NAMESPACE, '--timeout', '5m'], { timeoutMs: 6 * 60_000 });
    expect(out).to.match(/Phase:\s+Succeeded/);
  });

  it('runs an exam through the Services: register, questions, DOCX import and approval, attempt, result', async () => {
    const urls = {
      auth: await serviceUrl('auth'),
      questionBank: await serviceUrl('question-bank'),
      documentImport: await serviceUrl('document-import'),
      attempt: await serviceUrl('attempt'),
    };
    const summary = await examFlow(urls, { internalToken: token, waitTimeoutMs: 300_000 });
    expect(summary.totalScore).to.equal(summary.expectedScore);
    expect(summary.importedQuestionIds.length).to.be.greaterThan(0);
  });

  it('scales the worker pods up as jobs pile up; they drain the queue, readyWorkers follows, then it scales back down', async () => {
    const ids = await uploadBurst(importer, BURST, 120);
    const up = await waitFor(
      'the operator to ask for more than one worker',
      async () => {
        const s = await jobStatus();
        return (s.desiredWorkers ?? 0) > 1 && s;
      },
      LONG,
    );
    expect(up.desiredWorkers).to.be.at.most(3);
    await waitFor(
      'two or more worker pods Ready and reported in readyWorkers',
      async () => {
        const [s, d] = [await jobStatus(), await workerReplicas()];
        return d.ready >= 2 && (s.readyWorkers ?? 0) >= 2;
      },
      LONG,
    );
    const done = await waitFor(
      'every job of the burst COMPLETED',
      async () => {
        const t = await tally(importer, ids);
        return t.COMPLETED === BURST && t;
      },
      LONG,
    );
    expect(done).to.deep.equal({ COMPLETED: BURST });
    await waitFor(
      'the workers scaled back down to minWorkers (1), readyWorkers 1',
      async () => {
        const [s, d] = [await jobStatus(), await workerReplicas()];
        return d.spec === 1 && d.ready === 1 && s.readyWorkers === 1 && s.queue?.totalPending === 0;
      },
      LONG,
    );
  });

  it('loses no job when a worker pod is killed in the middle of one', async () => {
    // Large exams, so a job lasts long enough to be seen PROCESSING; a fast poll, as the state is a passing one
    // (a 120-question job can start and finish between two polls a second apart).
    const ids = await uploadBurst(importer, 8, 600);
    const busy = await waitFor(
      'a job being processed',
      async () => {
        const states = await Promise.all(ids.map((id) => jobState(importer, id)));
        return ids[states.indexOf('PROCESSING')];
      },
      { timeoutMs: LONG.timeoutMs, intervalMs: 50 },
    );
    // The operator's worker pods carry the DocxImportJob template's labels, not necessarily the chart's.
    const workers = (await getJson<{ items: PodJson[] }>(['get', 'pods'])).items.filter(
      (p) => p.metadata.name.startsWith(`${WORKERS}-`) && isReady(p),
    );
    expect(workers.length, `worker pods while ${busy} runs`).to.be.greaterThan(0);
    // SIGKILL, no grace: the job's lease must run out and another worker take it.
    const names = workers.map((p) => p.metadata.name);
    await kubectl(ns(['delete', 'pod', ...names, '--grace-period=0', '--force', '--wait=false']));
    const done = await waitFor(
      'every job COMPLETED after the kill',
      async () => {
        const t = await tally(importer, ids);
        return t.COMPLETED === ids.length && t;
      },
      LONG,
    );
    expect(done).to.deep.equal({ COMPLETED: ids.length });
  });

  it('rides out a minute without Kafka: Services stay Ready, writes succeed, their events arrive after', async function () {
    const values = JSON.parse(await helm(['get', 'values', RELEASE, '-n', NAMESPACE, '--all', '-o', 'json'])) as {
      kafka: { enabled: boolean; topicPrefix: string; persistence: { enabled: boolean } };
    };
    if (!againstSecureStores() && !values.kafka.persistence.enabled) {
      // A broker on an emptyDir comes back empty: no topic (the platform creates them at start only).
      console.log('      skipped: the in-cluster Kafka keeps its log on an emptyDir (kafka.persistence.enabled=false)');
      this.skip();
    }
    const broker = againstSecureStores() ? secureBroker() : inClusterBroker();
    const topic = `${values.kafka.topicPrefix}identity.user-changed.v1`;
    const outage = await kafkaOutage(broker, { url: await serviceUrl('auth'), token }, topic, 60_000);
    expect(outage.unready, 'pods out of rotation during the outage').to.deep.equal([]);
    expect(outage.readyzFailures, 'auth /readyz during the outage').to.deep.equal([]);
    expect(outage.delivered).to.deep.equal(outage.userIds);
  });

  it('rolls every pod on helm upgrade with a changed value, losing no request of a steady stream', async () => {
    const before = new Set((await pods()).map((p) => p.metadata.name));
    // Not a port-forward to the Service (it would pin one pod): a relay pod that dials the Service.
    const relay = await relayTo('question-bank');
    const url = `${relay.url}/v1/questions?limit=1`;
    const headers = {
      'X-Internal-Token': token,
      'X-Organization-Id': 'org-node',
      'X-User-Id': 'teacher-org-node',
      'X-User-Role': 'TEACHER',
    };
    const load = steadyLoad(url, headers, 200);
    let result: Awaited<ReturnType<typeof load.stop>>;
    try {
      await install(['--set', 'logLevel=debug']);
      await waitFor('every workload Ready after the upgrade', async () => (await workloadsReady()).length === 0, LONG);
    } finally {
      result = await load.stop();
      await relay.stop();
    }
    const qb = (await pods(`${INSTANCE},app.kubernetes.io/component=question-bank`)).filter(isReady);
    expect(qb.length).to.be.greaterThan(0);
    for (const p of qb) expect(before.has(p.metadata.name), `${p.metadata.name} is a new pod`).to.equal(false);
    expect(result.failures, `${result.sent} requests`).to.deep.equal([]);
    expect(result.ok).to.be.greaterThan(20);
  });

  it('helm uninstall leaves nothing of the release in the namespace (the Secrets and stores the admin made stay)', async () => {
    await helm(['uninstall', RELEASE, '-n', NAMESPACE, '--wait', '--timeout', '5m'], { timeoutMs: 6 * 60_000 });
    const kinds = 'all,configmaps,secrets,pvc,networkpolicies,dij,leases,serviceaccounts,roles,rolebindings,ingresses';
    const left = await waitFor(
      'nothing left but the namespace defaults',
      async () => {
        const out = await kubectl(ns(['get', kinds, '-o', 'name']));
        const names = out
          .split('\n')
          .filter((l) => l && !/^(serviceaccount\/default|configmap\/kube-root-ca\.crt)$/.test(l))
          .filter((l) => !SUITE_SECRETS.map((n) => `secret/${n}`).includes(l))
          .filter((l) => !isSuiteStore(l));
        return names.length === 0 ? 'empty' : undefined;
      },
      LONG,
    );
    expect(left).to.equal('empty');
    await kubectl(['delete', 'namespace', NAMESPACE, '--wait=false']);
  });
});
