// The local node of scripts/node.sh, checked from inside its pods: the node is Ready, a pod runs,
// a Service name resolves through the cluster DNS, and a pod reaches a host TCP server through the
// bridge gateway (NODE_HOST_IP), as the platform's pods reach the host's MongoDB stand-in.
// Runs only where a node is up (EDU_NODE=1: k8s-tests/node.mocharc.json's root hook, or by hand after
// `scripts/node.sh up`); the control plane alone has
// no kubelet, so these pods would stay Pending.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import { kubectl } from '../helpers/cluster.js';
import { repoRoot } from '../helpers/kube.js';
import { waitFor } from '../helpers/wait.js';

interface NodeEnv {
  NODE_NAME: string;
  NODE_HOST_IP: string;
  NODE_PROBE_IMAGE: string;
}

/** The lines of `scripts/node.sh env`; every one this test uses must be there. */
function nodeEnv(): NodeEnv {
  const out = execFileSync('bash', [path.join(repoRoot, 'scripts', 'node.sh'), 'env'], { encoding: 'utf8' });
  const lines = new Map(out.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const get = (key: keyof NodeEnv): string => {
    const v = lines.get(key);
    if (!v) throw new Error(`scripts/node.sh env printed no ${key} line:\n${out}`);
    return v;
  };
  return { NODE_NAME: get('NODE_NAME'), NODE_HOST_IP: get('NODE_HOST_IP'), NODE_PROBE_IMAGE: get('NODE_PROBE_IMAGE') };
}

/** The port of the host's MongoDB stand-in, which node.sh forwards from NODE_HOST_IP. */
function hostMongoPort(): string {
  const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27037/';
  const port = new URL(uri).port;
  return port || '27017';
}

describe('the local node (scripts/node.sh)', function () {
  let env: NodeEnv;
  let ns: string;

  // Read when the suite runs, not when the file loads: the node suite's root hook sets EDU_NODE.
  before(async function () {
    if (process.env.EDU_NODE !== '1') {
      console.log('      skipped: EDU_NODE is not 1 (run scripts/node.sh up, then EDU_NODE=1)');
      this.skip();
    }
    env = nodeEnv();
    ns = `node-smoke-${randomBytes(3).toString('hex')}`;
    await kubectl(['create', 'namespace', ns]);
    // ServiceAccount admission refuses pods until the namespace's default ServiceAccount exists.
    await waitFor('the default ServiceAccount', () => kubectl(['get', 'sa', 'default', '-n', ns]), {
      timeoutMs: 60_000,
    });
  });

  after(async () => {
    if (ns) await kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
  });

  const probePod = (name: string, args: string[], labels: Record<string, string> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'probe', image: env.NODE_PROBE_IMAGE, imagePullPolicy: 'Never', args }],
    },
  });

  const phase = (name: string) => kubectl(['get', 'pod', name, '-n', ns, '-o', 'jsonpath={.status.phase}']);

  /** Runs node-probe in a pod to completion; resolves with its phase and its log (read through kubelet). */
  async function runProbe(name: string, args: string[]): Promise<{ phase: string; log: string }> {
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify(probePod(name, args)) });
    const done = await waitFor(`pod ${name} to finish`, async () => {
      const p = await phase(name);
      return p === 'Succeeded' || p === 'Failed' ? p : undefined;
    });
    return { phase: done, log: await kubectl(['logs', name, '-n', ns]) };
  }

  it('has its node Ready', async () => {
    const status = await kubectl([
      'get',
      'node',
      env.NODE_NAME,
      '-o',
      'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
    ]);
    expect(status).to.equal('True');
  });

  it('runs a pod', async () => {
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify(probePod('sleeper', ['sleep'], { app: 'sleeper' })) });
    expect(
      await waitFor('pod sleeper Running', async () => ((await phase('sleeper')) === 'Running' ? 'Running' : '')),
    ).to.equal('Running');
    const ip = await kubectl(['get', 'pod', 'sleeper', '-n', ns, '-o', 'jsonpath={.status.podIP}']);
    expect(ip.split('.').slice(0, 3).join('.')).to.equal(env.NODE_HOST_IP.split('.').slice(0, 3).join('.'));
  });

  it('resolves a Service name by DNS inside a pod', async () => {
    await kubectl(['create', 'service', 'clusterip', 'smoke-svc', '--tcp=80:8080', '-n', ns]);
    const clusterIp = await kubectl(['get', 'svc', 'smoke-svc', '-n', ns, '-o', 'jsonpath={.spec.clusterIP}']);
    // The short name works only through the pod's search path (<ns>.svc.cluster.local).
    const { phase: p, log } = await runProbe('dns', ['dns', 'smoke-svc']);
    expect(p, log).to.equal('Succeeded');
    expect(log.trim().split('\n')).to.include(`smoke-svc ${clusterIp}`);
  });

  it('fails to resolve a Service that does not exist (the DNS check can fail)', async () => {
    const { phase: p } = await runProbe('nodns', ['dns', 'no-such-svc']);
    expect(p).to.equal('Failed');
  });

  it('reaches a host TCP server through NODE_HOST_IP', async () => {
    const target = `${env.NODE_HOST_IP}:${hostMongoPort()}`;
    const { phase: p, log } = await runProbe('host', ['tcp', target]);
    expect(p, log).to.equal('Succeeded');
    expect(log).to.contain(`-> ${target}`);
  });
});
