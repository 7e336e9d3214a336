import { expect } from 'chai';
import { WorkLimiter } from '../src/domain/work-limiter.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('WorkLimiter', () => {
  it('runs at most `concurrency` jobs, queues up to `queue`, and refuses the next at once', async () => {
    const limiter = new WorkLimiter(2, 1);
    const g = gate();
    const jobs = [1, 2, 3].map((n) =>
      limiter.run(async () => {
        await g.opened;
        return n;
      }),
    );
    await Promise.resolve();
    expect(limiter.inFlight).to.equal(2);
    expect(limiter.queued).to.equal(1);
    expect(await limiter.run(async () => 4)).to.equal(null);
    g.open();
    expect(await Promise.all(jobs)).to.deep.equal([{ value: 1 }, { value: 2 }, { value: 3 }]);
    expect(limiter.inFlight).to.equal(0);
  });

  it('releases the slot when a job throws', async () => {
    const limiter = new WorkLimiter(1, 0);
    await limiter
      .run(async () => {
        throw new Error('boom');
      })
      .catch(() => undefined);
    expect(await limiter.run(async () => 'next')).to.deep.equal({ value: 'next' });
  });

  it('turns a queued job away (null, never run) once it waited maxWaitMs, and keeps the slot for the next', async () => {
    const limiter = new WorkLimiter(1, 5, 50);
    const g = gate();
    const holding = limiter.run(() => g.opened);
    let ran = false;
    const waited = await limiter.run(async () => {
      ran = true;
    });
    expect(waited).to.equal(null);
    expect(ran).to.equal(false);
    expect(limiter.queued).to.equal(0);
    g.open();
    await holding;
    expect(await limiter.run(async () => 'next')).to.deep.equal({ value: 'next' });
    expect(limiter.inFlight).to.equal(0);
  });
});
