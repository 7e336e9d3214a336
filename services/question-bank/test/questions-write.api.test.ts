import { expect } from 'chai';
import { admin, choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: PATCH, DELETE and bulk status', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const patch = (id: string, body: object, who = teacher()) =>
    svc.request.patch(`/v1/questions/${id}`).set(headers(who)).send(body);

  describe('PATCH /v1/questions/:id', () => {
    it('keeps omitted fields, replaces arrays fully, appends a version and regenerates contentJson', async () => {
      const q = await createAs(svc, teacher(), choiceBody({ difficulty: 'HARD', mediaRefs: [{ url: '/a.png' }] }));
      const res = await patch(q.id, {
        content: 'Nội dung mới',
        tags: ['Hình học'],
        options: [{ content: 'Một', isCorrect: true }],
      });
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Question updated');
      const d = res.body.data;
      expect(d).to.include({ content: 'Nội dung mới', difficulty: 'HARD' });
      expect(d.tags).to.deep.equal(['Hình học']);
      expect(d.options).to.have.length(1);
      expect(d.mediaRefs).to.have.length(1);
      expect(d.contentJson.content[0].content[0].text).to.equal('Nội dung mới');
      expect(d.currentVersionId).to.not.equal(q.currentVersionId);
      expect(d.currentVersion.versionNumber).to.equal(2);
      expect(await svc.db.conn.collection('question_versions').countDocuments({ questionId: q.id })).to.equal(2);
    });

    it('clears a version abandoned by a crashed writer instead of refusing every later PATCH', async () => {
      const q = await createAs(svc, teacher());
      const versions = svc.db.conn.collection<{ _id: string; [field: string]: unknown }>('question_versions');
      const orphan = { questionId: q.id, versionNumber: 2, organizationId: null, createdById: null, content: 'x' };
      // A writer that crashed after its version insert, long ago, and one still inside its write.
      await versions.insertOne({ _id: 'abandoned', ...orphan, createdAt: new Date(Date.now() - 3_600_000) });
      expect((await patch(q.id, { content: 'Sau sự cố' })).status).to.equal(200);
      expect(await versions.countDocuments({ _id: 'abandoned' })).to.equal(0);
      await versions.insertOne({ _id: 'in-flight', ...orphan, versionNumber: 3, createdAt: new Date() });
      expect((await patch(q.id, { content: 'Lần nữa' })).status).to.equal(409);
      expect(await versions.countDocuments({ _id: 'in-flight' })).to.equal(1);
    });

    it('accepts the *Json aliases; with both spellings the canonical name wins', async () => {
      const q = await createAs(svc, teacher());
      const res = await patch(q.id, {
        answerKeysJson: { correctLabels: ['A'] },
        scoringRuleJson: { mode: 'EXACT', maxScore: 1 },
      });
      expect(res.body.data.answerKeys).to.deep.equal({ correctLabels: ['A'] });
      expect(res.body.data.scoringRule).to.deep.equal({ mode: 'EXACT', maxScore: 1 });
      const both = await patch(q.id, {
        answerKeys: { correctLabels: ['B'] },
        answerKeysJson: { correctLabels: ['C'] },
      });
      expect(both.body.data.answerKeys).to.deep.equal({ correctLabels: ['B'] });
      expect((await patch(q.id, {})).status).to.equal(400);
    });

    it("answers 404 for another teacher's or organization's question and writes nothing", async () => {
      const q = await createAs(svc, teacher('t1'));
      expect((await patch(q.id, { content: 'x' }, teacher('t2'))).status).to.equal(404);
      expect((await patch(q.id, { content: 'x' }, admin('a', 'org-b'))).status).to.equal(404);
      expect((await patch(q.id, { content: 'x' }, admin())).status).to.equal(200);
    });

    it('refuses a PATCH to PUBLISHED that breaks the base type', async () => {
      const q = await createAs(svc, teacher(), { content: 'Câu', options: [{ content: 'a' }, { content: 'b' }] });
      expect((await patch(q.id, { status: 'PUBLISHED' })).status).to.equal(409);
      const stored = await svc.db.conn.collection('questions').findOne({ _id: q.id as never });
      expect(stored?.status).to.equal('DRAFT');
    });
  });

  describe('DELETE /v1/questions/:id', () => {
    it('removes an unused question with its versions', async () => {
      const q = await createAs(svc, teacher());
      const res = await svc.request.delete(`/v1/questions/${q.id}`).set(headers(teacher()));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        message: 'Question deleted',
        data: { id: q.id, deleted: true, archived: false },
      });
      expect((await svc.request.get(`/v1/questions/${q.id}`).set(headers(teacher()))).status).to.equal(404);
      expect(await svc.db.conn.collection('question_versions').countDocuments({ questionId: q.id })).to.equal(0);
      expect((await svc.request.delete(`/v1/questions/${q.id}`).set(headers(teacher()))).status).to.equal(404);
    });

    it('archives a question with projected usage or a same-organization clone', async () => {
      const used = await createAs(svc, teacher());
      await svc.db.conn.collection('usage_counts').insertOne({
        _id: used.id as never,
        organizationId: 'org-a',
        examItems: 1,
        attemptItems: 0,
        answers: 0,
        updatedAt: new Date(),
      });
      const original = await createAs(svc, teacher());
      await createAs(svc, teacher(), choiceBody({ sourceMetadataJson: { clonedFromQuestionId: original.id } }));
      for (const q of [used, original]) {
        const res = await svc.request.delete(`/v1/questions/${q.id}`).set(headers(teacher()));
        expect(res.body.data).to.deep.equal({ id: q.id, deleted: false, archived: true });
        const row = await svc.request.get(`/v1/questions/${q.id}`).set(headers(teacher()));
        expect(row.body.data.status).to.equal('ARCHIVED');
      }
    });

    it('needs a writer role', async () => {
      const q = await createAs(svc, teacher());
      const student = { userId: 's', role: 'STUDENT', organizationId: 'org-a' };
      expect((await svc.request.delete(`/v1/questions/${q.id}`).set(headers(student))).status).to.equal(403);
    });
  });

  describe('PATCH /v1/questions/bulk-status', () => {
    const bulk = (body: object, who = teacher()) =>
      svc.request.patch('/v1/questions/bulk-status').set(headers(who)).send(body);

    it('deduplicates ids, skips out-of-scope rows and returns both counts', async () => {
      const mine = await createAs(svc, teacher('t1'));
      const theirs = await createAs(svc, teacher('t2'));
      const res = await bulk({ ids: [mine.id, mine.id, theirs.id, 'missing'], status: 'ARCHIVED' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ requested: 3, updated: 1 });
      const other = await svc.db.conn.collection('questions').findOne({ _id: theirs.id as never });
      expect(other?.status).to.equal('DRAFT');
    });

    it('refuses empty lists, more than 100 ids and unknown statuses with 400', async () => {
      expect((await bulk({ ids: [], status: 'DRAFT' })).status).to.equal(400);
      const many = Array.from({ length: 101 }, (_, i) => `id-${i}`);
      expect((await bulk({ ids: many, status: 'DRAFT' })).status).to.equal(400);
      expect((await bulk({ ids: ['a'], status: 'GONE' })).status).to.equal(400);
      expect((await bulk({ ids: 'a', status: 'DRAFT' })).status).to.equal(400);
      const hundred = Array.from({ length: 100 }, (_, i) => `id-${i}`);
      expect((await bulk({ ids: hundred, status: 'DRAFT' })).body.data).to.deep.equal({ requested: 100, updated: 0 });
    });
  });
});
