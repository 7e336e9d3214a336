import { expect } from 'chai';
import { KeyedQueue, backoffMs, type Schedule } from '../src/controller/keyed-queue.js';

/** A hand-released async job: the test decides when each reconcile finishes. */
function gate(): { promise: Promise<void>; open(): void; fail(err: Error): void } {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Runs scheduled callbacks only when the test says so, recording the requested delays. */
function manualClock(): { schedule: Schedule; delays: number[]; fireAll(): void } {
  const pending: Array<{ fn: () => void; live: boolean }> = [];
  const delays: number[] = [];
  return {
    delays,
    schedule: (fn, ms) => {
      const entry = { fn, live: true };
      pending.push(entry);
      delays.push(ms);
      return {
        cancel: () => {
          entry.live = false;
        },
      };
    },
    fireAll: () => {
      for (const e of pending.splice(0)) if (e.live) e.fn();
    },
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('KeyedQueue', () => {
  it('runs one reconcile at a time per key and folds events that arrive meanwhile into one more run', async () => {
    const calls: string[] = [];
    const gates = [gate(), gate()];
    let running = 0;
    let maxRunning = 0;
    const q = new KeyedQueue(async (key) => {
      calls.push(key);
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await gates[calls.length - 1]?.promise;
      running -= 1;
    });
    q.enqueue('ns/a');
    q.enqueue('ns/a');
    q.enqueue('ns/a');
    q.enqueue('ns/a');
    await tick();
    expect(calls).to.deep.equal(['ns/a']);
    gates[0]?.open();
    await tick();
    expect(calls).to.deep.equal(['ns/a', 'ns/a']);
    gates[1]?.open();
    await q.whenIdle();
    expect(calls).to.have.length(2);
    expect(maxRunning).to.equal(1);
  });

  it('runs different keys concurrently', async () => {
    const g = gate();
    const started: string[] = [];
    const q = new KeyedQueue(async (key) => {
      started.push(key);
      await g.promise;
    });
    q.enqueue('ns/a');
    q.enqueue('ns/b');
    await tick();
    expect(started).to.deep.equal(['ns/a', 'ns/b']);
    g.open();
    await q.whenIdle();
  });

  it('retries a failed key with growing backoff and resets once it succeeds', async () => {
    const clock = manualClock();
    const errors: number[] = [];
    let failuresLeft = 2;
    let runs = 0;
    const q = new KeyedQueue(
      async () => {
        runs += 1;
        if (failuresLeft-- > 0) throw new Error('apiserver down');
      },
      { schedule: clock.schedule, onError: (_k, _e, attempt) => errors.push(attempt) },
    );
    q.enqueue('ns/a');
    await q.whenIdle();
    clock.fireAll();
    await q.whenIdle();
    clock.fireAll();
    await q.whenIdle();
    expect(runs).to.equal(3);
    expect(errors).to.deep.equal([1, 2]);
    expect(clock.delays).to.deep.equal([backoffMs(1), backoffMs(2)]);
    clock.fireAll();
    await q.whenIdle();
    expect(runs).to.equal(3);
  });

  it('lets a new event run a failed key at once instead of waiting out the backoff', async () => {
    const clock = manualClock();
    let runs = 0;
    const q = new KeyedQueue(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('conflict');
      },
      { schedule: clock.schedule },
    );
    q.enqueue('ns/a');
    await q.whenIdle();
    q.enqueue('ns/a');
    await q.whenIdle();
    expect(runs).to.equal(2);
    clock.fireAll();
    await q.whenIdle();
    expect(runs).to.equal(2);
  });

  it('stop waits for the running reconcile and accepts no new work', async () => {
    const g = gate();
    let runs = 0;
    let finished = false;
    const q = new KeyedQueue(async () => {
      runs += 1;
      await g.promise;
      finished = true;
    });
    q.enqueue('ns/a');
    await tick();
    const stopped = q.stop();
    q.enqueue('ns/b');
    g.open();
    await stopped;
    expect(finished).to.equal(true);
    expect(runs).to.equal(1);
  });
});

describe('backoffMs', () => {
  it('doubles from 250 ms and caps at 30 s', () => {
    expect([1, 2, 3, 4, 10, 50].map(backoffMs)).to.deep.equal([250, 500, 1000, 2000, 30_000, 30_000]);
  });
});
