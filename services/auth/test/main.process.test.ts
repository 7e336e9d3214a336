import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { testDbName, testMongoTransactions, testMongoUri } from '../../kit/test/support/servers.js';

const cli = fileURLToPath(new URL('../../cli.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real entrypoint as a child process, as `make dev` and the image do. */
function startAuthProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'auth'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Run>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  const listening = async (): Promise<number> => {
    for (;;) {
      const line = stdout.split('\n').find((l) => l.includes('auth service listening'));
      if (line) return (JSON.parse(line) as { port: number }).port;
      if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, listening };
}

describe('auth main (process)', function () {
  this.timeout(60000);
  const base = () => ({
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: testDbName('auth', 'main_process'),
    PORT: '0',
    AUTH_BCRYPT_COST: '4',
  });

  it('exits 1 with one line naming MONGODB_URI when it is missing', async () => {
    const run = await startAuthProcess({ PORT: '0' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr.trim()).to.equal('config: "MONGODB_URI" is required');
  });

  it('exits 1 naming the variable when a value is malformed', async () => {
    const run = await startAuthProcess({ ...base(), AUTH_ACCESS_TTL_SECONDS: 'soon' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr.trim()).to.equal('config: "AUTH_ACCESS_TTL_SECONDS" must be a number');
  });

  it('refuses production mode with the development JWT secret', async () => {
    const run = await startAuthProcess({ ...base(), NODE_ENV: 'production', INTERNAL_API_TOKEN: 'i'.repeat(32) })
      .exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('"AUTH_JWT_SECRET" must be set to a non-default secret');
    expect(run.stderr.split('\n').filter(Boolean)).to.have.length(1);
  });

  it('refuses production mode on a MongoDB server that cannot run transactions', async function () {
    if (testMongoTransactions() !== false) this.skip();
    const run = await startAuthProcess({
      ...base(),
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'p'.repeat(40),
      INTERNAL_API_TOKEN: 'i'.repeat(32),
    }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('cannot run transactions');
  });

  it('serves /readyz, then on SIGTERM drains, closes MongoDB and exits 0', async () => {
    const proc = startAuthProcess(base());
    const port = await proc.listening();
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).to.equal(200);
    proc.child.kill('SIGTERM');
    const run = await proc.exited;
    expect(run.code).to.equal(0);
    expect(run.stdout).to.include('shutdown complete');
  });
});
