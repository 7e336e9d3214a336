import { expect } from 'chai';
import type { Db } from 'mongodb';
import { admin, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: permanent deletion (impact and synchronous route)', () => {
  let svc: TestQuestionBank;
  let db: Db;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
    db = svc.db.conn.db as unknown as Db;
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const post = (path: string, who = teacher()) => svc.request.post(path).set(headers(who));
  const archive = (ids: string[], who = teacher()) =>
    svc.request.patch('/v1/questions/bulk-status').set(headers(who)).send({ ids, status: 'ARCHIVED' });

  async function examRefs(refs: Array<{ questionId: string; examId: string; title?: string; createdAt?: string }>) {
    const exams = refs.map((r) => ({
      title: `Đề ${r.examId}`,
      status: 'PUBLISHED',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...r,
    }));
    const res = await svc.request.put('/v1/questions/exam-refs').set(headers(admin())).send({ exams });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  }

  async function usage(items: Array<{ questionId: string; examItems: number; attemptItems: number }>) {
    const res = await svc.request
      .put('/v1/questions/usage-counts')
      .set(headers(admin()))
      .send({ items: items.map((i) => ({ ...i, answers: 0 })) });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  }

  describe('POST /v1/questions/permanent-delete-impact', () => {
    it('groups exam refs per exam with affectedQuestions, and sums attempts from usage counts', async () => {
      const q1 = await createAs(svc, teacher());
      const q2 = await createAs(svc, teacher());
      await examRefs([
        { questionId: q1.id, examId: 'e1', createdAt: '2026-02-01T00:00:00.000Z' },
        { questionId: q2.id, examId: 'e1', createdAt: '2026-02-01T00:00:00.000Z' },
        { questionId: q2.id, examId: 'e2', createdAt: '2026-03-01T00:00:00.000Z' },
      ]);
      await usage([
        { questionId: q1.id, examItems: 1, attemptItems: 4 },
        { questionId: q2.id, examItems: 2, attemptItems: 7 },
      ]);
      const res = await post('/v1/questions/permanent-delete-impact').send({ ids: [q2.id, q1.id, q1.id] });
      expect(res.status).to.equal(200);
      const data = res.body.data;
      expect(data.questions.map((q: { id: string }) => q.id)).to.deep.equal([q2.id, q1.id]);
      expect(data.questions[0]._count).to.deep.equal({ examItems: 2, attemptItems: 7, answers: 0 });
      expect(data.affectedExams).to.deep.equal([
        { id: 'e2', title: 'Đề e2', status: 'PUBLISHED', createdAt: '2026-03-01T00:00:00.000Z', affectedQuestions: 1 },
        { id: 'e1', title: 'Đề e1', status: 'PUBLISHED', createdAt: '2026-02-01T00:00:00.000Z', affectedQuestions: 2 },
      ]);
      expect(data.affectedExamCount).to.equal(3); // usage counts' examItems: 1 + 2
      expect(data.affectedAttemptCount).to.equal(11);
    });

    it('leaves affectedExams empty when exam refs are missing, and counts zero attempts without usage rows', async () => {
      const q = await createAs(svc, teacher());
      const res = await post('/v1/questions/permanent-delete-impact').send({ ids: [q.id] });
      expect(res.body.data).to.deep.include({ affectedExams: [], affectedExamCount: 0, affectedAttemptCount: 0 });
      expect(res.body.data.questions).to.have.length(1);
      // Counts come from usage counts even when the exam refs are missing.
      await usage([{ questionId: q.id, examItems: 2, attemptItems: 5 }]);
      const counted = await post('/v1/questions/permanent-delete-impact').send({ ids: [q.id] });
      expect(counted.body.data).to.deep.include({ affectedExams: [], affectedExamCount: 2, affectedAttemptCount: 5 });
    });

    it('mode all previews the first scoped archived batch only (not drafts, not other owners)', async () => {
      const mine = await createAs(svc, teacher());
      const draft = await createAs(svc, teacher());
      const theirs = await createAs(svc, teacher('t2'));
      await archive([mine.id]);
      await archive([theirs.id], teacher('t2'));
      const res = await post('/v1/questions/permanent-delete-impact').send({ mode: 'all' });
      expect(res.status).to.equal(200);
      expect(res.body.data.questions.map((q: { id: string }) => q.id)).to.deep.equal([mine.id]);
      expect(res.body.data.questions.map((q: { id: string }) => q.id)).to.not.include(draft.id);
    });

    it('omits out-of-scope ids (another teacher, another organization)', async () => {
      const other = await createAs(svc, teacher('t2'));
      const foreign = await createAs(svc, teacher('t1', 'org-b'));
      const res = await post('/v1/questions/permanent-delete-impact').send({ ids: [other.id, foreign.id] });
      expect(res.body.data.questions).to.deep.equal([]);
    });

    it('refuses ids with mode, neither, empty ids, over 100 ids and a bad mode with 400 VALIDATION_ERROR', async () => {
      const many = Array.from({ length: 101 }, (_, i) => `q${i}`);
      for (const body of [{ ids: ['a'], mode: 'all' }, {}, { ids: [] }, { ids: many }, { mode: 'some' }]) {
        const res = await post('/v1/questions/permanent-delete-impact').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });
  });

  describe('POST /v1/questions/permanent-delete', () => {
    it('removes in-scope rows of any status (archived included), deduplicated, with versions, refs and a tombstone each', async () => {
      const draft = await createAs(svc, teacher());
      const archived = await createAs(svc, teacher());
      await archive([archived.id]);
      await examRefs([{ questionId: archived.id, examId: 'e1' }]);
      await usage([{ questionId: archived.id, examItems: 1, attemptItems: 2 }]);
      const res = await post('/v1/questions/permanent-delete').send({ ids: [draft.id, archived.id, draft.id] });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ requested: 2, deleted: 2 });
      const ids = [draft.id, archived.id];
      expect(await db.collection('questions').countDocuments({ _id: { $in: ids }, removedAt: null } as never)).to.equal(
        0,
      );
      expect(await db.collection('question_versions').countDocuments({ questionId: { $in: ids } })).to.equal(0);
      expect(await db.collection('exam_refs').countDocuments({ questionId: archived.id })).to.equal(0);
      expect(await db.collection('usage_counts').countDocuments({ _id: archived.id } as never)).to.equal(0);
      const tombstones = await db
        .collection('outbox')
        .find({ key: { $in: ids } })
        .toArray();
      const deletes = tombstones.filter((e) => String(e.envelope).includes('"operation":"DELETE"'));
      expect(deletes.map((e) => e.key).sort()).to.deep.equal([...ids].sort());
      expect((await svc.request.get(`/v1/questions/${archived.id}`).set(headers(teacher()))).status).to.equal(404);
    });

    it('skips out-of-scope and unknown ids and leaves them untouched', async () => {
      const mine = await createAs(svc, teacher());
      const other = await createAs(svc, teacher('t2'));
      const foreign = await createAs(svc, admin('a9', 'org-b'));
      const res = await post('/v1/questions/permanent-delete').send({ ids: [mine.id, other.id, foreign.id, 'nope'] });
      expect(res.body.data).to.deep.equal({ requested: 4, deleted: 1 });
      expect((await svc.request.get(`/v1/questions/${other.id}`).set(headers(teacher('t2')))).status).to.equal(200);
      expect((await svc.request.get(`/v1/questions/${foreign.id}`).set(headers(admin('a9', 'org-b')))).status).to.equal(
        200,
      );
    });

    it('lets an ADMIN remove any row of its organization', async () => {
      const q = await createAs(svc, teacher('t2'));
      const res = await post('/v1/questions/permanent-delete', admin()).send({ ids: [q.id] });
      expect(res.body.data).to.deep.equal({ requested: 1, deleted: 1 });
    });

    it('refuses 101 ids, empty ids, a missing body and mode all with 400 VALIDATION_ERROR and removes nothing', async () => {
      const q = await createAs(svc, teacher());
      const many = [q.id, ...Array.from({ length: 100 }, (_, i) => `q${i}`)];
      for (const body of [{ ids: many }, { ids: [] }, {}, { mode: 'all' }, { ids: ['bad id'] }]) {
        const res = await post('/v1/questions/permanent-delete').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await svc.request.get(`/v1/questions/${q.id}`).set(headers(teacher()))).status).to.equal(200);
    });

    it('needs a writer role and an organization', async () => {
      const student = { userId: 's1', role: 'STUDENT', organizationId: 'org-a' };
      expect((await post('/v1/questions/permanent-delete', student).send({ ids: ['x'] })).status).to.equal(403);
      const noOrg = { userId: 't1', role: 'TEACHER' };
      expect((await post('/v1/questions/permanent-delete', noOrg).send({ ids: ['x'] })).status).to.equal(400);
    });
  });

  describe('fixed paths', () => {
    it('answers 405 with Allow: POST for other methods instead of taking the segment for a question id', async () => {
      for (const path of [
        '/v1/questions/permanent-delete',
        '/v1/questions/permanent-delete-impact',
        '/v1/questions/permanent-delete/jobs',
      ]) {
        for (const method of ['get', 'patch', 'delete'] as const) {
          const res = await svc.request[method](path).set(headers(teacher()));
          expect(res.status, `${method} ${path}`).to.equal(405);
          expect(res.headers.allow).to.equal('POST');
        }
      }
    });
  });
});
