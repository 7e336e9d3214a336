import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function runMain(env: Record<string, string>): { status: number | null; stderr: string; stdout: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join('operator', 'src', 'main.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: res.status, stderr: res.stderr, stdout: res.stdout };
}

describe('operator main', () => {
  it('exits 1 with one line naming RESYNC_SECONDS when it is not a number, before touching any server', () => {
    const res = runMain({ KAFKA_BROKERS: '127.0.0.1:1', RESYNC_SECONDS: 'soon', KUBECONFIG: '/nonexistent' });
    expect(res.status).to.equal(1);
    expect(res.stderr.trim().split('\n')).to.deep.equal(['config: "RESYNC_SECONDS" must be a number']);
    expect(res.stdout).to.equal('');
  });

  it('exits 1 naming KAFKA_BROKERS when it is missing', () => {
    const res = runMain({});
    expect(res.status).to.equal(1);
    expect(res.stderr.trim()).to.equal('config: "KAFKA_BROKERS" is required');
  });
});
