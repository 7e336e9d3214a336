// The operator touches only the Deployments it owns, and builds worker pods from its allow-list, on
// a real API server. Two layers, each proven alone: the chart's ValidatingAdmissionPolicy refuses
// the operator's ServiceAccount (its real token, its real Role) any write to a Deployment without
// its label and owner, whatever the operator's code does; and the operator's code, in a namespace
// without that policy, leaves a foreign Deployment of its worker's name alone and refuses a job
// that asks for an image it does not allow.
import { expect } from 'chai';
import path from 'node:path';
import { AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { GROUP, VERSION, type DocxImportJob } from '../operator/src/api/docx-import-job.js';
import { desiredDeployment, FIELD_MANAGER, workerTemplate } from '../operator/src/controller/worker-deployment.js';
import type { WorkerPolicy } from '../operator/src/controller/worker-policy.js';
import { helm, kubectl } from './helpers/cluster.js';
import { dumpOnFailure } from './helpers/dump-on-failure.js';
import { kafkaBrokers } from './helpers/kafka-queue.js';
import {
  createJob,
  createNamespace,
  deleteNamespace,
  getJob,
  installCrd,
  kube,
  namespaceEvents,
  readDeployment,
  repoRoot,
  type Kube,
} from './helpers/kube.js';
import { OperatorProcess, TEST_WORKER_IMAGE } from './helpers/operator-process.js';
import { operatorKubeconfig, removeKubeconfigs } from './helpers/operator-rbac.js';
import { waitFor } from './helpers/wait.js';

const OPERATOR_SA = 'docx-import-operator';
const WORKER_SA = 'edu-workers';
const RELEASE = 'own';

const policy: WorkerPolicy = {
  serviceAccountName: WORKER_SA,
  allowedImages: [TEST_WORKER_IMAGE.split(':')[0]!],
  imagePullSecrets: [],
  secretEnv: [],
  // The Kafka CA the chart render below configures (kafka.tls.caSecret): the policy admits its volume.
  secretFiles: [{ secret: 'kafka-ca', key: 'ca.crt', path: '/etc/edu-platform/kafka/ca.crt' }],
  healthPort: 8081,
  podLabels: {},
  tmpSizeLimit: '64Mi',
  maxResources: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi' },
};

function job(ns: string, name: string, image = TEST_WORKER_IMAGE): DocxImportJob {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'DocxImportJob',
    metadata: { name, namespace: ns },
    spec: {
      queue: { topic: `own-${ns}`, consumerGroup: 'parsers' },
      worker: { concurrency: 1, template: { spec: { containers: [{ name: 'worker', image }] } } },
      scaling: { minWorkers: 1, maxWorkers: 2, jobsPerWorker: 5, scaleDownDelaySeconds: 0, scaleDownStep: 1 },
    },
  };
}

/** A Deployment nobody's operator made: what a name collision or a takeover attempt meets. */
function foreign(ns: string, name: string): V1Deployment {
  const labels = { app: 'foreign' };
  return {
    metadata: { name, namespace: ns, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.invalid/foreign:1' }] } },
    },
  };
}

/** The API server's refusal of `write`, as status code and message. */
async function refusal(write: () => Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await write();
  } catch (err) {
    const e = err as { code?: number; body?: unknown; message?: string };
    return { code: e.code ?? 0, message: `${String(e.body ?? '')} ${e.message ?? ''}` };
  }
  throw new Error('the API server accepted a write it should have refused');
}

describe('the operator touches only the Deployments it owns', function () {
  let k: Kube;

  before(async () => {
    k = kube();
    await installCrd();
  });

  describe("the chart's ValidatingAdmissionPolicy, against the operator's own ServiceAccount", () => {
    let ns: string;
    let asOperator: AppsV1Api;
    let policyName = '';

    before(async () => {
      ns = await createNamespace(k, 'dij-vap');
      const kc = new KubeConfig();
      kc.loadFromFile(await operatorKubeconfig(k, ns));
      asOperator = kc.makeApiClient(AppsV1Api);
      const manifest = await helm([
        'template',
        RELEASE,
        path.join(repoRoot, 'charts', 'edu-platform'),
        '-n',
        ns,
        '--show-only',
        'templates/operator/admission-policy.yaml',
        '--api-versions',
        'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy',
        '--set',
        `operator.serviceAccount.name=${OPERATOR_SA},serviceAccount.name=${WORKER_SA}`,
        '--set',
        'mongodb.uri=mongodb://db:27017/,kafka.brokers={kafka:9092},kafka.tls.enabled=true,kafka.tls.caSecret.name=kafka-ca',
      ]);
      policyName = /name: (\S+)/.exec(manifest)?.[1] ?? '';
      await kubectl(['apply', '-f', '-'], { input: manifest });
      // In force once a write it must refuse is refused (the policy reaches the admission plugin asynchronously).
      await waitFor('the policy to refuse the operator an unlabelled Deployment', async () => {
        const probe = foreign(ns, 'probe');
        return asOperator.createNamespacedDeployment({ namespace: ns, body: probe, dryRun: 'All' }).then(
          () => false,
          (err: { code?: number }) => err.code === 403,
        );
      });
    });

    after(async () => {
      removeKubeconfigs(ns);
      if (policyName) {
        await kubectl(['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', policyName]).catch(
          () => undefined,
        );
      }
      await deleteNamespace(k, ns);
    });

    it('refuses to patch, scale or take over (relabel and adopt) a foreign Deployment, which stays as it was', async () => {
      await k.apps.createNamespacedDeployment({ namespace: ns, body: foreign(ns, 'billing') });
      const before = await readDeployment(k, ns, 'billing');
      const scale = await refusal(() =>
        asOperator.patchNamespacedDeployment(
          { name: 'billing', namespace: ns, body: { spec: { replicas: 0 } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      );
      expect(scale.code).to.equal(403);
      expect(scale.message).to.include('may only write Deployments that carry its managed-by label');
      // The takeover: a server-side apply that brings the operator's label and an owner reference along.
      // (Same selector and pod as before, so that only the admission policy can be what refuses it.)
      const owner = await createJob(k, job(ns, 'billing-owner'));
      const ours = desiredDeployment(owner, 3, { spec: { containers: [] } });
      const takeover = {
        ...foreign(ns, 'billing'),
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { ...ours.metadata, name: 'billing', labels: { app: 'foreign', ...ours.metadata?.labels } },
      };
      const adopted = await refusal(() =>
        asOperator.patchNamespacedDeployment(
          {
            name: 'billing',
            namespace: ns,
            body: takeover,
            fieldManager: FIELD_MANAGER,
            force: true,
          },
          setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
        ),
      );
      expect(adopted.code).to.equal(403);
      const after = await readDeployment(k, ns, 'billing');
      // (The deployment controller's status writes move resourceVersion; the spec's generation does not.)
      expect(after?.metadata?.generation).to.equal(before?.metadata?.generation);
      expect(after?.spec).to.deep.equal(before?.spec);
      expect(after?.metadata?.labels).to.deep.equal({ app: 'foreign' });
    });

    it('refuses to create a Deployment without its label and owner, or one whose pod mounts the host', async () => {
      const unlabelled = await refusal(() =>
        asOperator.createNamespacedDeployment({ namespace: ns, body: foreign(ns, 'sneaky') }),
      );
      expect(unlabelled.code).to.equal(403);
      const owner = await createJob(k, job(ns, 'hostile'));
      const built = workerTemplate(owner, policy);
      if (!built.ok) throw new Error(built.problems.join('; '));
      const hostile = desiredDeployment(owner, 1, built.template);
      hostile.spec!.template.spec!.volumes!.push({ name: 'root', hostPath: { path: '/' } });
      const mounted = await refusal(() => asOperator.createNamespacedDeployment({ namespace: ns, body: hostile }));
      expect(mounted.code).to.equal(403);
      expect(mounted.message).to.include('projected volumes of the');
      expect(await readDeployment(k, ns, 'hostile-workers')).to.equal(undefined);
    });

    it("refuses a worker pod that mounts a Secret other than the configured TLS files (the platform's own credentials)", async () => {
      const owner = await createJob(k, job(ns, 'thief'));
      const built = workerTemplate(owner, {
        ...policy,
        secretFiles: [{ secret: 'edu-secrets', key: 'INTERNAL_API_TOKEN', path: '/etc/edu-platform/kafka/ca.crt' }],
      });
      if (!built.ok) throw new Error(built.problems.join('; '));
      const thief = await refusal(() =>
        asOperator.createNamespacedDeployment({ namespace: ns, body: desiredDeployment(owner, 1, built.template) }),
      );
      expect(thief.code).to.equal(403);
      expect(await readDeployment(k, ns, 'thief-workers')).to.equal(undefined);
    });

    it('lets it create and change the worker Deployment it builds for its own job, the Kafka CA mounted (the control)', async () => {
      const owner = await createJob(k, job(ns, 'parse'));
      const built = workerTemplate(owner, policy);
      if (!built.ok) throw new Error(built.problems.join('; '));
      const apply = (replicas: number) =>
        asOperator.patchNamespacedDeployment(
          {
            name: 'parse-workers',
            namespace: ns,
            body: desiredDeployment(owner, replicas, built.template),
            fieldManager: FIELD_MANAGER,
            force: true,
          },
          setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
        );
      await apply(1);
      await apply(2);
      expect((await readDeployment(k, ns, 'parse-workers'))?.spec?.replicas).to.equal(2);
    });
  });

  describe("the operator's code, in a namespace without the policy", () => {
    let ns: string;
    let op: OperatorProcess;

    before(async () => {
      ns = await createNamespace(k, 'dij-own');
      op = new OperatorProcess({
        kubeconfig: await operatorKubeconfig(k, ns),
        namespace: ns,
        brokers: kafkaBrokers(),
        env: { WORKER_SERVICE_ACCOUNT: WORKER_SA },
      });
      await op.leading();
    });

    afterEach(async function () {
      if (this.currentTest?.state === 'failed') await dumpOnFailure(ns, [{ name: 'operator', log: op.log() }]);
    });

    after(async () => {
      await op?.stop('SIGKILL');
      removeKubeconfigs(ns);
      await deleteNamespace(k, ns);
    });

    const readyCondition = (name: string, reason: string) =>
      waitFor(`Ready=False/${reason} on ${name}`, async () => {
        const c = (await getJob(k, ns, name)).status?.conditions?.find((x) => x.type === 'Ready');
        return c?.status === 'False' && c.reason === reason ? c : undefined;
      });

    it('leaves a foreign Deployment of its worker name alone: DeploymentConflict and a Warning, not an overwrite', async () => {
      await k.apps.createNamespacedDeployment({ namespace: ns, body: foreign(ns, 'clash-workers') });
      const before = await readDeployment(k, ns, 'clash-workers');
      await createJob(k, job(ns, 'clash'));
      const ready = await readyCondition('clash', 'DeploymentConflict');
      expect(ready.message).to.include('is not controlled by this DocxImportJob');
      const warning = await waitFor('the conflict event', async () =>
        (await namespaceEvents(k, ns)).find((e) => e.reason === 'DeploymentConflict' && e.type === 'Warning'),
      );
      expect(warning.object).to.equal('DocxImportJob/clash');
      const after = await readDeployment(k, ns, 'clash-workers');
      // (The deployment controller's status writes move resourceVersion; the spec's generation does not.)
      expect(after?.metadata?.generation).to.equal(before?.metadata?.generation);
      expect(after?.spec).to.deep.equal(before?.spec);
      expect(after?.metadata?.ownerReferences).to.equal(undefined);
    });

    it('refuses a job that asks for an image it does not allow: WorkerTemplateRejected, a Warning, no Deployment', async () => {
      await createJob(k, job(ns, 'evil', 'registry.invalid/miner:1'));
      const ready = await readyCondition('evil', 'WorkerTemplateRejected');
      expect(ready.message).to.include('registry.invalid/miner:1 is not an allowed worker image');
      await waitFor('the rejection event', async () =>
        (await namespaceEvents(k, ns)).find((e) => e.reason === 'WorkerTemplateRejected' && e.type === 'Warning'),
      );
      expect(await readDeployment(k, ns, 'evil-workers')).to.equal(undefined);
    });

    it('builds the worker of an allowed job under its own ServiceAccount, without a token, restricted', async () => {
      await createJob(k, job(ns, 'fine'));
      const d = await waitFor('the worker Deployment', () => readDeployment(k, ns, 'fine-workers'));
      const pod = d.spec?.template.spec;
      expect(pod).to.deep.include({ serviceAccountName: WORKER_SA, automountServiceAccountToken: false });
      expect(pod?.containers[0]?.securityContext).to.deep.include({ readOnlyRootFilesystem: true, privileged: false });
      expect(pod?.volumes?.map((v) => Object.keys(v).sort().join())).to.deep.equal(['emptyDir,name']);
    });
  });
});
