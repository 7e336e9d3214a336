import { expect } from 'chai';
import type { V1Deployment } from '@kubernetes/client-node';
import type { DocxImportJob } from '../src/api/docx-import-job.js';
import { decide } from '../src/controller/decide.js';
import { findCondition } from '../src/controller/conditions.js';
import { parseQuantity } from '../src/controller/quantity.js';
import {
  ANNOTATION_TEMPLATE_HASH,
  isControlledBy,
  ownerJobName,
  stableStringify,
  workerTemplate,
} from '../src/controller/worker-deployment.js';
import { imageAllowed } from '../src/controller/worker-policy.js';
import { aJob, anOwnedDeployment, aPolicy, at, depth, desiredFor } from './support/factories.js';

type Mutate = (t: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A job whose worker template `mutate` changed (as its author wrote it). */
function jobWith(mutate: Mutate): DocxImportJob {
  const job = aJob();
  mutate(job.spec.worker.template as never);
  return job;
}

function problems(job: DocxImportJob, policy = aPolicy()): string[] {
  const t = workerTemplate(job, policy);
  return t.ok ? [] : t.problems;
}

describe('desiredDeployment', () => {
  it('selects its pods by job and component, adds the operator labels, keeps the author labels', () => {
    const job = jobWith((t) => (t.metadata = { labels: { team: 'imports' }, annotations: { 'checksum/config': 'x' } }));
    const d = desiredFor(job, 2);
    expect(d.spec?.selector.matchLabels).to.deep.equal({
      'imports.edu-platform.io/job': 'parse',
      'app.kubernetes.io/component': 'docx-parser-worker',
    });
    expect(d.spec?.template.metadata?.labels).to.deep.equal({
      team: 'imports',
      'app.kubernetes.io/name': 'edu-platform',
      'app.kubernetes.io/instance': 'edu',
      'imports.edu-platform.io/job': 'parse',
      'app.kubernetes.io/component': 'docx-parser-worker',
    });
    expect(d.spec?.template.metadata?.annotations).to.deep.equal({ 'checksum/config': 'x' });
    expect(d.metadata?.labels?.['app.kubernetes.io/managed-by']).to.equal('docx-import-operator');
  });

  it('gives the worker the tuning the job allows, the queue coordinates and the narrow credential, never the internal token', () => {
    const job = aJob({ concurrency: 4 });
    job.spec.worker.template.spec.containers[0]!.env = [{ name: 'LOG_LEVEL', value: 'debug' }];
    const c = desiredFor(job, 1).spec?.template.spec?.containers[0];
    expect(
      c?.env?.map(
        (e) => `${e.name}=${e.value ?? `${e.valueFrom?.secretKeyRef?.name}:${e.valueFrom?.secretKeyRef?.key}`}`,
      ),
    ).to.deep.equal([
      'LOG_LEVEL=debug',
      'DOCX_IMPORT_TOPIC=docx-import.jobs.v1',
      'DOCX_IMPORT_CONSUMER_GROUP=parsers',
      'WORKER_CONCURRENCY=4',
      'WORKER_HEALTH_PORT=8081',
      'WORKER_API_TOKEN=edu-secrets:WORKER_API_TOKEN',
    ]);
    expect(c?.envFrom).to.deep.equal([{ configMapRef: { name: 'worker-config' } }]);
    expect(c?.args).to.deep.equal(['node', 'dist/services/cli.js', 'docx-worker']);
  });

  it("runs the worker under the operator's own pod: its ServiceAccount without a token, restricted security, /tmp only", () => {
    const pod = desiredFor(aJob(), 1).spec?.template.spec;
    expect(pod).to.deep.include({ serviceAccountName: 'edu-workers', automountServiceAccountToken: false });
    expect(pod?.securityContext).to.deep.equal({
      runAsNonRoot: true,
      runAsUser: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod?.containers[0]?.securityContext).to.deep.equal({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod?.volumes).to.deep.equal([{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }]);
    expect(pod?.hostNetwork ?? pod?.hostPID ?? pod?.hostIPC).to.equal(undefined);
    // No limits asked for: memory and disk get the bounds; cpu stays unlimited.
    expect(pod?.containers[0]?.resources).to.deep.equal({ limits: { memory: '2Gi', 'ephemeral-storage': '1Gi' } });
  });

  it('keeps scheduling fields and resources within the bounds', () => {
    const job = jobWith((t) => {
      t.spec.nodeSelector = { pool: 'parsers' };
      t.spec.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'parsers', effect: 'NoSchedule' }];
      t.spec.priorityClassName = 'batch-low';
      t.spec.containers[0].resources = { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '1536Mi' } };
    });
    const pod = desiredFor(job, 1).spec?.template.spec;
    expect(pod).to.deep.include({ nodeSelector: { pool: 'parsers' }, priorityClassName: 'batch-low' });
    expect(pod?.tolerations).to.have.length(1);
    expect(pod?.containers[0]?.resources).to.deep.equal({
      requests: { cpu: '250m', memory: '256Mi' },
      limits: { memory: '1536Mi', 'ephemeral-storage': '1Gi' },
    });
  });

  it('changes the template hash with the template, not with the replicas', () => {
    const job = aJob();
    const hash = (j = job, r = 1) => desiredFor(j, r).metadata?.annotations?.[ANNOTATION_TEMPLATE_HASH];
    const changed = aJob();
    changed.spec.worker.template.spec.containers[0]!.image = 'edu/worker:2';
    expect(hash(job, 1)).to.equal(hash(job, 7));
    expect(hash(changed)).to.not.equal(hash(job));
  });

  it('is controlled by the job through a controller owner reference that names it', () => {
    const job = aJob();
    const d = desiredFor(job, 1);
    expect(isControlledBy(d, job)).to.equal(true);
    expect(isControlledBy(d, { ...job, metadata: { ...job.metadata, uid: 'another' } })).to.equal(false);
    expect(ownerJobName(d)).to.equal('parse');
  });
});

describe('the worker template allow-list (what a DocxImportJob author may not ask for)', () => {
  const attacks: Array<[string, Mutate, RegExp]> = [
    [
      'a hostPath volume',
      (t) => (t.spec.volumes = [{ name: 'root', hostPath: { path: '/' } }]),
      /spec\.volumes: not allowed/,
    ],
    ['the host network', (t) => (t.spec.hostNetwork = true), /spec\.hostNetwork: not allowed/],
    ['the host PID namespace', (t) => (t.spec.hostPID = true), /spec\.hostPID: not allowed/],
    [
      'another ServiceAccount',
      (t) => (t.spec.serviceAccountName = 'edu-operator'),
      /spec\.serviceAccountName: not allowed/,
    ],
    [
      'a mounted token',
      (t) => (t.spec.automountServiceAccountToken = true),
      /automountServiceAccountToken: not allowed/,
    ],
    [
      'a pod security context',
      (t) => (t.spec.securityContext = { runAsUser: 0 }),
      /spec\.securityContext: not allowed/,
    ],
    [
      'an init container',
      (t) => (t.spec.initContainers = [{ name: 'i', image: 'edu/worker:1' }]),
      /initContainers: not allowed/,
    ],
    [
      'a privileged container',
      (t) => (t.spec.containers[0].securityContext = { privileged: true }),
      /\[0\]\.securityContext: not allowed/,
    ],
    [
      'a mount',
      (t) => (t.spec.containers[0].volumeMounts = [{ name: 'x', mountPath: '/x' }]),
      /volumeMounts: not allowed/,
    ],
    [
      'its own command',
      (t) => (t.spec.containers[0].command = ['sh', '-c', 'curl evil']),
      /\[0\]\.command: not allowed/,
    ],
    [
      'a secret as environment',
      (t) => (t.spec.containers[0].envFrom = [{ secretRef: { name: 'edu-secrets' } }]),
      /envFrom: not allowed/,
    ],
    [
      'a secret key as a variable',
      (t) => (t.spec.containers[0].env = [{ name: 'LOG_LEVEL', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]),
      /only a literal value/,
    ],
    [
      'NODE_OPTIONS',
      (t) => (t.spec.containers[0].env = [{ name: 'NODE_OPTIONS', value: '--require /x' }]),
      /NODE_OPTIONS is not one of/,
    ],
    [
      'its own question bank (where the token would go)',
      (t) => (t.spec.containers[0].env = [{ name: 'QUESTION_BANK_URL', value: 'http://evil' }]),
      /QUESTION_BANK_URL is not one of/,
    ],
    [
      'the queue coordinates',
      (t) => (t.spec.containers[0].env = [{ name: 'DOCX_IMPORT_TOPIC', value: 'x' }]),
      /DOCX_IMPORT_TOPIC is not one of/,
    ],
    ['a foreign image', (t) => (t.spec.containers[0].image = 'evil.example/worker:1'), /not an allowed worker image/],
    [
      'a look-alike repository',
      (t) => (t.spec.containers[0].image = 'edu/worker-evil:1'),
      /not an allowed worker image/,
    ],
    [
      'a second container',
      (t) => t.spec.containers.push({ name: 'side', image: 'edu/worker:1' }),
      /exactly one container/,
    ],
    [
      'memory above the bound',
      (t) => (t.spec.containers[0].resources = { limits: { memory: '3Gi' } }),
      /3Gi is above the bound 2Gi/,
    ],
    [
      'cpu above the bound',
      (t) => (t.spec.containers[0].resources = { requests: { cpu: '2500m' } }),
      /2500m is above the bound 2/,
    ],
    [
      'a GPU',
      (t) => (t.spec.containers[0].resources = { limits: { 'nvidia.com/gpu': '1' } }),
      /only cpu, memory, ephemeral-storage/,
    ],
    [
      'an unconfined AppArmor annotation',
      (t) => (t.metadata = { annotations: { 'container.apparmor.security.beta.kubernetes.io/worker': 'unconfined' } }),
      /reserved/,
    ],
    [
      "another component's labels (to pass its network policy)",
      (t) => (t.metadata = { labels: { 'app.kubernetes.io/component': 'gateway' } }),
      /reserved/,
    ],
    ['a system priority class', (t) => (t.spec.priorityClassName = 'system-node-critical'), /outside system-/],
  ];
  for (const [what, mutate, reason] of attacks) {
    it(`refuses ${what}`, () => {
      expect(problems(jobWith(mutate)).join('\n')).to.match(reason);
    });
  }

  it('refuses the job as a whole: no Deployment, Ready=False with the reasons, one Warning', () => {
    const job = jobWith((t) => (t.spec.volumes = [{ name: 'root', hostPath: { path: '/' } }]));
    const first = decide(job, undefined, depth(3), { now: at('2025-03-01T10:00:00Z'), policy: aPolicy() });
    expect(first.deployment).to.equal(null);
    const ready = findCondition(first.status.conditions, 'Ready');
    expect(ready).to.include({ status: 'False', reason: 'WorkerTemplateRejected' });
    expect(ready?.message).to.include('spec.worker.template.spec.volumes: not allowed');
    expect(first.events.map((e) => `${e.type}/${e.reason}`)).to.deep.equal(['Warning/WorkerTemplateRejected']);
    const again = decide({ ...job, status: first.status }, undefined, depth(3), {
      now: at('2025-03-01T10:00:05Z'),
      policy: aPolicy(),
    });
    expect(again.events).to.deep.equal([]);
  });

  it('leaves a running worker Deployment as it is when its job turns bad', () => {
    const job = aJob();
    const running: V1Deployment = anOwnedDeployment(job, 2, 2);
    const bad = jobWith((t) => (t.spec.hostNetwork = true));
    const d = decide({ ...bad, metadata: job.metadata }, running, depth(40), {
      now: at('2025-03-01T10:00:00Z'),
      policy: aPolicy(),
    });
    expect(d.deployment).to.equal(null);
    expect(d.status.desiredWorkers).to.equal(undefined);
  });

  it('takes the default image when the job names none, and no image when the operator has none', () => {
    const job = jobWith((t) => delete t.spec.containers[0].image);
    const withDefault = workerTemplate(job, aPolicy({ defaultImage: 'registry.example/edu:1.2.0', allowedImages: [] }));
    expect(withDefault.ok && withDefault.template.spec?.containers[0]?.image).to.equal('registry.example/edu:1.2.0');
    expect(problems(job).join()).to.match(/image: required/);
  });
});

describe('imageAllowed', () => {
  it('takes an exact reference, or any tag or digest of an allowed repository, and nothing else', () => {
    const allowed = ['registry.example/edu/platform', 'edu-platform:dev'];
    expect(imageAllowed('registry.example/edu/platform:1.0', allowed)).to.equal(true);
    expect(imageAllowed('registry.example/edu/platform@sha256:abc', allowed)).to.equal(true);
    expect(imageAllowed('edu-platform:dev', allowed)).to.equal(true);
    expect(imageAllowed('edu-platform:latest', allowed)).to.equal(false);
    expect(imageAllowed('registry.example/edu/platform-x:1.0', allowed)).to.equal(false);
    expect(imageAllowed('registry.example/edu/platform/x:1.0', allowed)).to.equal(false);
    expect(imageAllowed('anything', [])).to.equal(false);
  });
});

describe('parseQuantity', () => {
  it('reads the suffixes Kubernetes writes', () => {
    expect(parseQuantity('500m')).to.equal(0.5);
    expect(parseQuantity('2')).to.equal(2);
    expect(parseQuantity('256Mi')).to.equal(256 * 2 ** 20);
    expect(parseQuantity('1G')).to.equal(1e9);
    expect(parseQuantity('1.5Gi')).to.equal(1.5 * 2 ** 30);
    expect(parseQuantity('1e3')).to.equal(1000);
    expect(parseQuantity('lots')).to.equal(undefined);
    expect(parseQuantity('1 Gi')).to.equal(undefined);
  });
});

describe('stableStringify', () => {
  it('ignores key order and undefined members', () => {
    expect(stableStringify({ b: 1, a: [{ y: 2, x: undefined, w: 'z' }] })).to.equal(
      stableStringify({ a: [{ w: 'z', y: 2 }], b: 1 }),
    );
  });
});
