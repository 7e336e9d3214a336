import { expect } from 'chai';
import { HISTORY_LIMIT } from '../src/domain/ai-classify/history.js';
import {
  admin,
  choiceBody,
  createAs,
  headers,
  startQuestionBank,
  teacher,
  type TestQuestionBank,
  type Who,
} from './support.js';

const APPLY = '/v1/questions/ai-classify/apply';

type Item = {
  questionId: string;
  status: string;
  applied: Array<{ field: string; value: string; previous: string | null }>;
  derived: Record<string, unknown>;
  skipped: Array<{ field: string; reason: string }>;
};

describe('PATCH /v1/questions/ai-classify/apply', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(async () => {
    await svc.clearCollections();
    const refs: Array<Record<string, unknown>> = [
      { id: 'sub-phys-global', kind: 'SUBJECT', code: 'physics', name: 'Vật lý', organizationId: null },
      { id: 'g10-global', kind: 'GRADE', code: 'G10', name: 'Grade 10', numericLevel: 10, organizationId: null },
      { id: 'g11-global', kind: 'GRADE', code: 'G11', name: 'Lớp 11', numericLevel: 11, organizationId: null },
      { id: 'g10-org', kind: 'GRADE', code: 'G10', name: 'Lớp 10', numericLevel: 10 },
      { id: 'd-vd', kind: 'DIFFICULTY_LEVEL', code: 'VD', name: 'Vận dụng', engineDifficulty: 'HARD' },
      { id: 'cur-1', kind: 'CURRICULUM', code: 'GDPT2018', name: 'Chương trình 2018' },
      { id: 'lvl-thpt', kind: 'EDUCATION_LEVEL', code: 'THPT', name: 'Trung học phổ thông' },
      { id: 'track-1', kind: 'EXAM_TRACK', code: 'TNTHPT', name: 'Tốt nghiệp THPT' },
      { id: 'src-1', kind: 'QUESTION_SOURCE', code: 'SGK', name: 'Sách giáo khoa' },
      { id: 'b-only', kind: 'GRADE', code: 'G9', name: 'Lớp 9', numericLevel: 9, organizationId: 'org-b' },
    ];
    // Issue 20: global rows from the platform ADMIN (no X-Organization-Id), org-b's from org-b.
    for (const org of [undefined, null, 'org-b']) {
      const who = org === undefined ? admin() : org === null ? { userId: 'p1', role: 'ADMIN' } : admin('b1', org);
      const items = refs.filter((r) => r.organizationId === org);
      await svc.request.put('/v1/taxonomy/refs').set(headers(who)).send({ items }).expect(200);
    }
    await svc.db.conn.collection('taxonomy_refs').insertOne({
      _id: 'node-1',
      kind: 'CURRICULUM_NODE',
      code: 'HS1',
      name: 'Hàm số',
      organizationId: 'org-a',
      status: 'ACTIVE',
      searchText: '',
    } as never);
  });

  const patch = (who: Who, body: unknown) =>
    svc.request
      .patch(APPLY)
      .set(headers(who))
      .send(body as object);
  const apply = async (who: Who, body: Record<string, unknown>) => {
    const res = await patch(who, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as { items: Item[]; requested: number; updated: number; notFound: number };
  };
  const raw = (id: string) => svc.db.conn.collection('questions').findOne({ _id: id } as never);

  it('resolves id, code or name (organization first, global fallback) and derives gradeLevel, difficulty and type', async () => {
    const q = await createAs(svc, teacher(), { content: 'Con lắc đơn' });
    const custom = await svc.request
      .post('/v1/question-types')
      .set(headers(teacher()))
      .send({ code: 'TU_LUAN_NGAN', name: 'Tự luận ngắn', baseType: 'ESSAY' })
      .expect(201);
    const fields = {
      subjectId: 'vat ly',
      gradeId: 'G10',
      difficultyLevelId: 'Vận dụng',
      curriculumId: 'gdpt2018',
      curriculumNodeId: 'node-1',
      educationLevelId: 'lvl-thpt',
      examTrackId: 'Tốt nghiệp THPT',
      questionSourceId: 'SGK',
      customTypeId: 'tự luận ngắn',
    };
    // subjectId always has a value (the create default), so only overwrite replaces it.
    const data = await apply(teacher(), {
      overwrite: true,
      items: [{ questionId: q.id, acceptedFields: Object.keys(fields), fields }],
    });
    const [item] = data.items;
    expect(item!.status).to.equal('UPDATED');
    expect(item!.skipped).to.deep.equal([]);
    expect(item!.derived).to.deep.equal({ type: 'ESSAY', gradeLevel: 10, difficulty: 'HARD' });
    const detail = (await svc.request.get(`/v1/questions/${q.id}`).set(headers(teacher())).expect(200)).body.data;
    expect(detail).to.include({
      subjectId: 'sub-phys-global',
      gradeId: 'g10-org',
      gradeLevel: 10,
      difficultyLevelId: 'd-vd',
      difficulty: 'HARD',
      curriculumId: 'cur-1',
      curriculumNodeId: 'node-1',
      educationLevelId: 'lvl-thpt',
      examTrackId: 'track-1',
      questionSourceId: 'src-1',
      customTypeId: custom.body.data.id,
      type: 'ESSAY',
    });
    // Metadata only: no version appended, the search event moved on.
    expect(detail.currentVersionId).to.equal(q.currentVersionId);
    const stored = await raw(q.id);
    expect(stored!.searchVersion).to.equal(2);
    expect(stored!.sourceMetadataJson.difficultySource).to.equal('AI_CLASSIFICATION');
    expect(stored!.sourceMetadataJson.aiClassification.history).to.have.length(1);
    expect(await svc.db.conn.collection('question_versions').countDocuments({ questionId: q.id })).to.equal(1);
  });

  it('writes the search event of the classified row', async () => {
    const q = await createAs(svc, teacher(), { content: 'event' });
    await apply(teacher(), { items: [{ questionId: q.id, acceptedFields: ['gradeId'], fields: { gradeId: 'G11' } }] });
    const deadline = Date.now() + 10_000;
    let versions: number[] = [];
    while (Date.now() < deadline) {
      const doc = await svc.db.conn
        .collection('questions')
        .findOne({ _id: q.id } as never, { projection: { _outbox: 1 } });
      const moved = await svc.db.conn.collection('outbox').find({ key: q.id }).toArray();
      const envelopes = [...((doc?._outbox as Array<{ envelope: string }>) ?? []), ...moved];
      versions = envelopes
        .map(
          (e) =>
            (
              JSON.parse(e.envelope as string) as {
                data: { sourceVersion: number; document: { gradeLevel: number; gradeId: string } };
              }
            ).data,
        )
        .filter((d) => d.document.gradeId === 'g11-global' && d.document.gradeLevel === 11)
        .map((d) => d.sourceVersion);
      if (versions.length > 0) break;
      await new Promise((r) => setTimeout(r, 50)); // poll interval, not a settle time
    }
    expect(versions).to.deep.equal([2]);
  });

  it('applies only accepted fields at or above the threshold, and keeps existing values unless overwrite', async () => {
    const q = await createAs(svc, teacher(), { content: 'x', gradeId: 'g11-global', gradeLevel: 11 });
    const item = {
      questionId: q.id,
      acceptedFields: ['gradeId', 'difficultyLevelId', 'examTrackId'],
      confidence: 0.9,
      fields: {
        gradeId: 'G10',
        difficultyLevelId: { value: 'VD', confidence: 0.3 },
        examTrackId: { value: 'TNTHPT', confidence: 0.8 },
        questionSourceId: 'SGK',
      },
    };
    const [first] = (await apply(teacher(), { items: [item], threshold: 0.5 })).items;
    expect(first!.applied.map((a) => a.field)).to.deep.equal(['examTrackId']);
    expect(first!.skipped).to.deep.members([
      { field: 'gradeId', reason: 'KEPT_EXISTING' },
      { field: 'difficultyLevelId', reason: 'BELOW_THRESHOLD' },
      { field: 'questionSourceId', reason: 'NOT_ACCEPTED' },
    ]);
    expect(await raw(q.id)).to.include({ gradeId: 'g11-global', difficultyLevelId: null, questionSourceId: null });
    const [forced] = (await apply(teacher(), { items: [item], threshold: 0.5, mode: 'all', overwrite: false })).items;
    expect(forced!.applied).to.deep.equal([
      { field: 'gradeId', value: 'g10-org', previous: 'g11-global', confidence: 0.9 },
    ]);
    expect(forced!.skipped).to.deep.include({ field: 'examTrackId', reason: 'UNCHANGED' });
    expect(await raw(q.id)).to.include({ gradeId: 'g10-org', gradeLevel: 10 });
  });

  it('treats a legacy-synced difficulty as missing and replaces it without overwrite', async () => {
    const q = await createAs(svc, teacher(), {
      content: 'legacy',
      difficultyLevelId: 'd-vd',
      sourceMetadataJson: { difficultySource: 'LEGACY_DETERMINISTIC_SYNC', fileName: 'de.docx' },
    });
    const [item] = (
      await apply(teacher(), {
        items: [{ questionId: q.id, acceptedFields: ['difficultyLevelId'], fields: { difficultyLevelId: 'VD' } }],
      })
    ).items;
    expect(item!.applied).to.deep.equal([
      { field: 'difficultyLevelId', value: 'd-vd', previous: null, confidence: null },
    ]);
    const meta = (await raw(q.id))!.sourceMetadataJson;
    expect(meta).to.include({ difficultySource: 'AI_CLASSIFICATION', fileName: 'de.docx' });
  });

  it("skips unresolved values, another organization's refs, and out-of-scope questions", async () => {
    const mine = await createAs(svc, teacher(), { content: 'mine' });
    const other = await createAs(svc, teacher('t2'), { content: 'other' });
    const data = await apply(teacher(), {
      overwrite: true,
      items: [
        { questionId: mine.id, acceptedFields: ['gradeId', 'type'], fields: { gradeId: 'b-only', type: 'POEM' } },
        { questionId: other.id, acceptedFields: ['gradeId'], fields: { gradeId: 'G10' } },
        { questionId: 'ghost', acceptedFields: ['gradeId'], fields: { gradeId: 'G10' } },
      ],
    });
    expect(data).to.include({ requested: 3, updated: 0, notFound: 2 });
    expect(data.items.map((i) => [i.questionId, i.status])).to.deep.equal([
      [mine.id, 'UNCHANGED'],
      [other.id, 'NOT_FOUND'],
      ['ghost', 'NOT_FOUND'],
    ]);
    expect(data.items[0]!.skipped).to.deep.equal([
      { field: 'type', reason: 'UNRESOLVED' },
      { field: 'gradeId', reason: 'UNRESOLVED' },
    ]);
    expect((await raw(other.id))!.searchVersion).to.equal(1);
    expect((await raw(mine.id))!.sourceMetadataJson).to.equal(null);
  });

  it('never changes a PUBLISHED question into a type it breaks', async () => {
    const q = await createAs(svc, teacher(), { content: 'Tự luận', type: 'ESSAY', status: 'PUBLISHED' });
    const ok = await createAs(svc, teacher(), choiceBody({ status: 'PUBLISHED' }));
    const data = await apply(teacher(), {
      mode: 'all',
      items: [
        { questionId: q.id, acceptedFields: ['type'], fields: { type: 'SINGLE_CHOICE' } },
        { questionId: ok.id, acceptedFields: ['type'], fields: { type: 'multiple_choice' } },
      ],
    });
    expect(data.items[0]!.skipped).to.deep.equal([{ field: 'type', reason: 'BREAKS_PUBLISHED' }]);
    expect((await raw(q.id))!.type).to.equal('ESSAY');
    expect((await raw(ok.id))!.type).to.equal('MULTIPLE_CHOICE');
  });

  it(`keeps the last ${HISTORY_LIMIT} history entries`, async () => {
    const q = await createAs(svc, teacher(), { content: 'history' });
    const grades = ['G10', 'G11'];
    for (let i = 0; i < HISTORY_LIMIT + 2; i += 1) {
      const body = {
        mode: 'all',
        items: [{ questionId: q.id, acceptedFields: ['gradeId'], fields: { gradeId: grades[i % 2] } }],
      };
      expect((await apply(teacher(), body)).updated).to.equal(1);
    }
    const history = (await raw(q.id))!.sourceMetadataJson.aiClassification.history as Array<{
      applied: Array<{ value: string }>;
      actorId: string;
    }>;
    expect(history).to.have.length(HISTORY_LIMIT);
    expect(history.at(-1)!.applied[0]!.value).to.equal('g11-global');
    expect(history.at(-1)!.actorId).to.equal('t1');
  });

  it('classifies a question named twice in order, the second item on top of the first', async () => {
    const q = await createAs(svc, teacher(), { content: 'twice' });
    const data = await apply(teacher(), {
      items: [
        { questionId: q.id, acceptedFields: ['gradeId'], fields: { gradeId: 'G10' } },
        {
          questionId: q.id,
          acceptedFields: ['gradeId', 'difficultyLevelId'],
          fields: { gradeId: 'G11', difficultyLevelId: 'VD' },
        },
      ],
    });
    expect(data.items.map((i) => i.status)).to.deep.equal(['UPDATED', 'UPDATED']);
    expect(data.items[1]!.skipped).to.deep.equal([{ field: 'gradeId', reason: 'KEPT_EXISTING' }]);
    expect(await raw(q.id)).to.include({ gradeId: 'g10-org', difficultyLevelId: 'd-vd', searchVersion: 3 });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const q = await createAs(svc, teacher(), { content: 'x' });
    const item = { questionId: q.id, acceptedFields: ['gradeId'], fields: { gradeId: 'G10' } };
    const many = Array.from({ length: 26 }, (_, i) => ({ ...item, questionId: `q${i}` }));
    for (const body of [
      { items: [] },
      { items: many },
      { items: [{ ...item, fields: { colour: 'red' } }] },
      { items: [{ ...item, acceptedFields: ['colour'] }] },
      { items: [{ ...item, fields: { gradeId: { value: 'G10', confidence: 2 } } }] },
      { items: [{ ...item, fields: { gradeId: '' } }] },
      { items: [{ questionId: q.id, fields: {} }] },
      { items: [item], threshold: '0.5' },
      { items: [item], threshold: -1 },
      { items: [item], mode: 'some' },
    ]) {
      const res = await patch(teacher(), body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect((await patch({ userId: 's', role: 'STUDENT', organizationId: 'org-a' }, { items: [item] })).status).to.equal(
      403,
    );
    expect((await raw(q.id))!.searchVersion).to.equal(1);
  });
});
