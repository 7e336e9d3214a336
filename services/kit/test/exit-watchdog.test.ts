import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { describeResources } from './support/exit-watchdog.js';

const leaky = fileURLToPath(new URL('./support/leaky-run.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', leaky, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('exit watchdog (a finished test run that leaks still ends)', function () {
  it('describeResources counts the kinds that keep a process up', function () {
    expect(describeResources(['TCPServerWrap', 'Timeout', 'Timeout'])).to.equal('TCPServerWrap, Timeout x2');
    expect(describeResources([])).to.equal('none');
  });

  it('ends a process kept up by a server, a timer and a child: names them, ends the child, keeps the exit code and the exit handlers', async function () {
    this.timeout(30_000);
    const { code, stdout, stderr } = await run(['300', '3']);
    expect(code).to.equal(3);
    expect(stderr).to.match(/did not exit within 0\.3 s; still open: .*TCPServerWrap/);
    expect(stderr).to.match(/child \d+ sleep 600/);
    expect(stdout).to.contain('exit handlers ran');
    const pid = Number(/child (\d+)/.exec(stdout)?.[1]);
    // The SIGTERM was sent before exit; wait (bounded by mocha's timeout) for the kernel to reap it.
    while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
  });
});
