// Real service processes, started as the image starts them (`node services/cli.js <service>`),
// for the security suite: the attacker talks to them over HTTP and nothing else.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../services/cli.ts', import.meta.url));

export interface ServiceProcess {
  name: string;
  /** `http://127.0.0.1:<port>` (none for a process without HTTP, e.g. the DOCX worker). */
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export interface ExitedProcess {
  code: number | null;
  output: string;
}

/** Starts `cli <command>` with exactly `env` (plus PATH); resolves once it logs that it listens. */
export async function launch(name: string, command: string, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, command], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: ServiceProcess = {
    name,
    url: '',
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
  const port = await listeningPort(proc, exited);
  return { ...proc, url: port === undefined ? '' : `http://127.0.0.1:${port}` };
}

/** Runs `cli <command>` to its exit (a process that must refuse to start). */
export function runToExit(command: string, env: Record<string, string>): Promise<ExitedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, command], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output: out })));
}

/** The port from the first `… listening` log line; undefined for a worker that logs `consuming`. */
async function listeningPort(proc: ServiceProcess, exited: Promise<void>): Promise<number | undefined> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    for (const line of proc.output().split('\n')) {
      const entry = parseLine(line);
      if (entry && typeof entry.msg === 'string' && /listening|worker consuming/.test(entry.msg)) {
        return typeof entry.port === 'number' ? entry.port : undefined;
      }
    }
    if (gone) throw new Error(`${proc.name} exited before it was ready:\n${proc.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
