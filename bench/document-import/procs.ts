// The bench's child processes (the document-import API and the docx-worker processes), started the way
// the chart runs them, each with a short tail of its output for the error message when one dies. Every
// child is tracked so that cleanup (also on an error or a signal) stops each one by its own pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const ROOT = new URL('../../', import.meta.url).pathname;
const TAIL = 4000;

export interface Child {
  name: string;
  proc: ChildProcess;
  exited: Promise<void>;
  tail(): string;
}

const running = new Set<Child>();

/** `node --import tsx services/cli.ts <command>` with exactly `env` (plus PATH and HOME). */
export function startChild(name: string, command: string, env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'services/cli.ts', command], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-TAIL));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const child: Child = { name, proc, exited, tail: () => out };
  running.add(child);
  void exited.then(() => running.delete(child));
  return child;
}

const alive = (c: Child) => c.proc.exitCode === null && c.proc.signalCode === null;

/** Throws with the child's last output when one of ours exited while the bench still needs it. */
export function assertAlive(children: Child[]): void {
  const dead = children.find((c) => !alive(c));
  if (dead) {
    throw new Error(`${dead.name} exited (${dead.proc.exitCode ?? dead.proc.signalCode}):\n${dead.tail()}`);
  }
}

/** SIGTERM (a worker lets its items in hand finish), SIGKILL after `graceMs`. */
export async function stopChild(c: Child, graceMs = 20_000): Promise<void> {
  if (alive(c)) c.proc.kill('SIGTERM');
  const timer = setTimeout(() => alive(c) && c.proc.kill('SIGKILL'), graceMs);
  await c.exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => stopChild(c)));
}

// The last resort when the bench leaves without its cleanup (an uncaught error, process.exit).
process.on('exit', () => {
  for (const c of running) if (alive(c)) c.proc.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('bench: no free port');
  return address.port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` until it holds; throws after `ms` or as soon as a watched child exits. */
export async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  opts: { ms: number; watch: Child[]; everyMs?: number },
): Promise<void> {
  const deadline = Date.now() + opts.ms;
  for (;;) {
    assertAlive(opts.watch);
    if (await cond()) return;
    if (Date.now() > deadline) throw new Error(`bench: timed out after ${opts.ms} ms waiting for ${what}`);
    await sleep(opts.everyMs ?? 100);
  }
}
