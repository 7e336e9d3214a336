// runProcess as the processes use it: a real child process, real signals, its exit code and the
// order its closers ran in, read from its output.
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startChild } from './support/child-process.js';

const tiny = fileURLToPath(new URL('./support/tiny-process.ts', import.meta.url));

const startTiny = (env: Record<string, string>) => startChild(tiny, env);

describe('kit runProcess (process)', function () {
  this.timeout(60000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves HTTP; on ${signal} drains, runs its closers once in order and exits 0`, async () => {
      const proc = startTiny({ TINY_MODE: 'serve' });
      const { port } = await proc.waitFor('tiny process listening');
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).to.equal('ok');
      proc.child.kill(signal);
      const run = await proc.exited;
      expect(run.code).to.equal(0);
      expect(run.stderr).to.equal('');
      expect(proc.msgs()).to.deep.equal([
        'tiny process listening',
        'shutting down: draining requests',
        'closer first',
        'closer second',
        'shutdown complete',
      ]);
    });
  }

  it('a start failure runs the closers opened so far and exits 1 with one line', async () => {
    const run = await startTiny({ TINY_MODE: 'fail' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('startup failed: the tiny start failed\n');
    expect(run.stdout).to.include('closer first');
  });

  it('a bad config value exits 1 with one line naming it, before anything starts', async () => {
    const run = await startTiny({ TINY_MODE: 'serve', PORT: 'eighty' }).exited;
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('config: "PORT" must be a number\n');
    expect(run.stdout).to.equal('');
  });

  it('a command exits with its own code once its work ended and its closers ran', async () => {
    const proc = startTiny({ TINY_MODE: 'command' });
    const run = await proc.exited;
    expect(run.code).to.equal(3);
    expect(proc.msgs()).to.deep.equal([
      'command running',
      'shutting down',
      'closer first',
      'closer second',
      'shutdown complete',
    ]);
  });

  it('a signal tells a command to end its work; it then closes and exits with its code', async () => {
    const proc = startTiny({ TINY_MODE: 'command', TINY_WAIT: '1' });
    await proc.waitFor('command running');
    proc.child.kill('SIGTERM');
    const run = await proc.exited;
    expect(run.code).to.equal(0);
    expect(proc.msgs().slice(-3)).to.deep.equal(['closer first', 'closer second', 'shutdown complete']);
  });
});
