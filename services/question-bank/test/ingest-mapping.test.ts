import { expect } from 'chai';
import {
  answerLabels,
  answerPart,
  booleanMap,
  booleanWord,
  parseCompactBooleans,
  scoringRuleOf,
} from '../src/domain/ingest/answers.js';
import { formulaRefsOf, mediaRefsOf, richDocOf } from '../src/domain/ingest/content.js';
import { groupingOf, passageGroups, withUniqueGroups } from '../src/domain/ingest/groups.js';
import { derivedId } from '../src/domain/ingest/ids.js';
import { digestOf, idempotencyKeyOf, identitiesOf, resolveExisting } from '../src/domain/ingest/identity.js';
import { buildRows, planIds } from '../src/domain/ingest/plan.js';
import { coreTypeOf, decideType, LEGACY_TYPE_MAP } from '../src/domain/ingest/type-map.js';
import type { IngestGroup, IngestInput, IngestQuestion } from '../src/domain/ingest/types.js';
import { CORE_TYPES } from '../src/store/question-models.js';

const q = (over: Partial<IngestQuestion> = {}): IngestQuestion => ({ id: 'q1', content: 'Câu hỏi', ...over });
const doc = (questions: IngestQuestion[], over: Partial<IngestInput> = {}): IngestInput => ({
  document_id: 'doc-1',
  latency_ms: 12,
  questions,
  warnings: [],
  stats: { total_questions: questions.length },
  ...over,
});

describe('ingest mapping: types', () => {
  it('maps every legacy and preset code to a core type, spelling-insensitive', () => {
    expect(coreTypeOf('DGNL_SINGLE_CHOICE')).to.equal('SINGLE_CHOICE');
    expect(coreTypeOf('dgnl single-choice')).to.equal('SINGLE_CHOICE');
    expect(coreTypeOf('Đúng sai')).to.equal('TRUE_FALSE_GROUP');
    expect(coreTypeOf('tự luận')).to.equal('ESSAY');
    expect(coreTypeOf('fill-in-blank')).to.equal('SHORT_ANSWER');
    expect(coreTypeOf('NO_SUCH_TYPE')).to.equal(undefined);
    for (const t of CORE_TYPES) expect(coreTypeOf(t), t).to.equal(t);
    expect(new Set(LEGACY_TYPE_MAP.values())).to.have.property('size', CORE_TYPES.length);
  });

  it('takes type, then preset_code, then template_code; an unknown code falls back to the shape', () => {
    expect(decideType(q({ type: 'WHATEVER', preset_code: 'TF_GROUP' }))).to.deep.equal({
      type: 'TRUE_FALSE_GROUP',
      sourceCode: 'TF_GROUP',
      inferred: false,
    });
    expect(decideType(q({ template_code: 'MCQ_MULTI' })).type).to.equal('MULTIPLE_CHOICE');
    const opts = [
      { label: 'A', content: '1' },
      { label: 'B', content: '2' },
    ];
    expect(decideType(q({ type: 'X', options: opts, correct_answer: ['A', 'B'] }))).to.include({
      type: 'MULTIPLE_CHOICE',
      inferred: true,
      sourceCode: 'X',
    });
    expect(decideType(q({ options: opts, correct_answer: 'A' })).type).to.equal('SINGLE_CHOICE');
    expect(decideType(q({ sub_items: [{ label: 'a', content: 's' }] })).type).to.equal('TRUE_FALSE_GROUP');
    expect(decideType(q({ correct_answer_numeric: 2.5 })).type).to.equal('SHORT_NUMERIC_ANSWER');
    expect(decideType(q({ correct_answer: 'Hà Nội' })).type).to.equal('SHORT_ANSWER');
    expect(decideType(q()).type).to.equal('ESSAY');
  });
});

describe('ingest mapping: answers', () => {
  it('reads Vietnamese and English true/false words and the compact a:Đúng;b:Sai form', () => {
    expect([
      booleanWord('Đúng'),
      booleanWord('đ'),
      booleanWord('Sai'),
      booleanWord('S'),
      booleanWord('maybe'),
    ]).to.deep.equal([true, true, false, false, null]);
    const map = parseCompactBooleans('a:Đúng;b:Sai;c:Đúng;d:Sai');
    expect(Object.fromEntries(map!)).to.deep.equal({ A: true, B: false, C: true, D: false });
    expect(Object.fromEntries(parseCompactBooleans('a) Đ, b=S')!)).to.deep.equal({ A: true, B: false });
    expect(parseCompactBooleans('a:perhaps;b:Sai')).to.equal(null);
    expect(parseCompactBooleans('B')).to.equal(null);
    expect(Object.fromEntries(booleanMap({ a: true, b: 'Sai', z: true } as never)!)).to.deep.equal({
      A: true,
      B: false,
    });
  });

  it('reads answer labels from B, "A, C", AC and arrays', () => {
    expect(answerLabels('B')).to.deep.equal(['B']);
    expect(answerLabels('A, C')).to.deep.equal(['A', 'C']);
    expect(answerLabels('AC')).to.deep.equal(['A', 'C']);
    expect(answerLabels(['a', 'D'])).to.deep.equal(['A', 'D']);
    expect(answerLabels(null)).to.deep.equal([]);
  });

  it('marks choice options from the answer with stable derived ids and answer keys', () => {
    const opts = ['A', 'B', 'C', 'D'].map((label) => ({ label, content: `x = ${label}` }));
    const part = answerPart(q({ options: opts, correct_answer: 'C' }), 'SINGLE_CHOICE', 'v1');
    expect(part.options.map((o) => o.isCorrect)).to.deep.equal([false, false, true, false]);
    expect(part.answerKeys).to.deep.equal({ correctOptionIds: [part.options[2]!.id], correctLabels: ['C'] });
    expect(answerPart(q({ options: opts, correct_answer: 'C' }), 'SINGLE_CHOICE', 'v1')).to.deep.equal(part);
    expect(answerPart(q({ options: opts, correct_answer: 'C' }), 'SINGLE_CHOICE', 'v2').options[0]!.id).to.not.equal(
      part.options[0]!.id,
    );
    const bad = answerPart(q({ options: opts, correct_answer: 'F' }), 'SINGLE_CHOICE', 'v1');
    expect(bad.answerKeys).to.equal(null);
    expect(bad.warnings.map((w) => w.code)).to.deep.equal(['INGEST_ANSWER_UNKNOWN_LABEL']);
  });

  it('gives a lone TRUE_FALSE question Đúng/Sai options when it has none', () => {
    const part = answerPart(q({ correct_answer: 'Sai' }), 'TRUE_FALSE', 'v1');
    expect(part.options.map((o) => [o.label, o.content, o.isCorrect])).to.deep.equal([
      ['A', 'Đúng', false],
      ['B', 'Sai', true],
    ]);
  });

  it('builds TRUE_FALSE_GROUP sub-items A-D from per-item booleans, a boolean map or the compact form', () => {
    const items = ['a', 'b', 'c', 'd'].map((label) => ({ label, content: `Mệnh đề ${label}` }));
    const fromMap = answerPart(
      q({ sub_items: items, correct_answer: { a: true, b: false, c: true, d: false } }),
      'TRUE_FALSE_GROUP',
      'v',
    );
    const fromCompact = answerPart(
      q({ sub_items: items, correct_answer: 'a:Đúng;b:Sai;c:Đúng;d:Sai' }),
      'TRUE_FALSE_GROUP',
      'v',
    );
    const expected = [
      { label: 'A', content: 'Mệnh đề a', correctBoolean: true },
      { label: 'B', content: 'Mệnh đề b', correctBoolean: false },
      { label: 'C', content: 'Mệnh đề c', correctBoolean: true },
      { label: 'D', content: 'Mệnh đề d', correctBoolean: false },
    ];
    expect(fromMap.subItems).to.deep.equal(expected);
    expect(fromCompact.subItems).to.deep.equal(expected);
    const own = items.map((s, i) => ({ ...s, correct_boolean: i % 2 === 1 }));
    expect(
      answerPart(q({ sub_items: own, correct_answer: 'a:Đúng' }), 'TRUE_FALSE_GROUP', 'v').subItems!.map(
        (s) => s.correctBoolean,
      ),
    ).to.deep.equal([false, true, false, true]);
    const onlyCompact = answerPart(q({ correct_answer: 'a:Đ;b:S;c:S;d:Đ' }), 'TRUE_FALSE_GROUP', 'v');
    expect(onlyCompact.subItems!.map((s) => [s.label, s.correctBoolean])).to.deep.equal([
      ['A', true],
      ['B', false],
      ['C', false],
      ['D', true],
    ]);
  });

  it('keeps unanswered statements as null with a warning and statements past D in metadata only', () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label, content: label }));
    const part = answerPart(
      q({ sub_items: items, correct_answer: 'a:Đúng;b:Sai;c:Đúng;e:Sai' }),
      'TRUE_FALSE_GROUP',
      'v',
    );
    expect(part.subItems!.map((s) => s.correctBoolean)).to.deep.equal([true, false, true, null]);
    expect(part.extraSubItems).to.deep.equal([{ label: 'E', content: 'e', correctBoolean: false }]);
    expect(part.warnings.map((w) => w.code)).to.deep.equal([
      'INGEST_SUB_ITEM_ANSWER_MISSING',
      'INGEST_SUB_ITEMS_BEYOND_D',
    ]);
  });

  it('accepts short answers as written plus the parsed number when it differs', () => {
    expect(
      answerPart(q({ correct_answer: '-2,5', correct_answer_numeric: -2.5 }), 'SHORT_NUMERIC_ANSWER', 'v').answerKeys,
    ).to.deep.equal({
      acceptedAnswers: ['-2,5'],
    });
    expect(
      answerPart(q({ correct_answer: null, correct_answer_numeric: 3 }), 'SHORT_NUMERIC_ANSWER', 'v').answerKeys,
    ).to.deep.equal({
      acceptedAnswers: ['3'],
    });
    expect(answerPart(q({ correct_answer: [' Hà Nội ', 'Ha Noi'] }), 'SHORT_ANSWER', 'v').answerKeys).to.deep.equal({
      acceptedAnswers: ['Hà Nội', 'Ha Noi'],
    });
    expect(answerPart(q({}), 'ESSAY', 'v').answerKeys).to.equal(null);
  });

  it('scores from points (1 when absent), the THPT ladder for true/false groups', () => {
    expect(scoringRuleOf('TRUE_FALSE_GROUP', null)).to.deep.equal({ mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 });
    expect(scoringRuleOf('SINGLE_CHOICE', 0.25)).to.deep.equal({ mode: 'EXACT', maxScore: 0.25 });
    expect(scoringRuleOf('ESSAY', 2)).to.deep.equal({ mode: 'PARTIAL', maxScore: 2 });
  });
});

describe('ingest mapping: content, media and formulas', () => {
  it('keeps media as references and formulas with LaTeX and HTML in refs and in contentJson', () => {
    const media = mediaRefsOf(
      [
        {
          media_asset_id: 'asset-1',
          url: 'https://docs/x.png',
          object_key: 'k/x.png',
          content_type: 'image/png',
          kind: 'image',
          index: 3,
        },
      ],
      'v',
    );
    expect(media[0]).to.deep.include({
      mediaAssetId: 'asset-1',
      url: 'https://docs/x.png',
      objectKey: 'k/x.png',
      mimeType: 'image/png',
      index: 3,
    });
    const formulas = formulaRefsOf([{ latex: 'x^2', html: '<i>x</i><sup>2</sup>' }], 'v');
    expect(formulas[0]).to.deep.include({ latex: 'x^2', html: '<i>x</i><sup>2</sup>' });
    const json = richDocOf('Tính $x^2$ theo [[media:3]]\ndòng 2', { media, formulas }) as {
      content: Array<{ content: unknown[] }>;
    };
    expect(json.content).to.have.length(2);
    expect(json.content[0]!.content).to.deep.equal([
      { type: 'text', text: 'Tính ' },
      { type: 'math_inline', attrs: { latex: 'x^2', formulaRefId: formulas[0]!.id, html: '<i>x</i><sup>2</sup>' } },
      { type: 'text', text: ' theo ' },
      {
        type: 'image',
        attrs: { mediaRefId: media[0]!.id, index: 3, url: 'https://docs/x.png', mimeType: 'image/png' },
      },
    ]);
  });
});

describe('ingest mapping: groups', () => {
  const groups: IngestGroup[] = [
    { group_id: 'g1', kind: 'PART', parent_group_id: null, title: 'PHẦN I', content: '' },
    { group_id: 'g2', kind: 'PASSAGE', parent_group_id: 'g1', title: 'Đọc đoạn văn', content: 'Đoạn văn...' },
    { group_id: 'g3', kind: 'SECTION', parent_group_id: 'g3', title: 'loop', content: '' },
  ];
  const byId = new Map(groups.map((g) => [g.group_id, g]));

  it('makes rows only for passages and relates a question to its nearest passage', () => {
    expect(passageGroups(doc([q()], { groups })).map((g) => g.group_id)).to.deep.equal(['g2']);
    const rows = new Map([['g2', 'row-2']]);
    expect(groupingOf(byId, rows, 'g2').groupId).to.equal('row-2');
    const inPart = groupingOf(byId, rows, 'g1');
    expect(inPart.groupId).to.equal(null);
    expect(inPart.meta).to.deep.equal({
      sourceGroupId: 'g1',
      path: [{ groupId: 'g1', kind: 'PART', title: 'PHẦN I', part: null }],
    });
    expect(groupingOf(byId, rows, 'g3').meta!.path).to.have.length(1);
    expect(groupingOf(byId, rows, 'unknown')).to.deep.equal({
      groupId: null,
      meta: { sourceGroupId: 'unknown', path: [] },
    });
  });

  it('never lets a group decide the type', () => {
    const input = doc([q({ type: 'SINGLE_CHOICE', group_id: 'g2' })], { groups });
    let n = 0;
    const plan = planIds(input, () => `id-${++n}`);
    const rows = buildRows(input, {
      _id: 'L',
      organizationId: 'o',
      createdById: 'u',
      createdAt: new Date(0),
      plan,
      documentId: 'doc-1',
    });
    expect(rows.questions[0]).to.include({ type: 'SINGLE_CHOICE', groupId: plan.groups[0]!.groupId, status: 'DRAFT' });
  });
});

describe('ingest mapping: rows and identity', () => {
  it('rebuilds byte-identical rows from the same request and ledger (a resume writes the same rows)', () => {
    const input = doc([q({ type: 'SHORT_ANSWER', correct_answer: 'Hà Nội', solution: 'Vì $x$' })], {
      sourceImportJobId: 'job-1',
    });
    let n = 0;
    const plan = planIds(input, () => `id-${++n}`);
    const ledger = {
      _id: 'L',
      organizationId: 'o',
      createdById: 'u',
      createdAt: new Date(5),
      plan,
      documentId: 'doc-1',
    };
    const a = buildRows(input, ledger);
    expect(JSON.stringify(buildRows(input, ledger))).to.equal(JSON.stringify(a));
    expect(a.questions[0]!.sourceMetadataJson).to.include({
      source: 'docx-import',
      sourceImportJobId: 'job-1',
      documentId: 'doc-1',
      ingestId: 'L',
      sourceQuestionId: 'q1',
    });
    expect(a.questions[0]).to.include({ sourceType: 'IMPORTED', status: 'DRAFT', explanation: 'Vì $x$' });
    expect(a.versions[0]).to.include({
      _id: plan.questions[0]!.versionId,
      questionId: plan.questions[0]!.questionId,
      versionNumber: 1,
    });
  });

  it('imports a question that breaks its base type as DRAFT with INGEST_NOT_PUBLISHABLE', () => {
    const input = doc([q({ type: 'SINGLE_CHOICE', options: [{ label: 'A', content: '1' }] })]);
    const plan = planIds(input, () => 'x');
    const rows = buildRows(input, {
      _id: 'L',
      organizationId: 'o',
      createdById: 'u',
      createdAt: new Date(0),
      plan,
      documentId: 'd',
    });
    expect(rows.summaries[0]).to.include({ publishable: false });
    expect(rows.warnings.map((w) => w.code)).to.include('INGEST_NOT_PUBLISHABLE');
  });

  it('trims the Idempotency-Key, refuses one over 120 characters or with control characters', () => {
    expect(idempotencyKeyOf('  k-1 ')).to.equal('k-1');
    expect(idempotencyKeyOf('   ')).to.equal(undefined);
    expect(idempotencyKeyOf(undefined)).to.equal(undefined);
    expect(idempotencyKeyOf('x'.repeat(120))).to.have.length(120);
    expect(() => idempotencyKeyOf('x'.repeat(121))).to.throw('Invalid Idempotency-Key');
    expect(() => idempotencyKeyOf('a\u0001b')).to.throw('Invalid Idempotency-Key');
  });

  it('digests the canonical body: key order and latency_ms do not count, content does', () => {
    const a = doc([q()]);
    const reordered = JSON.parse(
      JSON.stringify({ stats: a.stats, warnings: [], questions: a.questions, latency_ms: 99, document_id: 'doc-1' }),
    );
    expect(digestOf(reordered)).to.equal(digestOf(a));
    expect(digestOf(doc([q({ content: 'khác' })]))).to.not.equal(digestOf(a));
    expect(identitiesOf('k', doc([q()], { sourceImportJobId: 'j' }), 'd')).to.deep.equal(['key:k', 'job:j']);
    expect(identitiesOf(undefined, a, 'd')).to.deep.equal(['digest:d']);
  });

  it('resolves a shared identity: same digest replays, another digest is 409 by key or by job', () => {
    const mine = { identities: ['key:k', 'job:j'], digest: 'd1' };
    const same = { identities: ['key:k0', 'job:j'], digest: 'd1' };
    expect(resolveExisting([same], mine)).to.equal(same);
    expect(
      (resolveExisting([{ identities: ['key:k'], digest: 'd2' }], mine) as Error & { code: string }).code,
    ).to.equal('IDEMPOTENCY_KEY_REUSED');
    expect(
      (resolveExisting([{ identities: ['job:j'], digest: 'd2' }], mine) as Error & { code: string }).code,
    ).to.equal('IMPORT_JOB_CONFLICT');
    expect(resolveExisting([], mine)).to.equal(null);
  });

  it('derives UUID-shaped ids deterministically', () => {
    expect(derivedId('a')).to.equal(derivedId('a'));
    expect(derivedId('a')).to.not.equal(derivedId('b'));
    expect(derivedId('a')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('groups repeating a group_id: the first one counts, the rest of the input is untouched', () => {
    const input = {
      document_id: 'd',
      questions: [],
      groups: [
        { group_id: 'g1', kind: 'PASSAGE', title: 'first' },
        { group_id: 'g2', kind: 'PART' },
        { group_id: 'g1', kind: 'PASSAGE', title: 'second' },
      ],
    } as unknown as IngestInput;
    const once = withUniqueGroups(input);
    expect(once.groups!.map((g) => [g.group_id, g.title ?? null])).to.deep.equal([
      ['g1', 'first'],
      ['g2', null],
    ]);
    const unique = { ...input, groups: once.groups };
    expect(withUniqueGroups(unique)).to.equal(unique);
  });
});
