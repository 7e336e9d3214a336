import { expect } from 'chai';
import {
  buildPool,
  resolveRef,
  resolveType,
  typePool,
  type StoredRef,
  type TypeDef,
} from '../src/domain/ai-classify/candidates.js';
import { bounded } from '../src/domain/ai-classify/context-row.js';
import { effectiveOverwrite, isUnclassified, targetFields } from '../src/domain/ai-classify/fields.js';
import { HISTORY_LIMIT, withHistory } from '../src/domain/ai-classify/history.js';
import { candidateNodes, questionKeys } from '../src/domain/ai-classify/nodes.js';
import { planApply, type ApplyItem } from '../src/domain/ai-classify/plan.js';
import type { QuestionRow } from '../src/store/question-models.js';

const ORG = 'org-a';
const ref = (over: Partial<StoredRef> & Pick<StoredRef, '_id' | 'kind' | 'code'>): StoredRef => ({
  name: over.code,
  organizationId: ORG,
  status: 'ACTIVE',
  searchText: '',
  updatedAt: new Date(0),
  ...over,
});

function row(over: Partial<QuestionRow> = {}): QuestionRow {
  return {
    _id: 'q1',
    status: 'DRAFT',
    type: 'SINGLE_CHOICE',
    customTypeId: null,
    subjectId: 'math',
    gradeLevel: 12,
    difficulty: 'MEDIUM',
    educationLevelId: null,
    gradeId: null,
    curriculumId: null,
    curriculumNodeId: null,
    examTrackId: null,
    questionSourceId: null,
    difficultyLevelId: null,
    chapterId: null,
    topicId: null,
    sourceMetadataJson: null,
    options: [],
    subItems: null,
    answerKeys: null,
    ...over,
  } as QuestionRow;
}

const stored: StoredRef[] = [
  ref({ _id: 'g10-org', kind: 'GRADE', code: 'G10', name: 'Lớp 10', numericLevel: 10 }),
  ref({ _id: 'g10-global', kind: 'GRADE', code: 'G10', name: 'Grade 10', numericLevel: 10, organizationId: null }),
  ref({ _id: 'g11-global', kind: 'GRADE', code: 'G11', name: 'Lớp 11', numericLevel: 11, organizationId: null }),
  ref({ _id: 'd-hard', kind: 'DIFFICULTY_LEVEL', code: 'VD', name: 'Vận dụng', engineDifficulty: 'HARD' }),
  ref({ _id: 'math-id', kind: 'SUBJECT', code: 'math', name: 'Toán học', organizationId: null }),
];
const pool = buildPool(stored, [{ id: 'track-x', kind: 'EXAM_TRACK', code: 'THPT', name: 'THPT QG' }], ORG);

describe('AI classification rules (pure)', () => {
  describe('resolveRef', () => {
    it('resolves by id, code and folded name, the organization ref before the global one', () => {
      expect(resolveRef(pool, 'GRADE', 'g11-global')?.id).to.equal('g11-global');
      expect(resolveRef(pool, 'GRADE', 'G10')?.id).to.equal('g10-org');
      expect(resolveRef(pool, 'GRADE', 'g10')?.id).to.equal('g10-org');
      expect(resolveRef(pool, 'DIFFICULTY_LEVEL', 'van dung')?.id).to.equal('d-hard');
      expect(resolveRef(pool, 'GRADE', 'Grade 10')?.id).to.equal('g10-global');
      expect(resolveRef(pool, 'GRADE', 'lop 11')?.id, 'global fallback').to.equal('g11-global');
      expect(resolveRef(pool, 'GRADE', 'G12')).to.equal(null);
    });

    it('uses request taxonomy only as extra candidates, never over a stored ref', () => {
      expect(resolveRef(pool, 'EXAM_TRACK', 'thpt qg')).to.include({ id: 'track-x', origin: 'REQUEST' });
      const shadow = buildPool(stored, [{ id: 'g10-org', kind: 'GRADE', code: 'X', name: 'fake' }], ORG);
      expect(resolveRef(shadow, 'GRADE', 'fake')).to.equal(null);
      expect(resolveRef(shadow, 'GRADE', 'g10-org')?.name).to.equal('Lớp 10');
    });
  });

  describe('resolveType', () => {
    const defs: TypeDef[] = [
      { _id: 'ESSAY', code: 'ESSAY', name: 'ESSAY', baseType: 'ESSAY', isSystem: true, organizationId: null },
      { _id: 'org-a:ESSAY', code: 'ESSAY', name: 'ESSAY', baseType: 'ESSAY', isSystem: true, organizationId: ORG },
      {
        _id: 'c1',
        code: 'DIEN_KHUYET',
        name: 'Điền khuyết',
        baseType: 'SHORT_ANSWER',
        isSystem: false,
        organizationId: ORG,
      },
    ];
    it('normalizes a code or name to the definition in scope, global only as fallback', () => {
      const types = typePool(defs, ORG);
      expect(resolveType(types, 'essay')?._id).to.equal('org-a:ESSAY');
      expect(resolveType(types, 'dien khuyet')?._id).to.equal('c1');
      expect(resolveType(types, 'c1')?.baseType).to.equal('SHORT_ANSWER');
      expect(resolveType(typePool(defs, 'org-b'), 'ESSAY')?._id).to.equal('ESSAY');
      expect(resolveType(types, 'nope')).to.equal(null);
    });
  });

  describe('candidateNodes', () => {
    const node = (id: string, links: Partial<StoredRef>) =>
      ref({ _id: id, kind: 'CURRICULUM_NODE', code: id, ...links });
    it('puts subject+grade+curriculum matches first, then subject+grade, and nothing else', () => {
      const nodes = buildPool(
        [
          ...stored,
          ref({ _id: 'cur-1', kind: 'CURRICULUM', code: 'GDPT2018' }),
          node('n-other-cur', { subjectId: 'math', gradeId: 'G10', curriculumId: 'OLD' }),
          node('n-exact', { subjectId: 'math-id', gradeId: 'g10-org', curriculumId: 'GDPT2018' }),
          node('n-other-grade', { subjectId: 'math', gradeId: 'G11', curriculumId: 'cur-1' }),
          node('n-other-subject', { subjectId: 'physics', gradeId: 'G10', curriculumId: 'cur-1' }),
        ],
        [],
        ORG,
      );
      const keys = questionKeys(nodes, row({ gradeId: 'g10-org', curriculumId: 'cur-1' }));
      const out = candidateNodes(
        nodes.filter((n) => n.kind === 'CURRICULUM_NODE'),
        keys,
      );
      expect(out.nodes.map((n) => [n.id, n.match])).to.deep.equal([
        ['n-exact', 'SUBJECT_GRADE_CURRICULUM'],
        ['n-other-cur', 'SUBJECT_GRADE'],
      ]);
    });

    it('places the grade by gradeLevel when gradeId is empty and caps at 160 with the total', () => {
      const many = Array.from({ length: 170 }, (_, i) =>
        node(`n${String(i).padStart(3, '0')}`, { subjectId: 'math', gradeId: i < 5 ? 'G11' : 'G10' }),
      );
      const p = buildPool([...stored, ...many], [], ORG);
      const out = candidateNodes(
        p.filter((n) => n.kind === 'CURRICULUM_NODE'),
        questionKeys(p, row({ gradeLevel: 10 })),
      );
      expect(out.total).to.equal(165);
      expect(out.nodes).to.have.length(160);
      expect(out.nodes.every((n) => n.gradeId === 'G10')).to.equal(true);
    });
  });

  describe('unclassified and overwrite', () => {
    const legacy = { sourceMetadataJson: { difficultySource: 'LEGACY_DETERMINISTIC_SYNC' } };
    const fields = ['gradeId', 'curriculumNodeId', 'difficultyLevelId'] as const;
    it('qualifies a row with a missing required ref or a legacy-synced difficulty', () => {
      const done = { gradeId: 'g', curriculumNodeId: 'n', difficultyLevelId: 'd' };
      expect(isUnclassified(row(done), [...fields])).to.equal(false);
      expect(isUnclassified(row({ ...done, gradeId: null }), [...fields])).to.equal(true);
      expect(isUnclassified(row({ ...done, ...legacy }), [...fields])).to.equal(true);
      expect(isUnclassified(row({ ...done, gradeId: null }), ['subjectId'])).to.equal(false);
    });
    it('targets only missing fields without overwrite, and mode all forces overwrite', () => {
      const r = row({ gradeId: 'g', difficultyLevelId: 'd', ...legacy });
      expect(targetFields(r, [...fields], false)).to.deep.equal(['curriculumNodeId', 'difficultyLevelId']);
      expect(targetFields(r, [...fields], effectiveOverwrite('all', false))).to.deep.equal([...fields]);
      expect(effectiveOverwrite('missing', undefined)).to.equal(false);
    });
  });

  describe('planApply', () => {
    const defs: TypeDef[] = [
      { _id: 'c1', code: 'TU_LUAN', name: 'Tự luận', baseType: 'ESSAY', isSystem: false, organizationId: ORG },
    ];
    const catalog = { pool, types: defs };
    const item = (over: Partial<ApplyItem>): ApplyItem => ({
      questionId: 'q1',
      acceptedFields: [],
      fields: {},
      ...over,
    });
    const opts = { threshold: 0.5, overwrite: false };

    it('derives gradeLevel, difficulty and type, and marks the difficulty as classified', () => {
      const plan = planApply(
        row(),
        item({
          acceptedFields: ['gradeId', 'difficultyLevelId', 'customTypeId'],
          fields: { gradeId: 'Lớp 10', difficultyLevelId: 'VD', customTypeId: 'tu luan' },
        }),
        opts,
        catalog,
      );
      expect(plan.set).to.deep.include({ gradeId: 'g10-org', gradeLevel: 10, difficultyLevelId: 'd-hard' });
      expect(plan.set).to.deep.include({ difficulty: 'HARD', customTypeId: 'c1', type: 'ESSAY' });
      expect(plan.skipped).to.deep.equal([]);
    });

    it('skips unaccepted, low-confidence, unresolved and existing values with their reasons', () => {
      const plan = planApply(
        row({ subjectId: 'math' }),
        item({
          acceptedFields: ['gradeId', 'examTrackId', 'subjectId', 'educationLevelId'],
          confidence: 0.9,
          fields: {
            gradeId: { value: 'G10', confidence: 0.4 },
            examTrackId: 'unknown track',
            subjectId: 'Toán học',
            educationLevelId: undefined,
            difficultyLevelId: 'VD',
          },
        }),
        opts,
        catalog,
      );
      expect(plan.applied).to.deep.equal([]);
      expect(plan.skipped).to.deep.members([
        { field: 'gradeId', reason: 'BELOW_THRESHOLD' },
        { field: 'examTrackId', reason: 'UNRESOLVED' },
        { field: 'subjectId', reason: 'KEPT_EXISTING' },
        { field: 'educationLevelId', reason: 'NO_VALUE' },
        { field: 'difficultyLevelId', reason: 'NOT_ACCEPTED' },
      ]);
    });

    it('lets the custom type decide type, and never breaks a PUBLISHED question', () => {
      const both = item({ acceptedFields: ['type', 'customTypeId'], fields: { type: 'ESSAY', customTypeId: 'c1' } });
      const plan = planApply(row(), both, { threshold: 0, overwrite: true }, catalog);
      expect(plan.skipped).to.deep.equal([{ field: 'type', reason: 'DERIVED_FROM_CUSTOM_TYPE' }]);
      const published = row({ type: 'ESSAY', status: 'PUBLISHED' });
      const toChoice = item({ acceptedFields: ['type'], fields: { type: 'single_choice' } });
      const blocked = planApply(published, toChoice, { threshold: 0, overwrite: true }, catalog);
      expect(blocked.set).to.deep.equal({});
      expect(blocked.skipped).to.deep.equal([{ field: 'type', reason: 'BREAKS_PUBLISHED' }]);
    });
  });

  it('withHistory keeps the last entries and bounded() never splits a character', () => {
    let meta: Record<string, unknown> | null = { fileName: 'a.docx', aiClassification: [{ old: true }] };
    const plan = { set: {}, applied: [], skipped: [] };
    for (let i = 0; i < HISTORY_LIMIT + 3; i += 1) {
      const entry = { at: `t${i}`, actorId: 'u', mode: 'missing' as const, overwrite: false, threshold: 0, ...plan };
      meta = withHistory({ sourceMetadataJson: meta }, plan, entry);
    }
    const history = (meta!.aiClassification as { history: Array<{ at: string }> }).history;
    expect(history).to.have.length(HISTORY_LIMIT);
    expect(history.at(-1)!.at).to.equal(`t${HISTORY_LIMIT + 2}`);
    expect(meta!.fileName).to.equal('a.docx');
    expect(bounded('a😀b', 2, false)).to.deep.equal({ text: 'a😀', truncated: true });
    expect(bounded('a😀b', 2, true)).to.deep.equal({ text: 'a😀b', truncated: false });
  });
});
