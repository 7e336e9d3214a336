import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './kube.js';
import { waitFor } from './wait.js';

/** The worker image of the cluster tests' jobs; its repository is the one the operator allows there. */
export const TEST_WORKER_IMAGE = 'registry.invalid/docx-parser:test';

export interface OperatorOptions {
  kubeconfig: string;
  namespace: string;
  brokers: string;
  /** Extra environment; wins over the defaults below. */
  env?: Record<string, string>;
}

/**
 * The real operator (`node --import tsx operator/src/main.ts`) as a child process, its JSON log
 * lines kept for assertions and for the failure dump.
 */
export class OperatorProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private port: number | undefined;

  constructor(opts: OperatorOptions) {
    this.child = spawn(process.execPath, ['--import', 'tsx', path.join('operator', 'src', 'main.ts')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        KUBECONFIG: opts.kubeconfig,
        KAFKA_BROKERS: opts.brokers,
        OPERATOR_NAMESPACE: opts.namespace,
        RESYNC_SECONDS: '1',
        PORT: '0',
        LEADER_ELECTION: 'true',
        LEASE_DURATION_SECONDS: '6',
        LOG_LEVEL: 'info',
        // The images the cluster tests' jobs name (never pulled: no kubelet runs them).
        WORKER_ALLOWED_IMAGES: 'registry.invalid/docx-parser,registry.invalid/edu-platform,registry.invalid/w',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.onLine(line);
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Parsed log records whose msg matches. */
  records(msg: string | RegExp): Array<Record<string, unknown>> {
    return this.lines
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return undefined;
        }
      })
      .filter(
        (r): r is Record<string, unknown> =>
          r !== undefined && (typeof msg === 'string' ? r.msg === msg : msg.test(String(r.msg))),
      );
  }

  async ready(): Promise<number> {
    return waitFor(
      'the operator to listen',
      async () => {
        if (!this.running) throw new Error(`operator exited:\n${this.log()}`);
        return this.port;
      },
      { timeoutMs: 60_000 },
    );
  }

  async leading(): Promise<true> {
    return waitFor(
      'the operator to lead',
      async () => {
        if (!this.running) throw new Error(`operator exited:\n${this.log()}`);
        return this.records('started leading').length > this.records('stopped leading').length || undefined;
      },
      { timeoutMs: 90_000 },
    );
  }

  async metrics(): Promise<string> {
    const port = await this.ready();
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    return res.text();
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }

  log(): string {
    return this.lines.join('\n');
  }

  private onLine(line: string): void {
    this.lines.push(line);
    if (this.port !== undefined) return;
    try {
      const rec = JSON.parse(line) as { msg?: string; port?: number };
      if (rec.msg === 'docx-import-operator listening') this.port = rec.port;
    } catch {
      // not JSON (a crash trace): kept for the dump
    }
  }
}

/** Sums a Prometheus counter's samples whose labels include all of `labels`. */
export function counterValue(metricsText: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([^{\s]+)(\{[^}]*\})?\s+([0-9.eE+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const text = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => text.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}
