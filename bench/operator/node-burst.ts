// Operator bench on a real node: the time from a burst of uploads to every job COMPLETED, with the
// operator scaling real worker pods (1 to 3), beside the same burst with a fixed single worker
// pod, in the same run on the same release. Needs the platform installed where KUBECONFIG points
// (`make helm-install`: kind, or any cluster) and kubectl/helm on PATH or in $KUBECTL/$HELM. The
// uploads go through `kubectl port-forward` to the document-import Service, as from a laptop.
//
//   make bench-operator-node          (BENCH_BURST=20, BENCH_QUESTIONS=120 by default)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tally, uploadBurst, type Importer } from '../lib/docx-imports.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = (k: string, d: string) => process.env[k] ?? d;
const BURST = Number(env('BENCH_BURST', '20'));
const QUESTIONS = Number(env('BENCH_QUESTIONS', '120'));
const NAMESPACE = env('EDU_PLATFORM_NAMESPACE', 'edu-platform');
const RELEASE = env('EDU_RELEASE', 'edu-platform');
const KUBECTL = env('KUBECTL', 'kubectl');
const HELM = env('HELM', 'helm');

const kubectl = (args: string[]): string =>
  execFileSync(KUBECTL, ['-n', NAMESPACE, ...args], { encoding: 'utf8', timeout: 60_000 });

function getJson<T>(args: string[]): T {
  return JSON.parse(kubectl([...args, '-o', 'json'])) as T;
}

/** The same release (its values as installed) with other scaling bounds; waits for its pods. */
function scale(min: number, max: number): void {
  const chart = path.join(root, 'charts/edu-platform');
  const sets = [`docxImportJob.scaling.minWorkers=${min}`, `docxImportJob.scaling.maxWorkers=${max}`];
  const args = ['upgrade', RELEASE, chart, '-n', NAMESPACE, '--reuse-values', '--wait'];
  execFileSync(HELM, [...args, ...sets.flatMap((s) => ['--set', s])], { stdio: 'ignore', timeout: 600_000 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | false>, ms = 900_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => false as const);
    if (v !== false) return v;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(250);
  }
}

interface Run {
  seconds: number;
  maxReadyWorkers: number;
}

async function burst(importer: Importer): Promise<Run> {
  const workers = () =>
    getJson<{ status: { readyReplicas?: number } }>(['get', 'deployment', `${RELEASE}-docx-parser-workers`]);
  let maxReady = 0;
  const t0 = performance.now();
  const ids = await uploadBurst(importer, BURST, QUESTIONS);
  await until('every job COMPLETED', async () => {
    maxReady = Math.max(maxReady, workers().status.readyReplicas ?? 0);
    const t = await tally(importer, ids);
    if (t.FAILED) throw new Error(`bench: ${t.FAILED} jobs FAILED`);
    return t.COMPLETED === BURST;
  });
  return { seconds: (performance.now() - t0) / 1000, maxReadyWorkers: maxReady };
}

/** `kubectl port-forward` to a Service on a port kubectl picks; resolves with the local base URL. */
function forward(service: string, port: number): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(KUBECTL, ['-n', NAMESPACE, 'port-forward', `service/${service}`, `:${port}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ base: `http://127.0.0.1:${m[1]}`, child });
    });
    child.once('exit', (code) => reject(new Error(`kubectl port-forward ${service} exited ${code}: ${out}`)));
  });
}

async function main(): Promise<void> {
  const svc = getJson<{ spec: { ports: Array<{ port: number }> } }>(['get', 'service', `${RELEASE}-document-import`]);
  const secret = getJson<{ data: Record<string, string> }>(['get', 'secret', `${RELEASE}-secrets`]);
  const pf = await forward(`${RELEASE}-document-import`, svc.spec.ports[0]!.port);
  process.once('exit', () => pf.child.kill());
  const importer: Importer = {
    base: pf.base,
    internalToken: Buffer.from(secret.data.INTERNAL_API_TOKEN ?? '', 'base64').toString('utf8'),
    organizationId: `org-bench-${process.pid}`,
  };
  const load = os.loadavg().map((x) => x.toFixed(2));
  scale(1, 1);
  const fixed = await burst(importer);
  scale(1, 3);
  const scaled = await burst(importer);
  console.log(`operator on a real node: ${os.cpus().length} cpus, load ${load.join(' ')} at the start`);
  console.log(`burst of ${BURST} uploads of a ${QUESTIONS}-question DOCX, upload → every job COMPLETED:`);
  console.log(`  fixed single worker pod:        ${fixed.seconds.toFixed(1)} s`);
  console.log(
    `  operator scaling 1..3 pods:     ${scaled.seconds.toFixed(1)} s (up to ${scaled.maxReadyWorkers} worker pods Ready)`,
  );
  console.log(`  scaled / fixed: ${(scaled.seconds / fixed.seconds).toFixed(2)} of the time`);
  pf.child.kill();
}

await main();
