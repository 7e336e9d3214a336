// Runs kubectl/helm against the local control plane started by scripts/cluster.sh (or the
// cluster named by $KUBECONFIG). Binary paths come from $KUBECTL/$HELM, else from
// `scripts/cluster.sh env`, so tests and the script never disagree about cache locations.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Restarts only kube-apiserver (etcd data kept) and resolves once /readyz is ok again. */
export async function restartApiServer(): Promise<void> {
  // Only the script's own control plane can be restarted; never pretend on a foreign cluster.
  if (kubeconfigPath() !== clusterEnv().KUBECONFIG) {
    throw new Error(`restartApiServer needs the local control plane, but KUBECONFIG=${kubeconfigPath()}`);
  }
  await run('bash', [clusterScript, 'restart-apiserver'], {
    timeoutMs: 180_000,
  });
}
