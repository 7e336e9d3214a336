import { expect } from 'chai';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { QuestionBankConfig } from '../src/config.js';
import { hasProjectedUsageOrCloneRefs, hydrateQuestions } from '../src/domain/hydrate.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';

const admin = { 'X-User-Id': 'a1', 'X-User-Role': 'ADMIN', 'X-Organization-Id': 'org-a' };

describe('hydrateQuestions', () => {
  let svc: TestService<QuestionBankConfig, BuiltQuestionBank>;
  const queries: string[] = [];
  before(async () => {
    svc = await startTestService(questionBankService, { file: import.meta.url });
    svc.db.conn.set('debug', (collection: string, method: string) => {
      queries.push(`${collection}.${method}`);
    });
  });
  after(() => svc.close());
  beforeEach(async () => {
    await svc.clearCollections();
    await backfill();
    queries.length = 0;
  });

  async function backfill() {
    const put = (path: string, body: object) => svc.request.put(path).set(admin).send(body).expect(200);
    await put('/v1/taxonomy/refs', {
      items: [
        { id: 'math', kind: 'SUBJECT', code: 'MATH', name: 'Toán' },
        { id: 'g12', kind: 'GRADE', code: 'G12', name: 'Lớp 12', numericLevel: 12 },
      ],
    });
    // Issue 20: a global ref comes from the platform ADMIN (no X-Organization-Id).
    const global = { id: 'ch1', kind: 'CHAPTER', code: 'CH1', name: 'Hàm số', organizationId: null };
    await svc.request
      .put('/v1/taxonomy/refs')
      .set({ 'X-User-Id': 'p1', 'X-User-Role': 'ADMIN' })
      .send({ items: [global] })
      .expect(200);
    await put('/v1/questions/usage-counts', {
      items: [{ questionId: 'q0', examItems: 2, attemptItems: 5, answers: 9 }],
    });
    await put('/v1/questions/relation-refs', {
      users: [{ id: 't1', fullName: 'Nguyễn Văn An', email: 'an@example.edu.vn' }],
      organizations: [{ id: 'org-a', name: 'THPT A', slug: 'thpt-a' }],
    });
  }

  const rowsOf = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      organizationId: 'org-a',
      createdById: i % 2 === 0 ? 't1' : 'ghost',
      subjectId: 'math',
      gradeId: 'g12',
      chapterId: i % 3 === 0 ? 'ch1' : null,
      topicId: 'missing-topic',
      customTypeId: null,
      groupId: null,
      folderId: null,
    }));

  it('adds named refs, _count with zero placeholders, createdBy and organization', async () => {
    const [q0, q1] = await hydrateQuestions(svc.built.deps, rowsOf(2), { view: 'list' });
    expect(q0!.subject).to.include({ id: 'math', code: 'MATH', name: 'Toán' });
    expect(q0!.grade).to.include({ id: 'g12', numericLevel: 12 });
    expect(q0!.chapter).to.include({ name: 'Hàm số' });
    expect(q0!.topic).to.equal(null);
    expect(q0!._count).to.deep.equal({ examItems: 2, attemptItems: 5, answers: 9 });
    expect(q1!._count).to.deep.equal({ examItems: 0, attemptItems: 0, answers: 0 });
    expect(q0!.createdBy).to.deep.equal({ id: 't1', fullName: 'Nguyễn Văn An', email: 'an@example.edu.vn' });
    expect(q1!.createdBy).to.equal(null);
    expect(q0!.organization).to.deep.equal({ id: 'org-a', name: 'THPT A', slug: 'thpt-a' });
    expect(q0!.customType).to.equal(null);
    expect(q0!.id).to.equal('q0');
  });

  it('loads customType, group and folder in the same batch', async () => {
    const t = { 'X-User-Id': 't1', 'X-User-Role': 'TEACHER', 'X-Organization-Id': 'org-a' };
    const type = (
      await svc.request.post('/v1/question-types').set(t).send({ code: 'c1', name: 'C1', baseType: 'ESSAY' })
    ).body.data;
    const group = (await svc.request.post('/v1/question-groups').set(t).send({ title: 'G', contentText: 'passage' }))
      .body.data;
    const folder = (await svc.request.post('/v1/question-folders').set(t).send({ name: 'F' })).body.data;
    const [q] = await hydrateQuestions(
      svc.built.deps,
      [{ ...rowsOf(1)[0]!, customTypeId: type.id, groupId: group.id, folderId: folder.id }],
      { view: 'detail' },
    );
    expect(q!.customType).to.deep.equal({ id: type.id, code: 'C1', name: 'C1', baseType: 'ESSAY', status: 'ACTIVE' });
    expect(q!.group).to.include({ id: group.id, title: 'G', contentText: 'passage' });
    expect(q!.folder).to.deep.equal({ id: folder.id, name: 'F', parentId: null, visibility: 'PRIVATE' });
  });

  it('makes one query per ref kind whatever the page size, never one per row', async () => {
    await hydrateQuestions(svc.built.deps, rowsOf(3), { view: 'list' });
    const small = [...queries].sort();
    queries.length = 0;
    await hydrateQuestions(svc.built.deps, rowsOf(100), { view: 'list' });
    const large = [...queries].sort();
    expect(large).to.deep.equal(small);
    // taxonomy, usage counts, user refs, organization refs; no custom type, group or folder ids, no query.
    expect(large).to.deep.equal([
      'organization_refs.find',
      'taxonomy_refs.find',
      'usage_counts.find',
      'user_refs.find',
    ]);
  });

  it('makes no query for an empty page', async () => {
    expect(await hydrateQuestions(svc.built.deps, [], { view: 'list' })).to.deep.equal([]);
    expect(queries).to.deep.equal([]);
  });
});

describe('hasProjectedUsageOrCloneRefs', () => {
  let svc: TestService<QuestionBankConfig, BuiltQuestionBank>;
  before(async () => (svc = await startTestService(questionBankService, { file: `${import.meta.url}-refs` })));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  it('names questions with usage above zero or a live same-organization clone, and no others', async () => {
    await svc.request
      .put('/v1/questions/usage-counts')
      .set(admin)
      .send({
        items: [
          { questionId: 'used', examItems: 0, attemptItems: 0, answers: 1 },
          { questionId: 'zero', examItems: 0, attemptItems: 0, answers: 0 },
        ],
      })
      .expect(200);
    const questions = svc.db.conn.collection('questions');
    const clone = (id: string, of: string, over: object = {}) =>
      questions.insertOne({
        _id: id,
        organizationId: 'org-a',
        removedAt: null,
        sourceMetadataJson: { clonedFromQuestionId: of },
        ...over,
      } as never);
    await clone('c1', 'cloned');
    await clone('c2', 'foreign-clone', { organizationId: 'org-b' });
    await clone('c3', 'removed-clone', { removedAt: new Date() });
    const ids = ['used', 'zero', 'cloned', 'foreign-clone', 'removed-clone', 'plain'];
    const found = await hasProjectedUsageOrCloneRefs(svc.built.deps, 'org-a', ids);
    expect([...found].sort()).to.deep.equal(['cloned', 'used']);
    expect((await hasProjectedUsageOrCloneRefs(svc.built.deps, 'org-a', [])).size).to.equal(0);
  });
});
