import { expect } from 'chai';
import { outcomeOf, ruleFilter, selectIds, totals, type CandidateSource } from '../src/domain/blueprint/plan.js';
import { hash53, pickSeeded, seededOrder, seedText } from '../src/domain/blueprint/shuffle.js';
import { answerKeysOf, scoringRuleOf, snapshotOf } from '../src/domain/blueprint/snapshot.js';
import { blueprintBody } from '../src/schemas/blueprint.js';
import type { QuestionRow, QuestionVersionRow } from '../src/store/question-models.js';

const ids = (n: number, prefix = 'q') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('blueprint: seeded order (pure)', () => {
  it('hash53 is deterministic, within 53 bits, and different for different inputs', () => {
    expect(hash53('seed\u0000q-1')).to.equal(hash53('seed\u0000q-1'));
    const values = new Set(ids(1000).map((id) => hash53(id)));
    expect(values.size).to.equal(1000);
    for (const v of values) expect(Number.isSafeInteger(v) && v >= 0).to.equal(true);
  });

  it('is a permutation; the same seed gives the same order, another seed another order', () => {
    const all = ids(50);
    const a = seededOrder('exam-1', all);
    expect([...a].sort()).to.deep.equal([...all].sort());
    expect(seededOrder('exam-1', [...all].reverse())).to.deep.equal(a);
    expect(seededOrder('exam-2', all)).to.not.deep.equal(a);
    expect(a).to.not.deep.equal(all);
  });

  it('the integer seed 7 and the string "7" are the same seed', () => {
    expect(seedText(7)).to.equal(seedText('7'));
  });

  it('adding unrelated questions keeps the relative order of the others', () => {
    const before = seededOrder('s', ids(200));
    const after = seededOrder('s', [...ids(200), ...ids(300, 'new')]);
    expect(after.filter((id) => !id.startsWith('new'))).to.deep.equal(before);
    // A pick of 10 changes only where a new question ranks inside it.
    const pickBefore = pickSeeded('s', ids(200), 10);
    const pickAfter = pickSeeded('s', [...ids(200), ...ids(300, 'new')], 10);
    expect(pickAfter.filter((id) => !id.startsWith('new'))).to.deep.equal(
      pickBefore.slice(0, pickAfter.filter((id) => !id.startsWith('new')).length),
    );
  });

  it('spreads first places evenly over 2,000 seeds (each of 10 ids first 100 to 300 times)', () => {
    const first = new Map<string, number>();
    for (let s = 0; s < 2000; s += 1) {
      const top = seededOrder(`seed-${s}`, ids(10))[0]!;
      first.set(top, (first.get(top) ?? 0) + 1);
    }
    expect(first.size).to.equal(10);
    for (const n of first.values()) expect(n).to.be.within(100, 300);
  });
});

describe('blueprint: rule planning (pure)', () => {
  const scope = { organizationId: 'org-a', ownerId: 't1' };

  it('filters: scope, PUBLISHED only, every field, one-or-many type and difficulty, exclusions', () => {
    const f = ruleFilter(
      scope,
      { count: 3, chapterId: 'c1', topicId: 't', curriculumId: 'cu', questionSourceId: 'qs', types: ['ESSAY'] },
      new Set(['x']),
    );
    expect(f).to.deep.equal({
      removedAt: null,
      organizationId: 'org-a',
      createdById: 't1',
      status: 'PUBLISHED',
      chapterId: 'c1',
      topicId: 't',
      curriculumId: 'cu',
      questionSourceId: 'qs',
      type: { $in: ['ESSAY'] },
      _id: { $nin: ['x'] },
    });
    const g = ruleFilter({}, { count: 1, difficulty: 'HARD', type: 'ESSAY', gradeLevel: 10 }, new Set());
    expect(g).to.deep.equal({
      removedAt: null,
      status: 'PUBLISHED',
      difficulty: 'HARD',
      type: 'ESSAY',
      gradeLevel: 10,
    });
  });

  it('requireGrouped: true takes grouped questions only, false standalone only', () => {
    expect(ruleFilter({}, { count: 1, requireGrouped: true }, new Set()).groupId).to.deep.equal({ $ne: null });
    expect(ruleFilter({}, { count: 1, requireGrouped: false }, new Set()).groupId).to.equal(null);
    expect(ruleFilter({}, { count: 1 }, new Set())).to.not.have.property('groupId');
  });

  // A store stand-in over plain data: the ids in bank order, honouring $nin and the limit.
  const bank =
    (all: string[], calls: Array<number | null> = []): CandidateSource =>
    async (filter, limit) => {
      calls.push(limit);
      const nin = new Set(((filter._id as { $nin?: string[] } | undefined)?.$nin ?? []) as string[]);
      const rows = all.filter((id) => !nin.has(id));
      return limit === null ? rows : rows.slice(0, limit);
    };

  it('rules in order: no question twice, earlier rules win, exclusions honoured, shortfall counted', async () => {
    const calls: Array<number | null> = [];
    const req = {
      rules: [{ count: 2 }, { count: 2, excludeQuestionIds: ['q-2'] }, { count: 5 }],
      excludeQuestionIds: ['q-0'],
    };
    const out = await selectIds({}, req, null, bank(ids(7), calls));
    expect(out.map((o) => o.questionIds)).to.deep.equal([
      ['q-1', 'q-2'],
      ['q-3', 'q-4'],
      ['q-5', 'q-6'],
    ]);
    expect(out[2]).to.include({ requested: 5, selected: 2, shortfall: 3 });
    expect(calls).to.deep.equal([2, 2, 5]);
    expect(totals(out)).to.deep.equal({ complete: false, requested: 9, selected: 6, shortfall: 3 });
  });

  it('with a seed: every candidate is ranked, picks follow the seed and never repeat', async () => {
    const calls: Array<number | null> = [];
    const out = await selectIds({}, { rules: [{ count: 3 }, { count: 3 }] }, 'abc', bank(ids(20), calls));
    expect(calls).to.deep.equal([null, null]);
    const order = seededOrder('abc', ids(20));
    expect(out[0]!.questionIds).to.deep.equal(order.slice(0, 3));
    expect(out[1]!.questionIds).to.deep.equal(order.slice(3, 6));
  });

  it('outcomeOf and totals of a complete selection', () => {
    expect(outcomeOf(0, 2, ['a', 'b'])).to.deep.equal({
      index: 0,
      requested: 2,
      selected: 2,
      shortfall: 0,
      questionIds: ['a', 'b'],
    });
    expect(totals([outcomeOf(0, 2, ['a', 'b'])]).complete).to.equal(true);
  });
});

describe('blueprint: request limits (pure joi)', () => {
  const bad = (body: unknown) => blueprintBody.validate(body).error !== undefined;
  it('accepts a valid request and refuses over-limit or ambiguous ones', () => {
    expect(bad({ rules: [{ count: 1, types: ['ESSAY'], difficulty: 'HARD' }], randomSeed: 5 })).to.equal(false);
    expect(bad({ rules: [] })).to.equal(true);
    expect(bad({ rules: [{ count: 0 }] })).to.equal(true);
    expect(bad({ rules: [{ count: '5' }] })).to.equal(true);
    expect(bad({ rules: [{ count: 51 }] })).to.equal(true);
    expect(bad({ rules: Array.from({ length: 20 }, () => ({ count: 50 })) })).to.equal(false);
    expect(bad({ rules: Array.from({ length: 21 }, () => ({ count: 1 })) })).to.equal(true);
    expect(bad({ rules: [{ count: 1, type: 'ESSAY', types: ['ESSAY'] }] })).to.equal(true);
    expect(bad({ rules: [{ count: 1, requireGrouped: 'true' }] })).to.equal(true);
    expect(bad({ rules: [{ count: 1 }], randomSeed: '' })).to.equal(true);
    expect(bad({ rules: [{ count: 1 }], randomSeed: 'x'.repeat(201) })).to.equal(true);
    expect(bad({ rules: [{ count: 1 }], randomSeed: '😀'.repeat(200) })).to.equal(false);
    expect(bad({ rules: [{ count: 1, colour: 'red' }] })).to.equal(true);
  });
});

describe('blueprint: snapshots (pure)', () => {
  const options = [
    { id: 'o1', label: 'A', content: '1', isCorrect: false },
    { id: 'o2', label: 'B', content: '2', isCorrect: true },
  ];

  it('answer keys: stored keys kept, completed from options when they name no option', () => {
    expect(answerKeysOf({ answerKeys: null, options })).to.deep.equal({
      correctOptionIds: ['o2'],
      correctLabels: ['B'],
    });
    expect(answerKeysOf({ answerKeys: { acceptedAnswers: ['2'] }, options: [] })).to.deep.equal({
      acceptedAnswers: ['2'],
    });
    const stored = { correctOptionIds: ['o1'], correctLabels: ['A'] };
    expect(answerKeysOf({ answerKeys: stored, options })).to.deep.equal(stored);
  });

  it('scoring rule: stored wins; the ladder for TRUE_FALSE_GROUP, EXACT otherwise, when none', () => {
    expect(scoringRuleOf('TRUE_FALSE_GROUP', null)).to.deep.equal({
      rule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 },
      defaulted: true,
    });
    expect(scoringRuleOf('SINGLE_CHOICE', undefined).rule.mode).to.equal('EXACT');
    expect(scoringRuleOf('ESSAY', { mode: 'PARTIAL', maxScore: 2 })).to.deep.equal({
      rule: { mode: 'PARTIAL', maxScore: 2 },
      defaulted: false,
    });
  });

  it('is taken from the version, by value: changing the sources afterwards changes nothing', () => {
    const row = {
      _id: 'q1',
      currentVersionId: 'v2',
      versionNumber: 2,
      type: 'SINGLE_CHOICE',
      options: [],
      tags: ['t'],
    } as unknown as QuestionRow;
    const version = {
      _id: 'v2',
      versionNumber: 2,
      content: 'v2 text',
      options: structuredClone(options),
      mediaRefs: [{ id: 'm' }],
    } as unknown as QuestionVersionRow;
    const group = { id: 'g', title: 'T', contentText: 'P', contentJson: null, mediaJson: null };
    const snap = snapshotOf(row, version, group);
    expect(snap).to.include({ questionId: 'q1', questionVersionId: 'v2', content: 'v2 text', contentText: 'v2 text' });
    expect(snap.optionOrder).to.deep.equal(['o1', 'o2']);
    expect(snap.options[1]).to.deep.equal({ ...options[1], contentJson: null, order: 1 });
    version.options[1]!.isCorrect = false;
    version.mediaRefs[0]!.id = 'changed';
    group.title = 'changed';
    expect(snap.options[1]!.isCorrect).to.equal(true);
    expect(snap.mediaRefs).to.deep.equal([{ id: 'm' }]);
    expect(snap.group!.title).to.equal('T');
    expect(snap.formulaRefs).to.deep.equal([]);
    expect(snap.subItems).to.equal(null);
  });
});
