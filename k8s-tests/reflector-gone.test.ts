// The operator's Reflector, in process, against the real API server: the 410 Gone path driven on
// purpose. Its watch is silenced (a relay stops moving bytes), changes are made that it cannot see,
// and it resumes from a resourceVersion older than the server's watch cache: the server answers
// 410 Gone, and the reflector must re-list and end with exactly the server's objects.
import { expect } from 'chai';
import { pino } from 'pino';
import { GROUP, PLURAL, VERSION, type DocxImportJob } from '../operator/src/api/docx-import-job.js';
import { Reflector, type RestartReason } from '../operator/src/kube/reflector.js';
import { createJob, createNamespace, deleteNamespace, installCrd, kube, type Kube } from './helpers/kube.js';
import { viaRelay } from './helpers/proxied.js';
import { SilencingProxy } from './helpers/tcp-proxy.js';
import { waitFor } from './helpers/wait.js';

describe('the operator reflector on a real API server', function () {
  let k: Kube;
  let ns: string;
  let proxy: SilencingProxy;
  let reflector: Reflector<DocxImportJob> | undefined;

  before(async () => {
    k = kube();
    await installCrd();
  });

  beforeEach(async () => {
    ns = await createNamespace(k, 'dij-refl');
    const server = new URL(k.kc.getCurrentCluster()?.server ?? '');
    proxy = new SilencingProxy({ host: server.hostname, port: Number(server.port || 443) });
  });

  afterEach(async () => {
    reflector?.stop();
    await proxy.stop();
    await deleteNamespace(k, ns);
  });

  const job = (name: string, minWorkers = 0): DocxImportJob => ({
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'DocxImportJob',
    metadata: { name, namespace: ns },
    spec: {
      queue: { topic: 'docx-import.jobs.v1', consumerGroup: 'docx-parsers' },
      worker: { concurrency: 1, template: { spec: { containers: [{ name: 'w', image: 'registry.invalid/w:1' }] } } },
      scaling: { minWorkers, maxWorkers: 10, jobsPerWorker: 5, scaleDownDelaySeconds: 300, scaleDownStep: 1 },
    },
  });

  const serverState = async (): Promise<Map<string, string>> => {
    const list = (await k.custom.listNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
    })) as {
      items: DocxImportJob[];
    };
    return new Map(list.items.map((j) => [j.metadata?.name ?? '', j.metadata?.resourceVersion ?? '']));
  };

  it('re-lists on 410 Gone when resuming from a resourceVersion the server no longer has, and loses no change', async () => {
    await createJob(k, job('a'));
    await createJob(k, job('c'));
    const port = await proxy.start();
    const seen = new Map<string, string>();
    const restarts: RestartReason[] = [];
    reflector = new Reflector<DocxImportJob>({
      kc: viaRelay(k.kc, port),
      path: `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL}`,
      // The list goes straight to the server: only the watch's connection is silenced below.
      list: async () =>
        (await k.custom.listNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          plural: PLURAL,
          namespace: ns,
        })) as {
          items: DocxImportJob[];
        },
      onUpsert: (j) => seen.set(j.metadata?.name ?? '', j.metadata?.resourceVersion ?? ''),
      onDelete: (j) => seen.delete(j.metadata?.name ?? ''),
      onRestart: (reason) => restarts.push(reason),
      logger: pino({ level: 'silent' }),
    });
    reflector.start();
    await waitFor('the reflector to list a and c', async () => reflector?.hasSynced && seen.has('a') && seen.has('c'));
    await waitFor('the watch connection to be open', async () => proxy.silenceOpenConnections() > 0);

    // Three changes the silenced watch cannot deliver: a create, an update (a spec change), a delete.
    await createJob(k, job('b'));
    await k.custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
      name: 'a',
      body: [{ op: 'replace', path: '/spec/scaling/minWorkers', value: 2 }],
    });
    await k.custom.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: ns,
      name: 'c',
    });
    const want = await serverState();
    expect(seen.has('b'), 'the silenced watch delivered nothing').to.equal(false);

    // resourceVersion 1 is older than anything the API server's watch cache holds: it answers 410.
    reflector.resumeFrom('1');
    await waitFor(
      'the reflector to match the server',
      async () => JSON.stringify([...seen].sort()) === JSON.stringify([...want].sort()),
    );
    expect(restarts, 'restart reasons in order').to.include.ordered.members(['start', 'resumed', 'expired']);
    expect([...seen.keys()].sort()).to.deep.equal(['a', 'b']);
  });
});
