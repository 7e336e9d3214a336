// Reaching something in the cluster the way a laptop does: `kubectl port-forward` on a free
// loopback port, never a ClusterIP or pod address from the host. The forward keeps its local port
// for its whole life: when kubectl exits (its pod was replaced, the API server hiccuped) it is
// started again on the same port, so a URL handed out once stays valid. Every forward is stopped by
// stopAllForwards(), which the suites' root teardowns call.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { kubeconfigPath, kubectlPath } from './cluster.js';
import { sleep, waitFor } from './wait.js';

// One registry per process, not per module instance: the root hooks and the spec files may load
// this file as two module instances (seen under mocha + tsx: the hooks' stopAllForwards found none
// of the specs' forwards), and the teardown must stop every forward either made.
const REGISTRY = Symbol.for('edu-platform.k8s-tests.port-forwards');
const holder = globalThis as { [REGISTRY]?: Set<PortForward> };
const open: Set<PortForward> =
  holder[REGISTRY] ??
  (() => {
    const set = new Set<PortForward>();
    holder[REGISTRY] = set;
    // The last resort: a forward still open when the process exits (a test that never reached the
    // teardown) must not outlive it; kill() is synchronous, so it works in an 'exit' handler.
    process.once('exit', () => set.forEach((f) => f.kill()));
    return set;
  })();

/** A loopback port nothing listens on right now (the kernel's choice). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
export function accepts(port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface ForwardTarget {
  namespace: string;
  /** `svc/<name>`, `pod/<name>`, `deployment/<name>`, as kubectl port-forward takes it. */
  resource: string;
  remotePort: number;
}

export class PortForward {
  private child: ChildProcess | undefined;
  private stopped = false;
  private restarts = 0;
  private lastOutput = '';
  private localPort = 0;

  constructor(readonly target: ForwardTarget) {}

  get port(): number {
    return this.localPort;
  }

  /** `http://127.0.0.1:<port>` once start() has resolved. */
  get url(): string {
    return `http://127.0.0.1:${this.localPort}`;
  }

  get description(): string {
    return `${this.target.namespace}/${this.target.resource}:${this.target.remotePort}`;
  }

  /** Starts kubectl and resolves once the local port accepts connections. */
  async start(): Promise<this> {
    if (this.localPort) return this;
    this.localPort = await freePort();
    open.add(this);
    this.spawn();
    await this.ready();
    return this;
  }

  /** Resolves once the local port accepts (after a restart, too). */
  async ready(timeoutMs = 120_000): Promise<void> {
    await waitFor(
      `kubectl port-forward ${this.description} on 127.0.0.1:${this.localPort}`,
      async () => {
        if (this.stopped) throw new Error('stopped');
        return accepts(this.localPort);
      },
      { timeoutMs, intervalMs: 200 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; kubectl said: ${this.lastOutput.trim() || '(nothing)'}`);
    });
  }

  private spawn(): void {
    const args = [
      '--kubeconfig',
      kubeconfigPath(),
      '-n',
      this.target.namespace,
      'port-forward',
      '--address',
      '127.0.0.1',
      this.target.resource,
      `${this.localPort}:${this.target.remotePort}`,
    ];
    const child = spawn(kubectlPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (b: Buffer) => {
      this.lastOutput = (this.lastOutput + b.toString('utf8')).slice(-2000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (err) => keep(Buffer.from(`spawn: ${err.message}\n`)));
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.stopped) return;
      this.restarts += 1;
      const said = this.lastOutput.trim().split('\n').slice(-2).join(' | ');
      process.stderr.write(
        `port-forward ${this.description} exited (${signal ?? `exit ${code}`}: ${said}); restart ${this.restarts}\n`,
      );
      // A short pause: a pod being replaced is not there yet; the same port is taken again.
      void sleep(Math.min(500 * this.restarts, 3000)).then(() => {
        if (!this.stopped) this.spawn();
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    open.delete(this);
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([gone, sleep(5000).then(() => void child.kill('SIGKILL'))]);
  }

  /** Stops kubectl at once, without waiting (for an exit handler). */
  kill(): void {
    this.stopped = true;
    this.child?.kill('SIGKILL');
  }
}

/** Starts a forward and resolves with it once its port accepts. */
export function forward(target: ForwardTarget): Promise<PortForward> {
  return new PortForward(target).start();
}

/** Stops every forward still open (the root teardowns call it before the cluster goes). */
export async function stopAllForwards(): Promise<void> {
  await Promise.all([...open].map((f) => f.stop()));
}
