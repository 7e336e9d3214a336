import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe('operator main: Kafka security and start failures', () => {
  const password = 'pw-never-in-a-log-1234';
  const dir = mkdtempSync(path.join(tmpdir(), 'operator-main-'));
  const ca = path.join(dir, 'ca.crt');
  // Only read and checked for a PEM block at start; the brokers are not dialled without a DocxImportJob.
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1" } }]',
      'users: [{ name: u, user: { token: t } }]',
      'contexts: [{ name: x, context: { cluster: c, user: u } }]',
      'current-context: x',
    ].join('\n'),
  );
  const secure = {
    KAFKA_BROKERS: '127.0.0.1:1',
    KAFKA_SSL: 'true',
    KAFKA_SSL_CA_FILE: ca,
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: 'edu',
    KAFKA_SASL_PASSWORD: password,
  };

  it('exits 1 naming KAFKA_SSL_CA_FILE when the CA file cannot be read, without the password', () => {
    const res = runMain({ ...secure, KAFKA_SSL_CA_FILE: path.join(dir, 'missing.crt'), KUBECONFIG: kubeconfig });
    expect(res.status).to.equal(1);
    expect(res.stderr.trim()).to.match(/^config: "KAFKA_SSL_CA_FILE" cannot be read \(.*missing\.crt\): ENOENT$/);
    expect(res.stderr + res.stdout).not.to.include(password);
  });

  it('exits 1 when the start fails after the config (an unreadable kubeconfig)', () => {
    const res = runMain({ ...secure, KUBECONFIG: path.join(dir, 'no-kubeconfig') });
    expect(res.status).to.equal(1);
    expect(res.stderr).to.match(/^startup failed: .*no-kubeconfig/);
  });

  it('logs the Kafka protocol, mechanism and user at start, never the password', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('operator', 'src', 'main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...secure,
        KUBECONFIG: kubeconfig,
        PORT: '0',
        LEADER_ELECTION: 'false',
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const look = () => {
          const found = out.split('\n').find((l) => l.includes('docx-import-operator listening'));
          if (found) resolve(found);
        };
        child.stdout.on('data', look);
        child.once('exit', () => reject(new Error(`operator exited before listening:\n${out}`)));
      });
      expect(JSON.parse(line)).to.include({ kafka: `SASL_SSL scram-sha-512 as edu (CA ${ca})` });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(out).not.to.include(password);
  });
});
