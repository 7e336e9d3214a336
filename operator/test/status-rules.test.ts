import { expect } from 'chai';
import type { DocxImportJob, DocxImportJobStatus } from '../src/api/docx-import-job.js';
import { decide } from '../src/controller/decide.js';
import { StatusLedger, statusVerdict, worthReconciling } from '../src/controller/status-rules.js';
import { aJob, anOwnedDeployment, aPolicy, depth } from './support/factories.js';

const withMeta = (job: DocxImportJob, meta: Record<string, unknown>, status?: DocxImportJobStatus): DocxImportJob => ({
  ...job,
  metadata: { ...job.metadata, resourceVersion: '7', ...meta },
  ...(status ? { status } : {}),
});

describe('worthReconciling (which DocxImportJob watch events enqueue a reconcile)', () => {
  const job = aJob({ generation: 3 });
  const written: DocxImportJobStatus = { observedGeneration: 3, desiredWorkers: 2, queue: queue(10) };

  it('reconciles a job seen for the first time', () => {
    expect(worthReconciling(undefined, job, [])).to.equal(true);
  });

  it('ignores the echo of its own status write: same generation, status exactly what it wrote', () => {
    const before = withMeta(job, {}, { observedGeneration: 3, desiredWorkers: 2, queue: queue(12) });
    const echo = withMeta(job, { resourceVersion: '8' }, written);
    expect(worthReconciling(before, echo, [written])).to.equal(false);
    // The echo of an earlier write arriving after a newer one was sent is still our own.
    const newer = { ...written, queue: queue(9) };
    expect(worthReconciling(before, echo, [written, newer])).to.equal(false);
  });

  it('reconciles a spec change even when the status is its own echo', () => {
    const before = withMeta(job, {}, written);
    const edited = withMeta(job, { generation: 4, resourceVersion: '9' }, written);
    expect(worthReconciling(before, edited, [written])).to.equal(true);
  });

  it('reconciles a status somebody else wrote, so the operator puts its own back', () => {
    const before = withMeta(job, {}, written);
    const tampered = withMeta(job, { resourceVersion: '9' }, { ...written, desiredWorkers: 7 });
    expect(worthReconciling(before, tampered, [written])).to.equal(true);
    expect(worthReconciling(before, tampered, [])).to.equal(true);
  });

  it('ignores metadata-only changes (labels, annotations) but not a deletion starting or a new uid', () => {
    const before = withMeta(job, {}, written);
    expect(worthReconciling(before, withMeta(job, { labels: { a: 'b' } }, written), [])).to.equal(false);
    const deleting = withMeta(job, { deletionTimestamp: '2026-01-01T00:00:00Z' }, written);
    expect(worthReconciling(before, deleting, [written])).to.equal(true);
    expect(worthReconciling(before, withMeta(job, { uid: 'uid-2' }, written), [written])).to.equal(true);
  });
});

function queue(totalPending: number) {
  return { totalPending, active: 0, waiting: totalPending, oldestWaitingSeconds: 0 };
}

describe('statusVerdict (when a changed status is written)', () => {
  const base: DocxImportJobStatus = {
    observedGeneration: 1,
    desiredWorkers: 2,
    readyWorkers: 0,
    queue: queue(10),
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'Reconciled',
        message: 'at 2 replicas for 10 pending jobs',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
  };
  const queueMoved: DocxImportJobStatus = {
    ...base,
    queue: queue(9),
    conditions: base.conditions?.map((c) => ({ ...c, message: 'at 2 replicas for 9 pending jobs' })),
  };
  const verdict = (next: DocxImportJobStatus, lastWriteAt: number | undefined, now: number) =>
    statusVerdict({ current: base, next, lastWriteAt, now, queueIntervalMs: 5000 });

  it('writes nothing when nothing changed', () => {
    expect(verdict(base, undefined, 0)).to.equal('unchanged');
  });

  it('holds back a change of queue figures (and the messages quoting them) within the interval, writes it after', () => {
    expect(verdict(queueMoved, 1000, 5999)).to.equal('defer');
    expect(verdict(queueMoved, 1000, 6000)).to.equal('write');
    expect(verdict(queueMoved, undefined, 0), 'never written by this process').to.equal('write');
  });

  it('remembers the last few statuses it sent or stored per job, and when it last wrote', () => {
    const ledger = new StatusLedger();
    ledger.sending('k', { desiredWorkers: 1 });
    expect(ledger.lastWriteAt('k'), 'not stored yet').to.equal(undefined);
    ledger.record('k', { desiredWorkers: 1 }, 500);
    for (let n = 2; n <= 6; n++) ledger.record('k', { desiredWorkers: n }, 500 + n);
    expect(ledger.ownWrites('k').map((s) => s.desiredWorkers)).to.deep.equal([3, 4, 5, 6]);
    expect(ledger.lastWriteAt('k')).to.equal(506);
    ledger.forget('k');
    expect(ledger.ownWrites('k')).to.deep.equal([]);
  });

  it('never holds back replicas, generation, or a condition status or reason', () => {
    expect(verdict({ ...queueMoved, desiredWorkers: 3 }, 1000, 1001)).to.equal('write');
    expect(verdict({ ...base, readyWorkers: 1 }, 1000, 1001)).to.equal('write');
    expect(verdict({ ...base, observedGeneration: 2 }, 1000, 1001)).to.equal('write');
    const flipped = base.conditions?.map((c) => ({ ...c, status: 'False' as const, reason: 'QueueDepthUnavailable' }));
    expect(verdict({ ...base, conditions: flipped }, 1000, 1001)).to.equal('write');
  });

  it('with steady commits for a minute, writes at most one queue-only status per interval', () => {
    // A reconcile every 100 ms, each seeing one job fewer: the loop the echo would drive at full speed.
    const job = aJob({ scaling: { minWorkers: 1, maxWorkers: 10, jobsPerWorker: 10_000 } });
    const deployment = anOwnedDeployment(job, 1);
    const ledger = new StatusLedger();
    let current: DocxImportJobStatus | undefined;
    let writes = 0;
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let t = 0; t <= 60_000; t += 100) {
      const now = start + t;
      const next = decide({ ...job, status: current }, deployment, depth(5000 - t / 100), {
        now: new Date(now),
        policy: aPolicy(),
      }).status;
      const v = statusVerdict({ current, next, lastWriteAt: ledger.lastWriteAt('k'), now, queueIntervalMs: 5000 });
      if (v !== 'write') continue;
      writes += 1;
      ledger.record('k', next, now);
      current = next;
    }
    expect(writes).to.equal(1 + 60_000 / 5000);
    expect(current?.queue?.totalPending).to.equal(5000 - 600);
  });
});
