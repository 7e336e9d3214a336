import { expect } from 'chai';
import { admin, createAs, headers, startQuestionBank, teacher, type TestQuestionBank, type Who } from './support.js';

const CONTEXT = '/v1/questions/ai-classify/context';

type Row = Record<string, unknown> & {
  questionId: string;
  candidateCurriculumNodes: Array<{ id: string; match: string }>;
  candidateGrades: Array<{ id: string; code: string }>;
  classification: Record<string, unknown>;
};

describe('POST /v1/questions/ai-classify/context', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const post = (who: Who, body: unknown) =>
    svc.request
      .post(CONTEXT)
      .set(headers(who))
      .send(body as object);
  const context = async (who: Who, body: Record<string, unknown>) => {
    const res = await post(who, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as { rows: Row[]; missingIds: string[]; classifiedIds: string[]; overwrite: boolean } & Record<
      string,
      unknown
    >;
  };
  // Issue 20: each row from its own writer: global rows from the platform ADMIN (no
  // X-Organization-Id), another organization's from that organization.
  const writerOf = (who: Who, org: unknown): Who =>
    org === undefined ? who : org === null ? { userId: 'p1', role: 'ADMIN' } : { ...who, organizationId: String(org) };
  const putRefs = async (who: Who, items: Array<Record<string, unknown>>) => {
    for (const org of new Set(items.map((i) => i.organizationId))) {
      const mine = items.filter((i) => i.organizationId === org);
      await svc.request
        .put('/v1/taxonomy/refs')
        .set(headers(writerOf(who, org)))
        .send({ items: mine })
        .expect(200);
    }
  };
  // Curriculum nodes carry their subject, grade and curriculum links as stored read-model fields.
  const seedNodes = (nodes: Array<Record<string, unknown>>) =>
    svc.db.conn.collection('taxonomy_refs').insertMany(
      nodes.map((n) => ({
        kind: 'CURRICULUM_NODE',
        status: 'ACTIVE',
        organizationId: 'org-a',
        name: n._id,
        code: n._id,
        searchText: '',
        ...n,
      })) as never,
    );

  it('returns rows in request order, deduplicated, with missing and foreign ids listed apart', async () => {
    const a = await createAs(svc, teacher(), { content: 'Câu A' });
    const b = await createAs(svc, teacher(), { content: 'Câu B', explanation: 'Vì vậy' });
    const otherTeacher = await createAs(svc, teacher('t2'), { content: 'của t2' });
    const otherOrg = await createAs(svc, teacher('t1', 'org-b'), { content: 'org-b' });
    const data = await context(teacher(), {
      questionIds: [b.id, 'nope', a.id, otherTeacher.id, b.id, otherOrg.id],
    });
    expect(data.rows.map((r) => r.questionId)).to.deep.equal([b.id, a.id]);
    expect(data.missingIds).to.deep.equal(['nope', otherTeacher.id, otherOrg.id]);
    expect(data.rows[0]).to.include({ content: 'Câu B', explanation: 'Vì vậy', truncated: false });
    const asAdmin = await context(admin(), { questionIds: [otherTeacher.id, otherOrg.id] });
    expect(asAdmin.rows.map((r) => r.questionId)).to.deep.equal([otherTeacher.id]);
  });

  it('bounds content and options unless fullText', async () => {
    const long = 'x'.repeat(5000);
    const q = await createAs(svc, teacher(), {
      content: long,
      options: [{ content: 'y'.repeat(600), isCorrect: true }, { content: 'z' }],
    });
    const [cut] = (await context(teacher(), { questionIds: [q.id] })).rows;
    expect((cut!.content as string).length).to.equal(4000);
    expect(cut!.truncated).to.equal(true);
    expect((cut!.options as Array<{ content: string; isCorrect: boolean }>)[0]).to.deep.include({ isCorrect: true });
    expect((cut!.options as Array<{ content: string }>)[0]!.content).to.have.length(500);
    const [full] = (await context(teacher(), { questionIds: [q.id], fullText: true })).rows;
    expect(full!.content).to.equal(long);
    expect(full!.truncated).to.equal(false);
  });

  it('refuses bad input with 400 (26 ids, empty, unknown field or mode, non-boolean flags) and 403 for a student', async () => {
    const ids = Array.from({ length: 26 }, (_, i) => `q${i}`);
    for (const body of [
      { questionIds: ids },
      { questionIds: [] },
      {},
      { questionIds: ['a'], fields: ['colour'] },
      { questionIds: ['a'], mode: 'some' },
      { questionIds: ['a'], overwrite: 'yes' },
      { questionIds: ['a b'] },
      { questionIds: ['a'], taxonomy: [{ id: 'x', kind: 'PLANET', code: 'X', name: 'x' }] },
    ]) {
      const res = await post(teacher(), body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect((await post(teacher(), { questionIds: ids.slice(0, 25) })).status).to.equal(200);
    expect(
      (await post({ userId: 's', role: 'STUDENT', organizationId: 'org-a' }, { questionIds: ['a'] })).status,
    ).to.equal(403);
    expect((await post({ userId: 't1', role: 'TEACHER' }, { questionIds: ['a'] })).status).to.equal(400);
    expect((await svc.request.get(CONTEXT).set(headers(teacher()))).status).to.equal(405);
  });

  it('lists at most 160 nodes: subject+grade+curriculum first, then subject+grade, nothing of another grade', async () => {
    await putRefs(teacher(), [
      { id: 'sub-math', kind: 'SUBJECT', code: 'math', name: 'Toán' },
      { id: 'g10', kind: 'GRADE', code: 'G10', name: 'Lớp 10', numericLevel: 10 },
      { id: 'cur-new', kind: 'CURRICULUM', code: 'GDPT2018', name: 'Chương trình 2018' },
    ]);
    const exact = Array.from({ length: 30 }, (_, i) => ({
      _id: `e${String(i).padStart(3, '0')}`,
      subjectId: 'math',
      gradeId: 'g10',
      curriculumId: 'cur-new',
    }));
    const loose = Array.from({ length: 150 }, (_, i) => ({
      _id: `l${String(i).padStart(3, '0')}`,
      subjectId: 'sub-math',
      gradeId: 'G10',
      curriculumId: i % 2 ? 'old' : null,
    }));
    const noise = [
      { _id: 'other-grade', subjectId: 'math', gradeId: 'G11', curriculumId: 'cur-new' },
      { _id: 'other-subject', subjectId: 'physics', gradeId: 'g10', curriculumId: 'cur-new' },
      { _id: 'inactive', subjectId: 'math', gradeId: 'g10', curriculumId: 'cur-new', status: 'ARCHIVED' },
    ];
    await seedNodes([...loose, ...noise, ...exact]);
    const q = await createAs(svc, teacher(), { content: 'Hàm số', gradeLevel: 10, curriculumId: 'cur-new' });
    const [row] = (await context(teacher(), { questionIds: [q.id] })).rows;
    const nodes = row!.candidateCurriculumNodes;
    expect(nodes).to.have.length(160);
    expect(row!.candidateCurriculumNodesTotal).to.equal(180);
    expect(nodes.slice(0, 30).every((n) => n.match === 'SUBJECT_GRADE_CURRICULUM' && n.id.startsWith('e'))).to.equal(
      true,
    );
    expect(nodes.slice(30).every((n) => n.match === 'SUBJECT_GRADE' && n.id.startsWith('l'))).to.equal(true);
    expect(nodes.map((n) => n.id)).to.not.include.members(['other-grade', 'other-subject', 'inactive']);
  });

  it('takes candidates from organization refs with global fallback; request taxonomy only adds', async () => {
    await putRefs(admin(), [
      { id: 'g10-global', kind: 'GRADE', code: 'G10', name: 'Grade 10', numericLevel: 10, organizationId: null },
      { id: 'g11-global', kind: 'GRADE', code: 'G11', name: 'Grade 11', numericLevel: 11, organizationId: null },
      { id: 'g12-b', kind: 'GRADE', code: 'G12', name: 'Lớp 12', numericLevel: 12, organizationId: 'org-b' },
      { id: 'd-global', kind: 'DIFFICULTY_LEVEL', code: 'NB', name: 'Nhận biết', organizationId: null },
    ]);
    await putRefs(teacher(), [{ id: 'g10-org', kind: 'GRADE', code: 'G10', name: 'Lớp 10', numericLevel: 10 }]);
    const q = await createAs(svc, teacher(), { content: 'x', gradeLevel: 11 });
    const data = await context(teacher(), {
      questionIds: [q.id],
      taxonomy: [
        { id: 'n-extra', kind: 'CURRICULUM_NODE', code: 'N1', name: 'Extra', subjectId: 'math', gradeId: 'G11' },
        { id: 'g10-org', kind: 'GRADE', code: 'HACK', name: 'Hack', numericLevel: 99 },
      ],
    });
    const [row] = data.rows;
    expect(row!.candidateGrades.map((g) => g.id)).to.deep.equal(['g10-org', 'g11-global']);
    expect(row!.candidateCurriculumNodes.map((n) => n.id)).to.deep.equal(['n-extra']);
    const candidates = data.candidates as {
      difficultyLevels: Array<{ id: string }>;
      questionTypes: Array<{ code: string }>;
    };
    expect(candidates.difficultyLevels.map((d) => d.id)).to.deep.equal(['d-global']);
    expect(candidates.questionTypes.map((t) => t.code)).to.include.members(['SINGLE_CHOICE', 'ESSAY']);
  });

  it('onlyUnclassified keeps rows missing required refs or with a legacy difficulty, which it empties', async () => {
    const done = { gradeId: 'g', curriculumNodeId: 'n', difficultyLevelId: 'd' };
    const classified = await createAs(svc, teacher(), { content: 'done', ...done });
    const missing = await createAs(svc, teacher(), { content: 'missing', ...done, curriculumNodeId: null });
    const legacy = await createAs(svc, teacher(), {
      content: 'legacy',
      ...done,
      sourceMetadataJson: { difficultySource: 'LEGACY_DETERMINISTIC_SYNC' },
    });
    const data = await context(teacher(), {
      questionIds: [legacy.id, classified.id, missing.id],
      onlyUnclassified: true,
    });
    expect(data.rows.map((r) => r.questionId)).to.deep.equal([legacy.id, missing.id]);
    expect(data.classifiedIds).to.deep.equal([classified.id]);
    expect(data.rows[0]).to.include({ needsDifficultyReclassification: true });
    expect(data.rows[0]!.classification.difficultyLevelId).to.equal(null);
    expect(data.rows[1]).to.include({ needsDifficultyReclassification: false });
    expect(data.rows[1]!.missingFields).to.include('curriculumNodeId');
    const all = await context(teacher(), { questionIds: [classified.id, missing.id] });
    expect(all.rows).to.have.length(2);
  });

  it('mode all forces overwrite: every requested field is a target', async () => {
    const q = await createAs(svc, teacher(), { content: 'x', gradeId: 'g' });
    const fields = ['gradeId', 'difficultyLevelId'];
    const missing = await context(teacher(), { questionIds: [q.id], fields, overwrite: false });
    expect(missing.overwrite).to.equal(false);
    expect(missing.rows[0]!.targetFields).to.deep.equal(['difficultyLevelId']);
    const all = await context(teacher(), { questionIds: [q.id], fields, mode: 'all', overwrite: false });
    expect(all.overwrite).to.equal(true);
    expect(all.rows[0]!.targetFields).to.deep.equal(fields);
  });
});
