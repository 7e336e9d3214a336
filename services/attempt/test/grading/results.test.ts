import { expect } from 'chai';
import { redact, scorePercent, shuffleFor, visibility, type Visibility } from '../../src/grading/index.js';

const NOW = new Date('2026-06-27T10:00:00Z');
const PAST = '2026-06-27T09:00:00Z';
const FUTURE = new Date('2026-06-27T11:00:00Z');
const V: Visibility = { visible: true };
const hidden = (hiddenReason: string) => ({ visible: false, hiddenReason });

describe('grading: scorePercent (pure)', () => {
  const CASES: Array<[number | null, number, number | null]> = [
    [8.5, 10, 85], // 8.5 / 10 * 100 is 85.00000000000001 in doubles
    [10, 10, 100],
    [2.5, 40, 6.25],
    [1, 3, 100 / 3], // unrounded
    [0.1, 0.3, 100 / 3],
    [0, 10, 0],
    [0, 0, 0],
    [null, 10, null],
  ];
  for (const [total, max, expected] of CASES) {
    it(`${total} of ${max} is ${expected}`, () => expect(scorePercent(total, max)).to.equal(expected));
  }
});

describe('grading: result visibility matrix (pure)', () => {
  // [mode, closeTime, resultsReleasedAt, status, role, expected]
  const ROWS: Array<[string, unknown, unknown, string, string, object]> = [
    ['IMMEDIATE', null, null, 'GRADED', 'STUDENT', V],
    ['IMMEDIATE', FUTURE, null, 'GRADED', 'STUDENT', V],
    ['IMMEDIATE', null, null, 'IN_PROGRESS', 'STUDENT', hidden('ATTEMPT_IN_PROGRESS')],
    ['AFTER_CLOSE', FUTURE, null, 'GRADED', 'STUDENT', hidden('RESULTS_AFTER_CLOSE')],
    ['AFTER_CLOSE', PAST, null, 'GRADED', 'STUDENT', V],
    ['AFTER_CLOSE', NOW, null, 'GRADED', 'STUDENT', V],
    ['AFTER_CLOSE', FUTURE, PAST, 'GRADED', 'STUDENT', V],
    ['AFTER_CLOSE', FUTURE, FUTURE, 'GRADED', 'STUDENT', hidden('RESULTS_AFTER_CLOSE')],
    ['AFTER_CLOSE', null, null, 'GRADED', 'STUDENT', hidden('RESULTS_AFTER_CLOSE')],
    ['AFTER_CLOSE', 'not a date', null, 'GRADED', 'STUDENT', hidden('RESULTS_AFTER_CLOSE')],
    ['MANUAL', PAST, null, 'GRADED', 'STUDENT', hidden('RESULTS_NOT_RELEASED')],
    ['MANUAL', PAST, FUTURE, 'GRADED', 'STUDENT', hidden('RESULTS_NOT_RELEASED')],
    ['MANUAL', FUTURE, PAST, 'GRADED', 'STUDENT', V],
    ['MANUAL', null, NOW, 'GRADED', 'STUDENT', V],
    ['SOMETIMES', PAST, null, 'GRADED', 'STUDENT', hidden('RESULTS_NOT_RELEASED')],
    ['MANUAL', FUTURE, null, 'GRADED', 'TEACHER', V],
    ['MANUAL', FUTURE, null, 'GRADED', 'ADMIN', V],
    ['AFTER_CLOSE', FUTURE, null, 'GRADED', 'TEACHER', V],
    ['IMMEDIATE', null, null, 'IN_PROGRESS', 'TEACHER', hidden('ATTEMPT_IN_PROGRESS')],
    ['IMMEDIATE', null, null, 'IN_PROGRESS', 'ADMIN', hidden('ATTEMPT_IN_PROGRESS')],
    ['IMMEDIATE', null, null, 'GRADED', 'PARENT', hidden('ROLE_NOT_ALLOWED')],
    ['IMMEDIATE', null, null, 'GRADED', '', hidden('ROLE_NOT_ALLOWED')],
  ];
  for (const [showResultMode, closeTime, resultsReleasedAt, status, role, expected] of ROWS) {
    const at = (t: unknown) => (t instanceof Date ? t.toISOString() : String(t));
    it(`${role || 'no role'} / ${status} / ${showResultMode} close ${at(closeTime)} released ${at(resultsReleasedAt)}`, () => {
      const policy = { showResultMode, closeTime, resultsReleasedAt, status } as Parameters<typeof visibility>[0];
      expect(visibility(policy, { role: role || undefined }, NOW)).to.deep.equal(expected);
    });
  }
});

describe('grading: redaction (pure)', () => {
  const detail = {
    id: 'att-1',
    status: 'GRADED',
    totalScore: 7.5,
    maxScore: 10,
    correctCount: 7,
    wrongCount: 2,
    answers: [{ questionId: 'q1', selectedOptionIds: ['a'], isCorrect: true, score: 1, serverVersion: 2 }],
  };

  it('nulls every grading field present and keeps the rest; the input is not changed', () => {
    const before = structuredClone(detail);
    const out = redact(detail, 'RESULTS_NOT_RELEASED');
    expect(out).to.deep.equal({
      ...detail,
      totalScore: null,
      correctCount: null,
      wrongCount: null,
      answers: [{ questionId: 'q1', selectedOptionIds: ['a'], isCorrect: null, score: null, serverVersion: 2 }],
      hiddenReason: 'RESULTS_NOT_RELEASED',
    });
    expect(out).to.not.have.property('scorePercent');
    expect(detail).to.deep.equal(before);
  });

  it('a result { attempt, scorePercent } is redacted at both levels', () => {
    const out = redact({ attempt: detail, scorePercent: 75 }, 'RESULTS_AFTER_CLOSE');
    expect(out.scorePercent).to.equal(null);
    expect(out.hiddenReason).to.equal('RESULTS_AFTER_CLOSE');
    expect(out.attempt).to.include({
      totalScore: null,
      correctCount: null,
      wrongCount: null,
      hiddenReason: 'RESULTS_AFTER_CLOSE',
    });
    expect(out.attempt.answers[0]).to.include({ isCorrect: null, score: null });
  });
});

describe('grading: per-attempt shuffle (pure)', () => {
  const items = Array.from({ length: 20 }, (_, i) => `q${i}`);

  it('is a permutation that leaves its input alone', () => {
    const copy = [...items];
    const out = shuffleFor('att-1', items);
    expect([...out].sort()).to.deep.equal([...items].sort());
    expect(items).to.deep.equal(copy);
    expect(out).to.not.deep.equal(items);
    expect(shuffleFor('x', [])).to.deep.equal([]);
    expect(shuffleFor('x', ['only'])).to.deep.equal(['only']);
  });

  it('the same seed gives the same order (a reload); other seeds give other orders', () => {
    expect(shuffleFor('att-1', items)).to.deep.equal(shuffleFor('att-1', [...items]));
    const orders = new Set(Array.from({ length: 50 }, (_, i) => shuffleFor(`att-${i}`, items).join(',')));
    expect(orders.size).to.equal(50);
    expect(shuffleFor('att-1:o:q1', ['a', 'b', 'c', 'd']).join()).to.not.equal(
      shuffleFor('att-1:o:q2', ['a', 'b', 'c', 'd', 'e']).slice(0, 4).join(),
    );
  });

  it('spreads: over 4,000 seeds each of 5 items comes first 650 to 950 times', () => {
    const first = new Map<string, number>();
    for (let s = 0; s < 4000; s += 1) {
      const top = shuffleFor(`attempt-${s}`, ['a', 'b', 'c', 'd', 'e'])[0]!;
      first.set(top, (first.get(top) ?? 0) + 1);
    }
    expect([...first.keys()].sort()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    for (const n of first.values()) expect(n).to.be.within(650, 950);
  });
});
