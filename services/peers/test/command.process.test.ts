// `cli.ts peers` as its own process: both peers listen, answer, and stop cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, describe, it } from 'mocha';
import { testMongoUri } from '../../kit/test/support/servers.js';

function ports(lines: string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of lines) {
    try {
      const row = JSON.parse(line) as { msg?: string; port?: number; name?: string };
      const m = /^(peer-\w+) service listening$/.exec(row.msg ?? '');
      if (m && row.port) found.set(m[1]!, row.port);
    } catch {
      // not a log line
    }
  }
  return found;
}

async function until<T>(what: string, check: () => T | undefined, deadlineMs = 60_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the peers command', () => {
  let child: ChildProcess | undefined;
  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('starts the document and exam peers on their ports and drains on SIGTERM', async function () {
    // A cold tsx start on a busy machine: the waits below are bounded by their own deadline.
    this.timeout(120_000);
    const lines: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', 'services/cli.ts', 'peers'], {
      env: {
        ...process.env,
        MONGODB_URI: testMongoUri(),
        DOCUMENT_SERVICE_PORT: '0',
        EXAM_SERVICE_PORT: '0',
        PORT: '1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    child.stdout!.on('data', (c: Buffer) => {
      buffered += c.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      lines.push(...parts);
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const found = await until('both peers listening', () => {
      const p = ports(lines);
      return p.size === 2 ? p : undefined;
    });
    const doc = await fetch(`http://127.0.0.1:${found.get('peer-documents')}/v1`);
    assert.equal(((await doc.json()) as { data: { service: string } }).data.service, 'peer-documents');
    const exam = await fetch(`http://127.0.0.1:${found.get('peer-exams')}/v1`);
    assert.equal(((await exam.json()) as { data: { service: string } }).data.service, 'peer-exams');
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
