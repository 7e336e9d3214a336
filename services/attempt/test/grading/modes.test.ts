import { expect } from 'chai';
import {
  AnswerFormatError,
  gradeAnswer,
  normalizeAnswer,
  type Outcome,
  type QuestionSnapshot,
} from '../../src/grading/index.js';
import { choice, short, statements, tf } from './fixtures.js';

interface Row {
  name: string;
  question: QuestionSnapshot;
  body: unknown;
  /** [isCorrect, score, outcome], or 'malformed' for a body normalizeAnswer must reject. */
  expected: [boolean | null, number, Outcome] | 'malformed';
}

const ids = (...selected: string[]) => ({ selectedOptionIds: selected });
const text = (textAnswer: unknown) => ({ answer: { textAnswer } });

const single = choice(['b'], { score: 0.25 });
const multiExact = choice(['a', 'c']);
const multiPartial = choice(['a', 'c'], { scoringRule: { mode: 'PARTIAL', maxScore: 1, incorrectPenalty: 0.25 } });
const multiNegative = choice(['a', 'c'], {
  scoringRule: { mode: 'PARTIAL', maxScore: 1, incorrectPenalty: 0.25, minScore: -0.25 },
});
const tfPartial = statements([true, false, true, false], {
  type: 'TRUE_FALSE',
  scoringRule: { mode: 'PARTIAL', maxScore: 1, incorrectPenalty: 0.1 },
});
const tfExact = statements([true, false, true, false], {
  type: 'TRUE_FALSE',
  scoringRule: { mode: 'EXACT', maxScore: 1 },
});
const ladder = statements([true, false, true, false]);
// A TRUE_FALSE_GROUP is graded by the ladder whatever mode its rule names.
const groupPartial = statements([true, false, true, false], { scoringRule: { mode: 'PARTIAL', maxScore: 1 } });
const ladderWeighted = statements([true, true, false, false], { score: 0.25 });
const threeStatements = statements([true, false, true], {
  scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1.5 },
});
const textQ = short(['Hà Nội', 'Thủ đô Hà Nội']);
const numeric = short(['3.5'], { type: 'SHORT_NUMERIC_ANSWER', score: 0.5 });
const numericTol = short(['3,5'], {
  type: 'SHORT_NUMERIC_ANSWER',
  answerKeys: { acceptedAnswers: ['3,5'], tolerance: 0.1 },
});
const numericRuleTol = short(['-1.25'], {
  type: 'SHORT_NUMERIC_ANSWER',
  scoringRule: { mode: 'EXACT', maxScore: 1, tolerance: 0.01 },
});

const ROWS: Row[] = [
  // Single choice, EXACT, worth 0.25.
  { name: 'single: right', question: single, body: ids('b'), expected: [true, 0.25, 'CORRECT'] },
  { name: 'single: right plus a wrong pick', question: single, body: ids('b', 'c'), expected: [false, 0, 'WRONG'] },
  { name: 'single: wrong', question: single, body: ids('a'), expected: [false, 0, 'WRONG'] },
  { name: 'single: blank', question: single, body: ids(), expected: [null, 0, 'BLANK'] },
  { name: 'single: no answer fields', question: single, body: {}, expected: [null, 0, 'BLANK'] },
  { name: 'single: malformed ids', question: single, body: { selectedOptionIds: 5 }, expected: 'malformed' },
  // Multiple choice, EXACT.
  { name: 'multi exact: right (any order)', question: multiExact, body: ids('c', 'a'), expected: [true, 1, 'CORRECT'] },
  { name: 'multi exact: partly right', question: multiExact, body: ids('a'), expected: [false, 0, 'WRONG'] },
  { name: 'multi exact: wrong', question: multiExact, body: ids('b', 'd'), expected: [false, 0, 'WRONG'] },
  {
    name: 'multi exact: blank',
    question: multiExact,
    body: { answer: { selectedOptionIds: null } },
    expected: [null, 0, 'BLANK'],
  },
  { name: 'multi exact: malformed id', question: multiExact, body: ids('a', 7 as never), expected: 'malformed' },
  // Multiple choice, PARTIAL: 1 × right / 2 − 0.25 × wrong, clamped to [0, 1].
  { name: 'partial: right', question: multiPartial, body: ids('a', 'c'), expected: [true, 1, 'CORRECT'] },
  { name: 'partial: half', question: multiPartial, body: ids('a'), expected: [false, 0.5, 'PARTIAL'] },
  {
    name: 'partial: half and a penalty',
    question: multiPartial,
    body: ids('a', 'b'),
    expected: [false, 0.25, 'PARTIAL'],
  },
  {
    name: 'partial: everything picked',
    question: multiPartial,
    body: ids('a', 'b', 'c', 'd'),
    expected: [false, 0.5, 'PARTIAL'],
  },
  { name: 'partial: wrong, clamped at 0', question: multiPartial, body: ids('b', 'd'), expected: [false, 0, 'WRONG'] },
  { name: 'partial: blank', question: multiPartial, body: ids(), expected: [null, 0, 'BLANK'] },
  {
    name: 'partial: malformed',
    question: multiPartial,
    body: { selectedOptionIds: { a: true } },
    expected: 'malformed',
  },
  {
    name: 'partial minScore −0.25: one wrong pick',
    question: multiNegative,
    body: ids('b'),
    expected: [false, -0.25, 'WRONG'],
  },
  {
    name: 'partial minScore −0.25: clamped',
    question: multiNegative,
    body: ids('b', 'd'),
    expected: [false, -0.25, 'WRONG'],
  },
  { name: 'partial minScore −0.25: blank is 0', question: multiNegative, body: ids(), expected: [null, 0, 'BLANK'] },
  // True/false statements, PARTIAL: 1 × right / 4 − 0.1 × wrongly answered.
  {
    name: 'tf partial: right',
    question: tfPartial,
    body: tf([true, false, true, false]),
    expected: [true, 1, 'CORRECT'],
  },
  {
    name: 'tf partial: 3 right 1 wrong',
    question: tfPartial,
    body: tf([true, false, true, true]),
    expected: [false, 0.65, 'PARTIAL'],
  },
  {
    name: 'tf partial: 2 right 2 blank',
    question: tfPartial,
    body: tf([true, false, null, null]),
    expected: [false, 0.5, 'PARTIAL'],
  },
  {
    name: 'tf partial: all wrong',
    question: tfPartial,
    body: tf([false, true, false, true]),
    expected: [false, 0, 'WRONG'],
  },
  { name: 'tf partial: blank', question: tfPartial, body: tf([null, null, null, null]), expected: [null, 0, 'BLANK'] },
  {
    name: 'tf partial: malformed value',
    question: tfPartial,
    body: { statementAnswers: [{ label: 'A', value: 'maybe' }] },
    expected: 'malformed',
  },
  // True/false statements, EXACT.
  { name: 'tf exact: right', question: tfExact, body: tf([true, false, true, false]), expected: [true, 1, 'CORRECT'] },
  { name: 'tf exact: 3 right', question: tfExact, body: tf([true, false, true, true]), expected: [false, 0, 'WRONG'] },
  { name: 'tf exact: blank', question: tfExact, body: { statementAnswers: [] }, expected: [null, 0, 'BLANK'] },
  // THPT ladder.
  { name: 'ladder: 4 right', question: ladder, body: tf([true, false, true, false]), expected: [true, 1, 'CORRECT'] },
  { name: 'ladder: 3 right', question: ladder, body: tf([true, false, true, true]), expected: [false, 0.5, 'PARTIAL'] },
  {
    name: 'ladder: 2 right, 2 blank',
    question: ladder,
    body: tf([true, false, null, null]),
    expected: [false, 0.25, 'PARTIAL'],
  },
  { name: 'ladder: 1 right', question: ladder, body: tf([true, true, false, true]), expected: [false, 0.1, 'PARTIAL'] },
  { name: 'ladder: 0 right', question: ladder, body: tf([false, true, false, true]), expected: [false, 0, 'WRONG'] },
  { name: 'ladder: blank', question: ladder, body: {}, expected: [null, 0, 'BLANK'] },
  {
    name: 'ladder: malformed (statement twice)',
    question: ladder,
    body: {
      statementAnswers: [
        { label: 'a', value: true },
        { label: 'A', value: false },
      ],
    },
    expected: 'malformed',
  },
  {
    name: 'group with a PARTIAL rule: ladder',
    question: groupPartial,
    body: tf([true, false, true, true]),
    expected: [false, 0.5, 'PARTIAL'],
  },
  {
    name: 'ladder worth 0.25: 1 right',
    question: ladderWeighted,
    body: tf([true, false, true, true]),
    expected: [false, 0.025, 'PARTIAL'],
  },
  {
    name: 'ladder worth 0.25: 2 right',
    question: ladderWeighted,
    body: tf([true, true, true, true]),
    expected: [false, 0.0625, 'PARTIAL'],
  },
  {
    name: 'ladder worth 0.25: 3 right',
    question: ladderWeighted,
    body: tf([true, true, false, true]),
    expected: [false, 0.125, 'PARTIAL'],
  },
  {
    name: 'ladder of 3 statements: 2 right',
    question: threeStatements,
    body: tf([true, false, false]),
    expected: [false, 1, 'PARTIAL'],
  },
  // Short text.
  { name: 'text: right, case and spaces', question: textQ, body: text('  hà   NỘI '), expected: [true, 1, 'CORRECT'] },
  {
    name: 'text: right, decomposed Unicode',
    question: textQ,
    body: text('Hà Nội'.normalize('NFD')),
    expected: [true, 1, 'CORRECT'],
  },
  {
    name: 'text: the other accepted answer',
    question: textQ,
    body: text('thủ đô hà nội'),
    expected: [true, 1, 'CORRECT'],
  },
  { name: 'text: partly right', question: textQ, body: text('Hà'), expected: [false, 0, 'WRONG'] },
  { name: 'text: diacritics missing', question: textQ, body: text('Ha Noi'), expected: [false, 0, 'WRONG'] },
  { name: 'text: blank', question: textQ, body: text('   '), expected: [null, 0, 'BLANK'] },
  { name: 'text: malformed', question: textQ, body: text({ value: 'Hà Nội' }), expected: 'malformed' },
  // Numbers: comma decimals, tolerance.
  { name: 'numeric: comma decimal', question: numeric, body: text('3,5'), expected: [true, 0.5, 'CORRECT'] },
  {
    name: 'numeric: trailing zero and sign',
    question: numeric,
    body: text(' +3.50 '),
    expected: [true, 0.5, 'CORRECT'],
  },
  { name: 'numeric: a number value', question: numeric, body: text(3.5), expected: [true, 0.5, 'CORRECT'] },
  { name: 'numeric: partly right digits', question: numeric, body: text('3'), expected: [false, 0, 'WRONG'] },
  { name: 'numeric: wrong', question: numeric, body: text('3,6'), expected: [false, 0, 'WRONG'] },
  { name: 'numeric: not a number', question: numeric, body: text('ba phẩy năm'), expected: [false, 0, 'WRONG'] },
  {
    name: 'numeric: thousands separator is not a number',
    question: numeric,
    body: text('1.000,5'),
    expected: [false, 0, 'WRONG'],
  },
  { name: 'numeric: blank', question: numeric, body: text(''), expected: [null, 0, 'BLANK'] },
  { name: 'numeric: malformed', question: numeric, body: text(['3,5']), expected: 'malformed' },
  { name: 'tolerance 0.1: at the edge above', question: numericTol, body: text('3,6'), expected: [true, 1, 'CORRECT'] },
  { name: 'tolerance 0.1: at the edge below', question: numericTol, body: text('3.4'), expected: [true, 1, 'CORRECT'] },
  { name: 'tolerance 0.1: just outside', question: numericTol, body: text('3,61'), expected: [false, 0, 'WRONG'] },
  {
    name: 'rule tolerance, unicode minus',
    question: numericRuleTol,
    body: text('\u22121,255'),
    expected: [true, 1, 'CORRECT'],
  },
  { name: 'rule tolerance: outside', question: numericRuleTol, body: text('-1,27'), expected: [false, 0, 'WRONG'] },
  // Not auto-graded.
  {
    name: 'essay: ungraded',
    question: short([], { type: 'ESSAY', answerKeys: null }),
    body: text('an essay'),
    expected: [null, 0, 'UNGRADED'],
  },
  { name: 'choice without a key: ungraded', question: choice([]), body: ids('a'), expected: [null, 0, 'UNGRADED'] },
];

describe('grading: every mode × right, partly right, wrong, blank, malformed (pure)', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      if (row.expected === 'malformed') {
        expect(() => normalizeAnswer(row.body)).to.throw(AnswerFormatError);
        return;
      }
      const [isCorrect, score, outcome] = row.expected;
      expect(gradeAnswer(row.question, normalizeAnswer(row.body))).to.include({ isCorrect, score, outcome });
    });
  }

  it('a null answer is blank', () => {
    expect(gradeAnswer(single, null)).to.deep.equal({ isCorrect: null, score: 0, maxScore: 0.25, outcome: 'BLANK' });
  });

  it('a question is worth its exam score; the rule is scaled to it', () => {
    // PARTIAL on a scale of 2 (penalty 0.5 on that scale) for a question the exam weighs 0.5.
    const q = choice(['a', 'c'], { score: 0.5, scoringRule: { mode: 'PARTIAL', maxScore: 2, incorrectPenalty: 0.5 } });
    expect(gradeAnswer(q, normalizeAnswer(ids('a')))).to.include({ score: 0.25, maxScore: 0.5 });
    expect(gradeAnswer(q, normalizeAnswer(ids('a', 'b')))).to.include({ score: 0.125, maxScore: 0.5 });
    // Without an exam score the rule's maxScore is the worth, and 1 without either.
    expect(gradeAnswer(choice(['a'], { scoringRule: { mode: 'EXACT', maxScore: 2 } }), null).maxScore).to.equal(2);
    expect(gradeAnswer(choice(['a'], { scoringRule: null }), null).maxScore).to.equal(1);
  });

  it('keys come from correctOptionIds, else option isCorrect, else correctLabels', () => {
    const byFlag = choice(['c'], { answerKeys: null });
    expect(gradeAnswer(byFlag, normalizeAnswer(ids('c'))).isCorrect).to.equal(true);
    const byLabel = choice([], { answerKeys: { correctLabels: ['b'] } });
    expect(gradeAnswer(byLabel, normalizeAnswer(ids('b'))).isCorrect).to.equal(true);
    expect(gradeAnswer(byLabel, normalizeAnswer(ids('a'))).isCorrect).to.equal(false);
  });

  it('a stored answer of a broken shape grades as blank instead of throwing', () => {
    const stored = {
      questionId: ladder.questionId,
      selectedOptionIds: 'x',
      statementAnswers: [null, 3, { label: 9 }],
      textAnswer: 1,
    };
    expect(gradeAnswer(ladder, stored)).to.include({ isCorrect: null, score: 0, outcome: 'BLANK' });
    const odd = { questionId: 'q', type: 'SINGLE_CHOICE', options: 'nope', scoringRule: 'x', score: -3 };
    expect(gradeAnswer(odd, { selectedOptionIds: ['a'] })).to.deep.equal({
      isCorrect: null,
      score: 0,
      maxScore: 1,
      outcome: 'UNGRADED',
    });
  });
});
