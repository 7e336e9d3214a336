// The chart's NetworkPolicies for MongoDB and Kafka, enforced for real: on the local node by the
// policy controller of scripts/netpol.sh (kube-router; the node's bridge CNI plugin alone ignores
// policies), on kind by the kube-router DaemonSet (k8s-tests/kind/kube-router.yaml, no registry) or
// kindnetd (Docker). In a fresh namespace, servers carrying the mongodb/kafka selector labels answer on
// 27017/9092, reached by pod IP and through their Service (kube-proxy); a pod with the release's
// labels keeps reaching them once the policies are applied, a pod without them and a pod of
// another release are cut off, pods started later are sorted the same way (the operator scales
// workers while policies exist), and deleting the policies lets everyone through again. Skips
// unless `scripts/node.sh up` and `scripts/netpol.sh up` have run, or on kind without the echo image.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { loadAllYaml } from '@kubernetes/client-node';
import { helm, kubectl } from '../helpers/cluster.js';
import { waitFor } from '../helpers/wait.js';
import {
  chartDir,
  echoImage,
  podManifest,
  reaches,
  runningIp,
  serviceManifest,
  skipReason,
  type Labels,
  type Target,
} from './probe-pods.js';

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
const OUTSIDERS = ['outsider', 'other-release'];

describe('network policies enforced on a real node (scripts/netpol.sh, or kube-router on kind)', function () {
  this.timeout(10 * 60_000);
  const ns = `netpol-${randomBytes(3).toString('hex')}`;
  const targets: Target[] = [];
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
    const items = [
      ...SERVERS.map((s) => podManifest(s.server, component(s.server), image, ['serve', String(s.port)])),
      ...SERVERS.map((s) => serviceManifest(s.server, component(s.server), s.port)),
      ...Object.entries(CLIENTS).map(([name, labels]) => podManifest(name, labels, image, ['sleep'])),
    ];
    await kubectl(['-n', ns, 'apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
    });
    for (const { server, port } of SERVERS) {
      const ip = await waitFor(`pod ${server} Running`, () => runningIp(ns, server), DEADLINE);
      targets.push({ server, host: ip, port }, { server, host: `${server}.${ns}.svc.cluster.local`, port });
    }
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
        await waitFor(`${client} -> ${t.host}:${t.port}`, () => reaches(ns, client, t), DEADLINE);
      }
    }
  });

  it("with the chart's policies only the release's pods get through", async function () {
    await kubectl(['-n', ns, 'apply', '-f', '-'], { input: policies });
    for (const t of targets) {
      await waitFor(
        `outsider cut off from ${t.host}:${t.port}`,
        async () => !(await reaches(ns, 'outsider', t)),
        DEADLINE,
      );
    }
    for (const t of targets) {
      expect(await reaches(ns, 'service', t), `service -> ${t.host}`).to.equal(true);
      for (const client of OUTSIDERS) expect(await reaches(ns, client, t), `${client} -> ${t.host}`).to.equal(false);
    }
  });

  it('pods started after the policies: admitted by their labels, refused without', async function () {
    const late = { 'late-service': component('docx-worker'), 'late-outsider': { app: 'outsider' } };
    const items = Object.entries(late).map(([name, labels]) => podManifest(name, labels, echoImage(), ['sleep']));
    await kubectl(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) });
    for (const name of Object.keys(late)) await waitFor(`pod ${name} Running`, () => runningIp(ns, name), DEADLINE);
    for (const t of targets) {
      // The controller adds a new pod's IP to the policy's source set after it starts: poll.
      await waitFor(`late-service -> ${t.host}:${t.port}`, () => reaches(ns, 'late-service', t), DEADLINE);
      expect(await reaches(ns, 'late-outsider', t), `late-outsider -> ${t.host}`).to.equal(false);
    }
  });

  it('deleting the policies lets every client through again', async function () {
    await kubectl(['-n', ns, 'delete', 'networkpolicy', '--all']);
    for (const client of [...OUTSIDERS, 'late-outsider']) {
      for (const t of targets) {
        await waitFor(`${client} -> ${t.host}:${t.port} again`, () => reaches(ns, client, t), DEADLINE);
      }
    }
    for (const t of targets) expect(await reaches(ns, 'service', t), `service -> ${t.host}`).to.equal(true);
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
