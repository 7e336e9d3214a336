import { expect } from 'chai';
import { AnswerFormatError, checkAnswerFits, normalizeAnswer } from '../../src/grading/index.js';
import { choice, statements } from './fixtures.js';

const CANONICAL = [
  { label: 'A', value: true },
  { label: 'B', value: false },
  { label: 'C', value: null },
];

function rejection(body: unknown): AnswerFormatError {
  try {
    normalizeAnswer(body);
  } catch (err) {
    expect(err).to.be.instanceOf(AnswerFormatError);
    return err as AnswerFormatError;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('grading: answer normalization (pure)', () => {
  it('nested and top-level fields; a nested field wins over the same top-level one', () => {
    const empty = { selectedOptionIds: [], statementAnswers: [], textAnswer: null };
    expect(normalizeAnswer({ selectedOptionIds: ['a'] })).to.deep.equal({ ...empty, selectedOptionIds: ['a'] });
    expect(normalizeAnswer({ answer: { textAnswer: 'x' } })).to.deep.equal({ ...empty, textAnswer: 'x' });
    expect(
      normalizeAnswer({ answer: { selectedOptionIds: ['a'] }, selectedOptionIds: ['b'], textAnswer: 't' }),
    ).to.deep.equal({
      ...empty,
      selectedOptionIds: ['a'],
      textAnswer: 't',
    });
    expect(normalizeAnswer({ questionId: 'q1', answer: null })).to.deep.equal({ ...empty, questionId: 'q1' });
  });

  it('option ids: one id as a string, the singular name, duplicates dropped in first order', () => {
    expect(normalizeAnswer({ selectedOptionIds: 'a' }).selectedOptionIds).to.deep.equal(['a']);
    expect(normalizeAnswer({ answer: { selectedOptionId: 'c' } }).selectedOptionIds).to.deep.equal(['c']);
    expect(normalizeAnswer({ selectedOptionIds: ['b', 'a', 'b'] }).selectedOptionIds).to.deep.equal(['b', 'a']);
  });

  it('statement answer variants all become { label, value }', () => {
    const variants: unknown[] = [
      CANONICAL,
      [
        { key: 'a', answer: true },
        { statementId: 'b', selected: 'false' },
        { id: 'C', isTrue: null },
      ],
      { a: true, B: false, c: null },
      [true, 'FALSE', null],
      [{ label: ' a ', value: 'true' }, { label: 'B', value: false }, { label: 'c' }],
    ];
    for (const statementAnswers of variants) {
      expect(
        normalizeAnswer({ answer: { statementAnswers } }).statementAnswers,
        JSON.stringify(statementAnswers),
      ).to.deep.equal(CANONICAL);
    }
  });

  it('a number text answer is its decimal text; a text answer is kept as typed', () => {
    expect(normalizeAnswer({ textAnswer: 3.5 }).textAnswer).to.equal('3.5');
    expect(normalizeAnswer({ textAnswer: '  3,5 ' }).textAnswer).to.equal('  3,5 ');
  });

  const MALFORMED: Array<[string, unknown, string]> = [
    ['a null body', null, ''],
    ['an array body', [], ''],
    ['answer as a string', { answer: 'a' }, 'answer'],
    ['ids as a number', { selectedOptionIds: 1 }, 'selectedOptionIds'],
    ['an empty id', { answer: { selectedOptionIds: [''] } }, 'answer.selectedOptionIds.0'],
    ['an id of 129 characters', { selectedOptionIds: ['x'.repeat(129)] }, 'selectedOptionIds.0'],
    ['27 ids', { selectedOptionIds: Array.from({ length: 27 }, (_, i) => `o${i}`) }, 'selectedOptionIds'],
    ['statements as a string', { statementAnswers: 'A' }, 'statementAnswers'],
    ['a statement without a label', { statementAnswers: [{ value: true }] }, 'statementAnswers.0'],
    ['a statement value 1', { statementAnswers: [{ label: 'A', value: 1 }] }, 'statementAnswers.0'],
    ['a statement twice', { statementAnswers: { a: true, A: false } }, 'statementAnswers.1'],
    ['a ninth positional statement', { statementAnswers: Array.from({ length: 9 }, () => true) }, 'statementAnswers.8'],
    ['text as an object', { textAnswer: {} }, 'textAnswer'],
    ['text of 1001 characters', { answer: { textAnswer: 'é'.repeat(1001) } }, 'answer.textAnswer'],
    ['text as Infinity', { textAnswer: Infinity }, 'textAnswer'],
  ];
  for (const [name, body, path] of MALFORMED) {
    it(`rejects ${name} with a 400 naming ${path || 'the body'}`, () => {
      const err = rejection(body);
      expect(err.code).to.equal('VALIDATION_ERROR');
      expect((err.details as Array<{ path: string }>).map((d) => d.path)).to.include(path);
    });
  }

  it('1000 characters (counted as characters, not UTF-16 units) are accepted', () => {
    expect(normalizeAnswer({ textAnswer: '😀'.repeat(1000) }).textAnswer).to.have.length(2000);
  });

  it('names every malformed field at once', () => {
    const err = rejection({ selectedOptionIds: 1, textAnswer: [] });
    expect((err.details as Array<{ path: string }>).map((d) => d.path)).to.deep.equal([
      'selectedOptionIds',
      'textAnswer',
    ]);
  });

  it('checkAnswerFits: unknown option ids and statement labels are rejected', () => {
    const q = choice(['a']);
    expect(() => checkAnswerFits(q, normalizeAnswer({ selectedOptionIds: ['a', 'd'] }))).to.not.throw();
    expect(() => checkAnswerFits(q, normalizeAnswer({ selectedOptionIds: ['z'] }))).to.throw(
      AnswerFormatError,
      /option z/,
    );
    const g = statements([true, true, true, true]);
    expect(() => checkAnswerFits(g, normalizeAnswer({ statementAnswers: { d: true } }))).to.not.throw();
    expect(() => checkAnswerFits(g, normalizeAnswer({ statementAnswers: { e: true } }))).to.throw(
      AnswerFormatError,
      /statement E/,
    );
    expect(() => checkAnswerFits(g, normalizeAnswer({ selectedOptionIds: ['a'] }))).to.throw(AnswerFormatError);
  });
});
