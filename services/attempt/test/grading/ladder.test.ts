import { expect } from 'chai';
import { gradeAnswer, normalizeAnswer } from '../../src/grading/index.js';
import { bits, statements, tf } from './fixtures.js';

// The THPT 2025 ladder, written out here rather than imported: matches → share of the points.
const SHARE_OF_ONE = [0, 0.1, 0.25, 0.5, 1];
const SHARE_OF_QUARTER = [0, 0.025, 0.0625, 0.125, 0.25];

const matchesOf = (key: boolean[], answer: boolean[]) => key.filter((b, i) => b === answer[i]).length;

describe('grading: THPT true/false ladder, all 16 × 16 key and answer patterns (pure)', () => {
  for (let k = 0; k < 16; k += 1) {
    it(`key ${bits(k)
      .map((b) => (b ? 'Đ' : 'S'))
      .join('')}: every answer pattern`, () => {
      const key = bits(k);
      const group = statements(key);
      const quarter = statements(key, { score: 0.25, scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 } });
      // A TRUE_FALSE (not group) question with the ladder mode named explicitly.
      const named = statements(key, {
        type: 'TRUE_FALSE',
        scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 },
      });
      for (let a = 0; a < 16; a += 1) {
        const answer = bits(a);
        const m = matchesOf(key, answer);
        const body = normalizeAnswer(tf(answer));
        const expected = { isCorrect: m === 4, score: SHARE_OF_ONE[m] };
        expect(gradeAnswer(group, body), `answer ${a}`).to.include(expected);
        expect(gradeAnswer(named, body), `answer ${a}, named mode`).to.include(expected);
        expect(gradeAnswer(quarter, body), `answer ${a}, worth 0.25`).to.include({ score: SHARE_OF_QUARTER[m] });
        // The same answer as a map with lower-case labels grades the same.
        const map = Object.fromEntries(answer.map((v, i) => ['abcd'[i]!, v]));
        expect(gradeAnswer(group, normalizeAnswer({ answer: { statementAnswers: map } })).score).to.equal(
          SHARE_OF_ONE[m],
        );
      }
    });
  }

  it('an unanswered statement is not right: 3 answered right and 1 blank is the 3-step', () => {
    const group = statements([true, true, true, true]);
    expect(gradeAnswer(group, normalizeAnswer(tf([true, true, true, null])))).to.include({
      score: 0.5,
      isCorrect: false,
    });
    expect(gradeAnswer(group, normalizeAnswer(tf([true, null, null, null])))).to.include({
      score: 0.1,
      outcome: 'PARTIAL',
    });
  });
});
