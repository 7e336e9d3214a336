import { expect } from 'chai';
import { findCondition, formatTime, isConditionTrue, setCondition } from '../src/controller/conditions.js';

const t0 = new Date('2025-01-01T00:00:00.000Z');
const t1 = new Date('2025-01-01T00:05:00.750Z');

describe('setCondition', () => {
  it('appends a condition that was absent, stamping lastTransitionTime with now', () => {
    const list = setCondition(
      undefined,
      { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'ok', observedGeneration: 1 },
      t0,
    );
    expect(list).to.deep.equal([
      {
        type: 'Ready',
        status: 'True',
        reason: 'Reconciled',
        message: 'ok',
        observedGeneration: 1,
        lastTransitionTime: '2025-01-01T00:00:00Z',
      },
    ]);
  });

  it('keeps lastTransitionTime but takes the new reason, message and generation when the status is unchanged', () => {
    const before = setCondition(
      [],
      { type: 'Ready', status: 'False', reason: 'A', message: 'a', observedGeneration: 1 },
      t0,
    );
    const after = setCondition(
      before,
      { type: 'Ready', status: 'False', reason: 'B', message: 'b', observedGeneration: 2 },
      t1,
    );
    expect(after).to.deep.equal([
      {
        type: 'Ready',
        status: 'False',
        reason: 'B',
        message: 'b',
        observedGeneration: 2,
        lastTransitionTime: '2025-01-01T00:00:00Z',
      },
    ]);
  });

  it('moves lastTransitionTime when the status flips', () => {
    const before = setCondition([], { type: 'Ready', status: 'False', reason: 'A', message: 'a' }, t0);
    const after = setCondition(before, { type: 'Ready', status: 'True', reason: 'A', message: 'a' }, t1);
    expect(after[0]?.lastTransitionTime).to.equal('2025-01-01T00:05:00Z');
  });

  it('replaces in place and leaves other condition types and the input list untouched', () => {
    const before = setCondition(
      setCondition([], { type: 'A', status: 'True', reason: 'R', message: '' }, t0),
      { type: 'B', status: 'True', reason: 'R', message: '' },
      t0,
    );
    const snapshot = structuredClone(before);
    const after = setCondition(before, { type: 'A', status: 'False', reason: 'S', message: '' }, t1);
    expect(after.map((c) => `${c.type}=${c.status}`)).to.deep.equal(['A=False', 'B=True']);
    expect(before).to.deep.equal(snapshot);
  });
});

describe('findCondition and isConditionTrue', () => {
  it('finds a condition by type and reports True only for status True', () => {
    const list = setCondition(
      setCondition([], { type: 'A', status: 'True', reason: 'R', message: '' }, t0),
      { type: 'B', status: 'Unknown', reason: 'R', message: '' },
      t0,
    );
    expect(findCondition(list, 'B')?.status).to.equal('Unknown');
    expect(findCondition(list, 'C')).to.equal(undefined);
    expect(isConditionTrue(list, 'A')).to.equal(true);
    expect(isConditionTrue(list, 'B')).to.equal(false);
    expect(isConditionTrue(undefined, 'A')).to.equal(false);
  });
});

describe('formatTime', () => {
  it('renders metav1.Time: RFC 3339 in UTC at second precision', () => {
    expect(formatTime(t1)).to.equal('2025-01-01T00:05:00Z');
  });
});
