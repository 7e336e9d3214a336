import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { testDbName, testKafkaBrokers, testMongoUri } from './support/servers.js';

const tiny = fileURLToPath(new URL('./support/tiny-service.ts', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function startTiny(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', tiny], {
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
  return { child, exited, messages, waitFor };
}

describe('kit runService (process)', function () {
  this.timeout(60000);

  it('on SIGTERM: readiness fails, hooks run, HTTP drains, workers stop, then Kafka, then MongoDB; exit 0', async () => {
    const proc = startTiny({
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: testDbName('kit', 'service_process'),
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      PORT: '0',
    });
    const { port } = await proc.waitFor('tiny service listening');
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    const slow = fetch(`${base}/v1/slow`);
    await proc.waitFor('slow request started');
    proc.child.kill('SIGTERM');
    const res = await slow;
    expect(res.status).to.equal(200);
    const run = await proc.exited;
    expect(run.code).to.equal(0);
    const shutdown = proc
      .messages()
      .map((m) => m.msg)
      .filter((m) => !['request', 'tiny service listening', 'mongodb connected', 'slow request started'].includes(m));
    expect(shutdown).to.deep.equal([
      'shutting down: draining requests',
      'before drain hook',
      'slow request answered',
      'worker stopped',
      'background workers stopped',
      'kafka closed',
      'mongodb closed',
      'shutdown complete',
    ]);
  });

  it('exits 1 with one line naming a missing variable', async () => {
    const run = await startTiny({ PORT: '0' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('config: "MONGODB_URI" is required\n');
    expect(run.stdout).to.equal('');
  });

  it("exits 1 with one line naming a service's own malformed variable", async () => {
    const run = await startTiny({ MONGODB_URI: testMongoUri(), PORT: '0', TINY_LABEL: 'far too long' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('config: "TINY_LABEL" length must be less than or equal to 5 characters long\n');
  });
});
