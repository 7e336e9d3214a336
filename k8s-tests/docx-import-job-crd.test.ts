// The DocxImportJob CRD on a real API server: it installs, `kubectl get dij` answers "how deep is
// the queue and how many workers", defaults are applied, and the server itself rejects bad specs.
import { expect } from 'chai';
import { TOPICS } from '../kafka/topics.js';
import { kubectl } from './helpers/cluster.js';
import { createNamespace, deleteNamespace, getJob, installCrd, kube, type Kube } from './helpers/kube.js';

function manifest(
  name: string,
  namespace: string,
  scaling: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    apiVersion: 'imports.edu-platform.io/v1alpha1',
    kind: 'DocxImportJob',
    metadata: { name, namespace },
    spec: {
      queue: { consumerGroup: 'docx-parsers' },
      worker: { template: { spec: { containers: [{ name: 'worker', image: 'registry.invalid/docx-worker:test' }] } } },
      scaling,
      ...extra,
    },
  });
}

async function rejection(input: string): Promise<string> {
  try {
    await kubectl(['apply', '-f', '-'], { input });
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the API server accepted a resource it should have rejected');
}

describe('DocxImportJob CRD (crds/docximportjobs.imports.edu-platform.io.yaml)', function () {
  let k: Kube;
  let ns: string;

  before(async function () {
    k = kube();
    await installCrd();
    ns = await createNamespace(k, 'dij-crd');
  });

  after(async () => {
    if (ns) await deleteNamespace(k, ns);
  });

  it('is listed by `kubectl get dij` with Waiting, Active, Desired, Ready and Age columns filled from status', async () => {
    await kubectl(['apply', '-f', '-'], { input: manifest('columns', ns) });
    const status = {
      queue: { totalPending: 17, active: 4, waiting: 13, oldestWaitingSeconds: 42, partitions: 6 },
      desiredWorkers: 4,
      readyWorkers: 2,
    };
    await kubectl([
      'patch',
      'dij',
      'columns',
      '-n',
      ns,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    const out = await kubectl(['get', 'dij', 'columns', '-n', ns]);
    const [header, row] = out
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    expect(header).to.deep.equal(['NAME', 'WAITING', 'ACTIVE', 'DESIRED', 'READY', 'AGE']);
    expect(row?.slice(0, 5)).to.deep.equal(['columns', '13', '4', '4', '2']);
    const wide = await kubectl(['get', 'docximportjobs.imports.edu-platform.io', 'columns', '-n', ns, '-o', 'wide']);
    expect(wide.split('\n')[0]?.trim().split(/\s+/)).to.deep.equal([
      'NAME',
      'WAITING',
      'ACTIVE',
      'DESIRED',
      'READY',
      'OLDEST',
      'PARTITIONS',
      'TOPIC',
      'AGE',
    ]);
    expect(wide).to.include(TOPICS.docxImportJobs);
  });

  it('fills the defaults: the catalogue jobs topic, concurrency 1 and the whole scaling policy', async () => {
    await kubectl(['apply', '-f', '-'], { input: manifest('defaults', ns, undefined) });
    const job = await getJob(k, ns, 'defaults');
    expect(job.spec.queue.topic).to.equal(TOPICS.docxImportJobs);
    expect(job.spec.worker.concurrency).to.equal(1);
    expect(job.spec.scaling).to.deep.equal({
      minWorkers: 0,
      maxWorkers: 10,
      jobsPerWorker: 5,
      scaleDownDelaySeconds: 300,
      scaleDownStep: 1,
    });
  });

  it('rejects minWorkers greater than maxWorkers, on create and on update, with the rule message', async () => {
    const onCreate = await rejection(manifest('minmax', ns, { minWorkers: 5, maxWorkers: 2 }));
    expect(onCreate)
      .to.include('spec.scaling.minWorkers')
      .and.include('minWorkers must be less than or equal to maxWorkers');
    await kubectl(['apply', '-f', '-'], { input: manifest('minmax-update', ns, { minWorkers: 1, maxWorkers: 3 }) });
    const onUpdate = await rejection(manifest('minmax-update', ns, { minWorkers: 4, maxWorkers: 3 }));
    expect(onUpdate).to.include('minWorkers must be less than or equal to maxWorkers');
  });

  const negatives: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['spec.scaling.minWorkers', { minWorkers: -1 }, {}],
    ['spec.scaling.scaleDownDelaySeconds', { scaleDownDelaySeconds: -30 }, {}],
    ['spec.scaling.jobsPerWorker', { jobsPerWorker: 0 }, {}],
    ['spec.scaling.scaleDownStep', { scaleDownStep: 0 }, {}],
    ['spec.scaling.maxWorkers', { minWorkers: 0, maxWorkers: 0 }, {}],
  ];
  for (const [field, scaling, extra] of negatives) {
    it(`rejects ${field} below its minimum (${JSON.stringify(scaling)})`, async () => {
      const message = await rejection(
        manifest(`neg-${Object.keys(scaling).join('-').toLowerCase()}`, ns, scaling, extra),
      );
      expect(message)
        .to.include(field)
        .and.match(/should be greater than or equal to/);
    });
  }

  it('rejects a worker concurrency of 0, a missing consumer group and a pod template without containers', async () => {
    const worker = { concurrency: 0, template: { spec: { containers: [{ name: 'w', image: 'i' }] } } };
    const concurrency = await rejection(manifest('conc', ns, {}, { worker }));
    expect(concurrency).to.include('spec.worker.concurrency');
    const noGroup = JSON.parse(manifest('nogroup', ns));
    delete noGroup.spec.queue.consumerGroup;
    expect(await rejection(JSON.stringify(noGroup))).to.include('spec.queue.consumerGroup: Required value');
    const noContainers = JSON.parse(manifest('nocontainers', ns));
    noContainers.spec.worker.template.spec.containers = [];
    expect(await rejection(JSON.stringify(noContainers))).to.include('spec.worker.template.spec.containers');
  });

  it('refuses a worker template beyond the allow-list: a second container, a variable outside the list, a reserved label, a system priority class, a host volume', async () => {
    const withTemplate = (name: string, template: Record<string, unknown>) => {
      const m = JSON.parse(manifest(name, ns));
      m.spec.worker.template = template;
      return JSON.stringify(m);
    };
    const container = { name: 'worker', image: 'registry.invalid/docx-worker:test' };
    const many = await rejection(
      withTemplate('many', { spec: { containers: [container, { ...container, name: 'miner' }] } }),
    );
    expect(many).to.include('spec.worker.template.spec.containers: Too many');
    const env = await rejection(
      withTemplate('env', { spec: { containers: [{ ...container, env: [{ name: 'NODE_OPTIONS', value: '-r x' }] }] } }),
    );
    expect(env).to.include('Unsupported value: "NODE_OPTIONS"');
    const label = await rejection(
      withTemplate('label', {
        metadata: { labels: { 'app.kubernetes.io/component': 'gateway' } },
        spec: { containers: [container] },
      }),
    );
    expect(label).to.include('labels in the kubernetes.io, k8s.io and edu-platform.io domains are set by the operator');
    const priority = await rejection(
      withTemplate('prio', { spec: { priorityClassName: 'system-node-critical', containers: [container] } }),
    );
    expect(priority).to.include('system-* priority classes are not allowed');
    // kubectl validates strictly: a field outside the schema is an error, not silently dropped.
    const host = await rejection(
      withTemplate('host', { spec: { volumes: [{ name: 'r', hostPath: { path: '/' } }], containers: [container] } }),
    );
    expect(host).to.include('unknown field "spec.worker.template.spec.volumes"');
  });

  it('drops a field outside the schema when the client does not validate strictly: a hostPath never reaches the store', async () => {
    const m = JSON.parse(manifest('pruned', ns));
    m.spec.worker.template.spec.hostNetwork = true;
    m.spec.worker.template.spec.containers[0].command = ['sh'];
    await kubectl(['apply', '--validate=false', '-f', '-'], { input: JSON.stringify(m) });
    const stored = (await getJob(k, ns, 'pruned')).spec.worker.template.spec;
    expect(stored).to.not.have.property('hostNetwork');
    expect(stored.containers[0]).to.not.have.property('command');
  });

  it('rejects a name too long to label the worker pods', async () => {
    expect(await rejection(manifest('x'.repeat(56), ns))).to.include('metadata.name must be at most 55 characters');
  });

  it('keeps status behind the status subresource: a write to the main resource cannot set it', async () => {
    await kubectl(['apply', '-f', '-'], { input: manifest('subresource', ns) });
    await kubectl([
      'patch',
      'dij',
      'subresource',
      '-n',
      ns,
      '--type=merge',
      '-p',
      JSON.stringify({ status: { desiredWorkers: 9 } }),
    ]);
    expect((await getJob(k, ns, 'subresource')).status?.desiredWorkers).to.equal(undefined);
  });

  it('explains itself: `kubectl explain dij.spec.scaling` prints the field descriptions', async () => {
    const out = await kubectl(['explain', 'dij.spec.scaling']);
    expect(out).to.include('GROUP:      imports.edu-platform.io');
    expect(out).to.match(/minWorkers\s+<integer>/);
    expect(out).to.include('Workers kept even when the queue is empty');
    expect(await kubectl(['explain', 'dij.status.queue.waiting'])).to.include('Pending jobs no worker holds');
  });
});
