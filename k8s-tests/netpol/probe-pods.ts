// Pods of the network-policy test: servers that answer on MongoDB's and Kafka's ports and
// long-running clients that dial them through `kubectl exec`, all running netpol-echo from the
// image scripts/netpol.sh builds and imports into the local node (kind-setup.ts loads it into kind).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectl } from '../helpers/cluster.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nodeScript = path.join(root, 'scripts', 'node.sh');
export const netpolScript = path.join(root, 'scripts', 'netpol.sh');
export const chartDir = path.join(root, 'charts', 'edu-platform');

export type Labels = Record<string, string>;
/** A server pod reached at `host` (its pod IP, or its Service's DNS name through kube-proxy). */
export type Target = { server: string; host: string; port: number };

/**
 * Why the test cannot run here, or undefined when it can: on kind (EDU_KIND=1, kind-setup.ts) when
 * the echo image was loaded (the policies are enforced by kube-router without a registry, by kindnetd
 * with Docker); on the local node when the node and the policy controller are up.
 */
export function skipReason(): string | undefined {
  if (process.env.EDU_KIND === '1') return process.env.EDU_KIND_NETPOL_SKIP || undefined;
  const checks: Array<[string, string]> = [
    [nodeScript, 'the local node (scripts/node.sh up)'],
    [netpolScript, 'the policy controller (scripts/netpol.sh up)'],
  ];
  for (const [script, what] of checks) {
    try {
      execFileSync('bash', [script, 'status'], { stdio: 'ignore', timeout: 30_000 });
    } catch {
      return `${what} is not running: the bridge CNI plugin alone ignores NetworkPolicy`;
    }
  }
  return undefined;
}

/** NETPOL_ECHO_IMAGE from `scripts/netpol.sh env`. */
export function echoImage(): string {
  const out = execFileSync('bash', [netpolScript, 'env'], { encoding: 'utf8' });
  const image = /^NETPOL_ECHO_IMAGE=(.+)$/m.exec(out)?.[1];
  if (!image) throw new Error(`scripts/netpol.sh env printed no NETPOL_ECHO_IMAGE:\n${out}`);
  return image;
}

/** A pod running `netpol-echo ARGS...` as nobody, with the given labels. */
export function podManifest(name: string, labels: Labels, image: string, args: string[]): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534 },
      containers: [
        {
          name: 'echo',
          image,
          imagePullPolicy: 'Never',
          args,
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  };
}

/** A ClusterIP Service named like the server, selecting it on its port. */
export function serviceManifest(name: string, selector: Labels, port: number): object {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector, ports: [{ port, targetPort: port }] },
  };
}

/** The pod's IP once it is Running, else undefined. */
export async function runningIp(ns: string, pod: string): Promise<string | undefined> {
  const out = await kubectl(['-n', ns, 'get', 'pod', pod, '-o', 'jsonpath={.status.phase} {.status.podIP}']);
  const [phase, ip] = out.trim().split(' ');
  return phase === 'Running' && ip ? ip : undefined;
}

/**
 * Whether `client` gets the greeting of `server` at ip:port. A dial that fails inside the pod
 * (netpol-echo exits 1: refused, dropped, silent) is false; any other failure (exec itself
 * broken) throws, so it can never pass for a refusal.
 */
export async function reaches(ns: string, client: string, target: Target): Promise<boolean> {
  const addr = `${target.host}:${target.port}`;
  try {
    const out = await kubectl(['-n', ns, 'exec', client, '--', '/netpol-echo', 'dial', addr], { timeoutMs: 30_000 });
    if (out.trim() !== `edu-netpol ${target.server} ${target.port}`) {
      throw new Error(`${client} reached ${addr} but got "${out.trim()}"`);
    }
    return true;
  } catch (err) {
    if (dialFailed(err)) return false;
    throw err;
  }
}

/** kubectl's message when the command in the container exited 1 (netpol-echo's dial failure). */
export function dialFailed(err: unknown): boolean {
  return err instanceof Error && /command terminated with exit code 1\b/.test(err.message);
}
