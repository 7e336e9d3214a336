// The chart's NetworkPolicies for MongoDB and Kafka, enforced for real on the local node by the
// policy controller of scripts/netpol.sh (kube-router; the node's bridge CNI plugin alone ignores
// policies). In a fresh namespace, servers carrying the mongodb/kafka selector labels answer on
// 27017/9092; a pod with the release's labels keeps reaching them once the policies are applied,
// a pod without them and a pod of another release are cut off, and deleting the policies lets
// them through again. Skips unless `scripts/node.sh up` and `scripts/netpol.sh up` have run.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { loadAllYaml } from '@kubernetes/client-node';
import { helm, kubectl } from '../helpers/cluster.js';
import { waitFor } from '../helpers/wait.js';
import { chartDir, echoImage, podManifest, reaches, runningIp, skipReason, type Labels } from './probe-pods.js';

const DEADLINE = { timeoutMs: 120_000, intervalMs: 500 };
const release = 'np';
const releaseLabels: Labels = { 'app.kubernetes.io/name': 'edu-platform', 'app.kubernetes.io/instance': release };
const component = (name: string): Labels => ({ ...releaseLabels, 'app.kubernetes.io/component': name });

const SERVERS = [
  { server: 'mongodb', port: 27017 },
  { server: 'kafka', port: 9092 },
] as const;
const CLIENTS: Record<string, Labels> = {
  // A platform service of this release: the policies admit it.
  service: component('auth'),
  // No release labels at all.
  outsider: { app: 'outsider' },
  // The same chart, another release: the policies select on the instance too.
  'other-release': { ...component('auth'), 'app.kubernetes.io/instance': `${release}-other` },
};

type Target = { server: string; ip: string; port: number };

describe('network policies on the local node (scripts/netpol.sh)', function () {
  this.timeout(10 * 60_000);
  const ns = `netpol-${randomBytes(3).toString('hex')}`;
  let targets: Target[] = [];
  let policies = '';
  let created = false;

  before(async function () {
    const reason = skipReason();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const image = echoImage();
    policies = await renderPolicies();
    await kubectl(['create', 'namespace', ns]);
    created = true;
    // ServiceAccount admission refuses pods until the namespace's default account exists.
    await waitFor(
      'the default ServiceAccount',
      () => kubectl(['-n', ns, 'get', 'serviceaccount', 'default']),
      DEADLINE,
    );
    const pods = [
      ...SERVERS.map((s) => podManifest(s.server, component(s.server), image, ['serve', String(s.port)])),
      ...Object.entries(CLIENTS).map(([name, labels]) => podManifest(name, labels, image, ['sleep'])),
    ];
    await kubectl(['-n', ns, 'apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods }),
    });
    targets = await Promise.all(
      SERVERS.map(async (s) => ({
        ...s,
        ip: await waitFor(`pod ${s.server} Running`, () => runningIp(ns, s.server), DEADLINE),
      })),
    );
    for (const client of Object.keys(CLIENTS)) {
      await waitFor(`pod ${client} Running`, () => runningIp(ns, client), DEADLINE);
    }
  });

  after(async function () {
    if (created) await kubectl(['delete', 'namespace', ns, '--wait=false']);
  });

  it('without a policy every client reaches MongoDB and Kafka (a later refusal is the policy)', async function () {
    for (const client of Object.keys(CLIENTS)) {
      for (const t of targets) {
        // The first exec right after a pod starts may race its network setup: poll, bounded.
        await waitFor(`${client} -> ${t.server}:${t.port}`, () => reaches(ns, client, t), DEADLINE);
      }
    }
  });

  it("with the chart's policies only the release's pods get through", async function () {
    await kubectl(['-n', ns, 'apply', '-f', '-'], { input: policies });
    for (const t of targets) {
      await waitFor(
        `outsider cut off from ${t.server}:${t.port}`,
        async () => !(await reaches(ns, 'outsider', t)),
        DEADLINE,
      );
    }
    for (const t of targets) {
      expect(await reaches(ns, 'service', t), `service -> ${t.server}`).to.equal(true);
      expect(await reaches(ns, 'other-release', t), `other-release -> ${t.server}`).to.equal(false);
      expect(await reaches(ns, 'outsider', t), `outsider -> ${t.server} (again)`).to.equal(false);
    }
  });

  it('deleting the policies lets every client through again', async function () {
    await kubectl(['-n', ns, 'delete', 'networkpolicy', '--all']);
    for (const client of ['outsider', 'other-release']) {
      for (const t of targets) {
        await waitFor(`${client} -> ${t.server}:${t.port} again`, () => reaches(ns, client, t), DEADLINE);
      }
    }
    for (const t of targets) expect(await reaches(ns, 'service', t), `service -> ${t.server}`).to.equal(true);
  });

  /** The chart's own MongoDB and Kafka policies for release `np`, rendered into this namespace. */
  async function renderPolicies(): Promise<string> {
    const out = await helm([
      'template',
      release,
      chartDir,
      '-n',
      ns,
      '--set',
      'mongodb.enabled=true,kafka.enabled=true,networkPolicy.enabled=true',
      '--show-only',
      'templates/mongodb/networkpolicy.yaml',
      '--show-only',
      'templates/kafka/networkpolicy.yaml',
    ]);
    const kinds = (loadAllYaml(out) as Array<{ kind?: string }>).filter((o) => o?.kind).map((o) => o.kind);
    expect(kinds, 'rendered policies').to.deep.equal(['NetworkPolicy', 'NetworkPolicy']);
    return out;
  }
});
