import { spawn } from 'node:child_process';
import path from 'node:path';

export interface OperatorChild {
  leading(): Promise<void>;
  metrics(): Promise<string>;
  stop(): Promise<void>;
}

/** The operator as a child process; its log goes to a buffer printed only if it dies early. */
export function startOperator(root: string, env: Record<string, string>): OperatorChild {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('operator', 'src', 'main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      LEADER_ELECTION: 'true',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let port: number | undefined;
  let leading = false;
  const onData = (b: Buffer): void => {
    for (const line of b.toString('utf8').split('\n').filter(Boolean)) {
      lines.push(line);
      const rec = parse(line);
      if (rec?.msg === 'docx-import-operator listening') port = Number(rec.port);
      if (rec?.msg === 'started leading') leading = true;
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));

  const until = async (cond: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 90_000;
    while (!cond()) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`operator never ${what}:\n${lines.slice(-50).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return {
    leading: () => until(() => leading, 'started leading'),
    async metrics() {
      await until(() => port !== undefined, 'listened');
      return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
