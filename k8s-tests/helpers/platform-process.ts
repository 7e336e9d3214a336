import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { repoRoot } from './kube.js';
import { waitFor } from './wait.js';

/**
 * A platform command (`node --import tsx services/cli.ts <command>`: a service or `docx-worker`)
 * as a child process, as the chart's pods run it, its output kept for the failure dump.
 */
export class PlatformProcess {
  readonly exited: Promise<number | string>;
  private readonly child: ChildProcess;
  private out = '';

  constructor(
    readonly command: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'services/cli.ts', command], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer): void => {
      this.out += chunk.toString('utf8');
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve(code ?? signal ?? '?')));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    return this.out;
  }

  /** SIGTERM first (the process drains), SIGKILL if it has not left within `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Resolves once GET `${base}/readyz` answers 200; fails at once if the process died. */
export function serviceReady(proc: PlatformProcess, base: string): Promise<true> {
  return waitFor(
    `${proc.command} to be ready`,
    async () => {
      if (!proc.running) throw new Error(`${proc.command} exited:\n${proc.log()}`);
      const res = await fetch(`${base}/readyz`);
      return res.status === 200 || undefined;
    },
    { timeoutMs: 120_000 },
  );
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
