// Runs kubectl/helm against the local control plane started by scripts/cluster.sh (or the
// cluster named by $KUBECONFIG, such as kind's). Binary paths come from $KUBECTL/$HELM, else from
// `scripts/cluster.sh env`, so tests and the script never disagree about cache locations.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const clusterScript = path.join(repoRoot, 'scripts', 'cluster.sh');

export interface RunOptions {
  /** Written to stdin, e.g. a manifest for `apply -f -`. */
  input?: string;
  /** Kills the process after this many ms (default 120 000). */
  timeoutMs?: number;
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

let scriptEnv: Record<string, string> | undefined;

function clusterEnv(): Record<string, string> {
  if (!scriptEnv) {
    const out = execFileSync('bash', [clusterScript, 'env'], {
      encoding: 'utf8',
    });
    scriptEnv = {};
    for (const line of out.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) scriptEnv[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return scriptEnv;
}

function binary(name: 'KUBECTL' | 'HELM'): string {
  const bin = process.env[name] || clusterEnv()[name];
  if (!bin) throw new Error(`${name} unknown: run scripts/cluster.sh tools`);
  return bin;
}

/** The kubectl binary the helpers run ($KUBECTL, else `scripts/cluster.sh env`'s). */
export const kubectlPath = (): string => binary('KUBECTL');

export function kubeconfigPath(): string {
  const fromEnv = process.env.KUBECONFIG;
  if (fromEnv) return fromEnv;
  const p = clusterEnv().KUBECONFIG;
  if (!p) throw new Error('KUBECONFIG unknown: run scripts/cluster.sh up');
  return p;
}

function run(file: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: { ...process.env, KUBECONFIG: kubeconfigPath(), ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: opts.timeoutMs ?? 120_000,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) =>
      reject(new Error(`${path.basename(file)}: ${e.message} (missing binaries? run scripts/cluster.sh tools)`)),
    );
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) return resolve(stdout);
      const stderr = Buffer.concat(err).toString('utf8').trim();
      const how = signal ? `killed by ${signal}` : `exit ${code}`;
      reject(new Error(`${path.basename(file)} ${args.join(' ')} failed (${how}): ${stderr}`));
    });
    child.stdin.on('error', () => {}); // the process may exit before reading stdin
    child.stdin.end(opts.input ?? '');
  });
}

export function kubectl(args: string[], opts?: RunOptions): Promise<string> {
  return run(binary('KUBECTL'), ['--kubeconfig', kubeconfigPath(), ...args], opts);
}

export function helm(args: string[], opts?: RunOptions): Promise<string> {
  return run(binary('HELM'), ['--kubeconfig', kubeconfigPath(), ...args], opts);
}

/** The kind cluster KUBECONFIG names (kind calls its context kind-<cluster>), with the provider running its nodes. */
function kindCluster(): { name: string; provider: string } | undefined {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath());
  const name = /^kind-(.+)$/.exec(kc.getCurrentContext())?.[1];
  if (!name) return undefined;
  const provider =
    process.env.KIND_PROVIDER ||
    execFileSync('bash', [path.join(repoRoot, 'scripts', 'kind.sh'), 'provider'], { encoding: 'utf8' }).trim();
  return { name, provider };
}

/**
 * Why restartApiServer cannot restart this cluster's API server, or undefined when it can: the
 * local control plane (scripts/cluster.sh) and a kind cluster (its control-plane node's container
 * runtime) can; any other cluster is not ours to restart.
 */
export function apiServerRestartUnsupported(): string | undefined {
  if (kubeconfigPath() === clusterEnv().KUBECONFIG || kindCluster()) return undefined;
  return `KUBECONFIG=${kubeconfigPath()} is neither the local control plane nor a kind cluster: its API server is not ours to restart`;
}

/** Restarts only kube-apiserver (etcd data kept) and resolves once /readyz is ok again. */
export async function restartApiServer(): Promise<void> {
  if (kubeconfigPath() === clusterEnv().KUBECONFIG) {
    await run('bash', [clusterScript, 'restart-apiserver'], { timeoutMs: 180_000 });
    return;
  }
  const kind = kindCluster();
  // Only a cluster of our own can be restarted; never pretend on a foreign one.
  if (!kind) throw new Error(apiServerRestartUnsupported());
  // kubeadm's static pod: its container stopped, the kubelet starts a new one (same etcd).
  await run(
    kind.provider,
    [
      'exec',
      `${kind.name}-control-plane`,
      'sh',
      '-c',
      'id=$(crictl ps -q --name "^kube-apiserver$") && [ -n "$id" ] && crictl stop $id',
    ],
    { timeoutMs: 120_000 },
  );
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ok = await kubectl(['get', '--raw', '/readyz'], { timeoutMs: 10_000 }).then(
      (out) => out.trim() === 'ok',
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`kube-apiserver of kind cluster ${kind.name} not ready again in 180 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
