// A small program started as a real child process under tsx: its exit code, its output, and its
// JSON log lines as they arrive (the kit's process and service lifecycle tests).
import { spawn } from 'node:child_process';

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `script` with only PATH and `env` in its environment. */
export function startChild(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  const messages = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; port?: number });
  /** Polls stdout for a line (bounded by mocha's timeout), failing fast if the process ended. */
  const waitFor = async (msg: string) => {
    for (;;) {
      const line = messages().find((m) => m.msg === msg);
      if (line) return line;
      if (child.exitCode !== null) throw new Error(`exited before "${msg}": ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, messages, waitFor, msgs: () => messages().map((m) => m.msg) };
}
