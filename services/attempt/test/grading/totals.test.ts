import { expect } from 'chai';
import { gradeAttempt, maxScoreOf, normalizeAnswer, type AnswerInput } from '../../src/grading/index.js';
import type { QuestionRow, QuestionVersionRow } from '../../../question-bank/src/store/question-models.js';
import { snapshotOf } from '../../../question-bank/src/domain/blueprint/snapshot.js';
import { choice, short, statements, tf } from './fixtures.js';

const answerFor = (questionId: string, body: unknown): AnswerInput => ({ ...normalizeAnswer(body), questionId });

describe('grading: attempt totals (pure)', () => {
  it('40 × 0.25 is exactly 10', () => {
    const questions = Array.from({ length: 40 }, () => choice(['b'], { score: 0.25 }));
    const g = gradeAttempt(
      questions,
      questions.map((q) => answerFor(q.questionId, { selectedOptionIds: ['b'] })),
    );
    expect(g.totalScore).to.equal(10);
    expect(g.maxScore).to.equal(10);
    expect(g.correctCount).to.equal(40);
  });

  it('sums of tenths do not drift (a float sum would)', () => {
    // 30 ladder groups with one statement right: 30 × 0.1. The naive float sum is not 3.
    let naive = 0;
    for (let i = 0; i < 30; i += 1) naive += 0.1;
    expect(naive).to.not.equal(3);
    const questions = Array.from({ length: 30 }, () => statements([true, true, true, true]));
    const g = gradeAttempt(
      questions,
      questions.map((q) => answerFor(q.questionId, tf([true, false, false, false]))),
    );
    expect(g.totalScore).to.equal(3);
    const tenths = Array.from({ length: 30 }, () => choice(['a'], { score: 0.1 }));
    expect(maxScoreOf(tenths)).to.equal(3);
    expect(gradeAttempt(tenths, []).maxScore).to.equal(3);
    expect(g.answers.every((a) => a.score === 0.1)).to.equal(true);
    // 0.1 + 0.2 is 0.30000000000000004 in doubles; here it is 0.3.
    const mixed = [choice(['a'], { score: 0.1 }), choice(['a'], { score: 0.2 })];
    expect(
      gradeAttempt(
        mixed,
        mixed.map((q) => answerFor(q.questionId, { selectedOptionIds: ['a'] })),
      ).totalScore,
    ).to.equal(0.3);
  });

  it('counts: full marks correct; partial and wrong are wrong; blank and ungraded in neither', () => {
    const qs = [
      choice(['a']), // correct
      statements([true, true, true, true]), // partial (3 right)
      choice(['a']), // wrong
      choice(['a']), // blank (no answer row at all)
      short([], { type: 'ESSAY', answerKeys: null }), // ungraded
    ];
    const answers = [
      answerFor(qs[0]!.questionId, { selectedOptionIds: ['a'] }),
      answerFor(qs[1]!.questionId, tf([true, true, true, false])),
      answerFor(qs[2]!.questionId, { selectedOptionIds: ['b'] }),
      answerFor(qs[4]!.questionId, { textAnswer: 'text' }),
    ];
    const g = gradeAttempt(qs, answers);
    expect(g).to.include({
      totalScore: 1.5,
      maxScore: 5,
      correctCount: 1,
      wrongCount: 2,
      blankCount: 1,
      ungradedCount: 1,
    });
    expect(g.answers.map((a) => a.isCorrect)).to.deep.equal([true, false, false, null, null]);
    expect(g.answers.map((a) => a.questionId)).to.deep.equal(qs.map((q) => q.questionId));
  });

  it('answers are matched by question id when the arrays are not aligned', () => {
    const qs = [choice(['a']), choice(['b'])];
    const g = gradeAttempt(qs, [
      answerFor(qs[1]!.questionId, { selectedOptionIds: ['b'] }),
      answerFor(qs[0]!.questionId, { selectedOptionIds: ['c'] }),
    ]);
    expect(g.answers.map((a) => a.outcome)).to.deep.equal(['WRONG', 'CORRECT']);
  });

  it('a stored answer row (extra fields, statementAnswers unknown[]) is accepted', () => {
    const q = statements([true, false, true, false]);
    const row = {
      questionId: q.questionId,
      selectedOptionIds: [],
      statementAnswers: [
        { label: 'A', value: true },
        { label: 'B', value: false },
      ] as unknown[],
      textAnswer: null,
      clientVersion: 3,
      serverVersion: 4,
      isCorrect: null,
      score: null,
    };
    expect(gradeAttempt([q], [row]).totalScore).to.equal(0.25);
  });

  it("grades the question bank's selection snapshots as they come", () => {
    const base = { _id: '', currentVersionId: 'v1', versionNumber: 1, tags: [], subjectId: 's', gradeLevel: 12 };
    const row = (over: Record<string, unknown>) => ({ ...base, ...over }) as unknown as QuestionRow;
    const none = undefined as QuestionVersionRow | undefined;
    const options = [
      { id: 'o1', label: 'A', content: '1', isCorrect: false },
      { id: 'o2', label: 'B', content: '2', isCorrect: true },
    ];
    const subItems = ['A', 'B', 'C', 'D'].map((label, i) => ({ label, content: label, correctBoolean: i % 2 === 0 }));
    const snaps = [
      snapshotOf(row({ _id: 'sc', type: 'SINGLE_CHOICE', options }), none, null),
      snapshotOf(row({ _id: 'tf', type: 'TRUE_FALSE_GROUP', options: [], subItems }), none, null),
      snapshotOf(
        row({ _id: 'num', type: 'SHORT_NUMERIC_ANSWER', options: [], answerKeys: { acceptedAnswers: ['0,75'] } }),
        none,
        null,
      ),
    ];
    const g = gradeAttempt(snaps, [
      answerFor('sc', { selectedOptionIds: ['o2'] }),
      answerFor('tf', tf([true, false, true, true])),
      answerFor('num', { answer: { textAnswer: '.75' } }),
    ]);
    expect(g.answers.map((a) => a.score)).to.deep.equal([1, 0.5, 1]);
    expect(g).to.include({ totalScore: 2.5, maxScore: 3, correctCount: 2, wrongCount: 1 });
  });
});
