import { expect } from 'chai';
import { ArrivalLog, ArrivalLogs, partitionLags, totalLag } from '../src/queue-lag.js';

const offsets = (...highs: Array<[number, number]>) =>
  highs.map(([high, low], partition) => ({ partition, high: String(high), low: String(low) }));

describe('partitionLags', () => {
  it('counts what the group has not committed on each partition', () => {
    const lags = partitionLags(offsets([10, 0], [5, 0]), [
      { partition: 0, offset: '7' },
      { partition: 1, offset: '5' },
    ]);
    expect(lags.map((p) => p.lag)).to.deep.equal([3, 0]);
    expect(totalLag(lags)).to.equal(3);
  });

  it('treats a partition the group never committed on as pending from the low watermark', () => {
    const lags = partitionLags(offsets([10, 4]), [{ partition: 0, offset: '-1' }]);
    expect(lags[0]).to.deep.equal({ partition: 0, next: 4, high: 10, lag: 6 });
    expect(totalLag(partitionLags(offsets([3, 0], [2, 0]), []))).to.equal(5);
  });

  it('does not count messages retention already deleted, nor go negative', () => {
    const lags = partitionLags(offsets([100, 90], [5, 0]), [
      { partition: 0, offset: '20' },
      { partition: 1, offset: '9' },
    ]);
    expect(lags.map((p) => p.lag)).to.deep.equal([10, 0]);
  });
});

describe('ArrivalLog', () => {
  const at = (s: number): number => 1_700_000_000_000 + s * 1000;

  it('reports 0 when nothing is pending', () => {
    const log = new ArrivalLog();
    const lags = partitionLags(offsets([5, 0]), [{ partition: 0, offset: '5' }]);
    log.record(lags, at(0));
    expect(log.oldestPendingSeconds(lags, at(30))).to.equal(0);
  });

  it('ages the oldest pending message from when its offset was first seen, across partitions', () => {
    const log = new ArrivalLog();
    log.record(partitionLags(offsets([2, 0], [0, 0]), []), at(0));
    log.record(partitionLags(offsets([4, 0], [3, 0]), []), at(10));
    const committed = [{ partition: 0, offset: '1' }];
    const lags = partitionLags(offsets([4, 0], [3, 0]), committed);
    log.record(lags, at(25));
    expect(log.oldestPendingSeconds(lags, at(25))).to.equal(25);
  });

  it('moves the age forward when the group commits past the oldest messages', () => {
    const log = new ArrivalLog();
    log.record(partitionLags(offsets([2, 0]), []), at(0));
    log.record(partitionLags(offsets([5, 0]), []), at(20));
    const lags = partitionLags(offsets([5, 0]), [{ partition: 0, offset: '2' }]);
    log.record(lags, at(30));
    expect(log.oldestPendingSeconds(lags, at(30))).to.equal(10);
  });

  it('starts from zero for a backlog it meets for the first time (a lower bound, not a guess)', () => {
    const log = new ArrivalLog();
    const lags = partitionLags(offsets([50, 0]), []);
    log.record(lags, at(100));
    expect(log.oldestPendingSeconds(lags, at(100))).to.equal(0);
    expect(log.oldestPendingSeconds(lags, at(112))).to.equal(12);
  });

  it('keeps the oldest sample when a long backlog outgrows the sample budget', () => {
    const log = new ArrivalLog();
    for (let i = 0; i < 1000; i++) log.record(partitionLags(offsets([i + 1, 0]), []), at(i));
    const lags = partitionLags(offsets([1000, 0]), []);
    expect(log.oldestPendingSeconds(lags, at(1000))).to.equal(1000);
  });
});

describe('ArrivalLogs (one arrival log per DocxImportJob)', () => {
  const at = (s: number): number => 1_700_000_000_000 + s * 1000;
  const q = (consumerGroup: string) => ({ topic: 'docx-import.jobs.v1', consumerGroup });

  it('keeps two jobs on one topic apart: a fast group committing does not age the slow group younger', () => {
    const logs = new ArrivalLogs();
    const fast = logs.for('ns/fast', q('fast'));
    const slow = logs.for('ns/slow', q('slow'));
    expect(fast).not.to.equal(slow);
    for (const log of [fast, slow]) log.record(partitionLags(offsets([5, 0]), []), at(0));
    for (const log of [fast, slow]) log.record(partitionLags(offsets([10, 0]), []), at(20));
    const fastLags = partitionLags(offsets([10, 0]), [{ partition: 0, offset: '6' }]);
    fast.record(fastLags, at(30));
    const slowLags = partitionLags(offsets([10, 0]), [{ partition: 0, offset: '1' }]);
    slow.record(slowLags, at(30));
    expect(fast.oldestPendingSeconds(fastLags, at(30))).to.equal(10);
    expect(slow.oldestPendingSeconds(slowLags, at(30))).to.equal(30);
  });

  it('returns the same log for the same job and queue, a fresh one when its queue changes, none after forget', () => {
    const logs = new ArrivalLogs();
    const first = logs.for('ns/a', q('g1'));
    expect(logs.for('ns/a', q('g1'))).to.equal(first);
    expect(logs.for('ns/a', q('g2'))).not.to.equal(first);
    logs.forget('ns/a');
    expect(logs.size).to.equal(0);
  });
});
