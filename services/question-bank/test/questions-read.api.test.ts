import { expect } from 'chai';
import { admin, choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: reads, scope and roles', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const list = (who: Record<string, string>, query: Record<string, string> = {}) =>
    svc.request.get('/v1/questions').set(who).query(query);

  describe('GET /v1/questions', () => {
    it('pages with meta and newest first', async () => {
      for (let i = 0; i < 5; i += 1) await createAs(svc, teacher(), choiceBody({ content: `Câu ${i}` }));
      const res = await list(headers(teacher()), { page: '2', limit: '2' });
      expect(res.status).to.equal(200);
      expect(res.body.data.meta).to.deep.equal({ page: 2, limit: 2, total: 5, totalPages: 3 });
      expect(res.body.data.items.map((q: { content: string }) => q.content)).to.deep.equal(['Câu 2', 'Câu 1']);
    });

    it('owner-scopes non-admin reads and lets ADMIN see the organization', async () => {
      await createAs(svc, teacher('t1'));
      await createAs(svc, teacher('t2'));
      expect((await list(headers(teacher('t1')))).body.data.meta.total).to.equal(1);
      expect((await list(headers(admin()))).body.data.meta.total).to.equal(2);
      // createdById narrows the owner scope, never widens it.
      expect((await list(headers(teacher('t1')), { createdById: 't2' })).body.data.meta.total).to.equal(0);
    });

    it('never shows another organization; allOrgs=1 only for the platform ADMIN (403 otherwise)', async () => {
      await createAs(svc, teacher('t1', 'org-a'));
      await createAs(svc, admin('a2', 'org-b'));
      expect((await list(headers(admin('a1', 'org-a')))).body.data.meta.total).to.equal(1);
      // Issue 20: an organization's ADMIN is ADMIN of that organization only.
      expect((await list(headers(admin('a1', 'org-a')), { allOrgs: '1' })).status).to.equal(403);
      expect((await list(headers({ userId: 'p1', role: 'ADMIN' }), { allOrgs: '1' })).body.data.meta.total).to.equal(2);
      const denied = await list(headers(teacher('t1', 'org-a')), { allOrgs: '1' });
      expect(denied.status).to.equal(403);
      const mismatch = await list(headers(teacher('t1', 'org-a')), { organizationId: 'org-b' });
      expect(mismatch.status).to.equal(403);
    });

    it('reads the organizationId query without the header only for the platform ADMIN (issue 20)', async () => {
      await createAs(svc, admin('a2', 'org-b'));
      const anonymous = await svc.request.get('/v1/questions').query({ organizationId: 'org-b' });
      expect(anonymous.status).to.equal(403);
      const platform = await list(headers({ userId: 'p1', role: 'ADMIN' }), { organizationId: 'org-b' });
      expect(platform.body.data.meta.total).to.equal(1);
      expect((await list(headers(admin('a2', 'org-b')), { organizationId: 'org-b' })).body.data.meta.total).to.equal(1);
    });

    it('applies every filter and hides ARCHIVED unless asked', async () => {
      const a = await createAs(svc, teacher(), choiceBody({ difficulty: 'HARD', gradeLevel: 10, gradeId: 'g10' }));
      await createAs(svc, teacher(), choiceBody({ type: 'ESSAY', options: [], explanation: 'Lời giải' }));
      const archived = await createAs(svc, teacher(), choiceBody({ status: 'ARCHIVED' }));
      const ids = async (q: Record<string, string>) =>
        (await list(headers(teacher()), q)).body.data.items.map((i: { id: string }) => i.id);
      expect(await ids({ difficulty: 'HARD' })).to.deep.equal([a.id]);
      expect(await ids({ gradeLevel: '10' })).to.deep.equal([a.id]);
      expect(await ids({ gradeId: 'g10' })).to.deep.equal([a.id]);
      expect(await ids({ type: 'ESSAY' })).to.have.length(1);
      expect(await ids({ missingExplanationOnly: '1' })).to.have.length(1);
      expect(await ids({})).to.not.include(archived.id);
      expect(await ids({ includeArchived: '1' })).to.include(archived.id);
      expect(await ids({ status: 'ARCHIVED' })).to.deep.equal([archived.id]);
    });

    it('refuses unknown enum values and unknown parameters with 400', async () => {
      expect((await list(headers(teacher()), { status: 'GONE' })).status).to.equal(400);
      expect((await list(headers(teacher()), { type: 'ESSAYS' })).status).to.equal(400);
      expect((await list(headers(teacher()), { nope: '1' })).status).to.equal(400);
    });
  });

  describe('GET /v1/questions/:id', () => {
    it('answers 404 QUESTION_NOT_FOUND for missing, foreign-organization and other-owner ids alike', async () => {
      const q = await createAs(svc, teacher('t1', 'org-a'));
      for (const who of [teacher('t2', 'org-a'), admin('a9', 'org-b'), teacher('t1', 'org-b')]) {
        const res = await svc.request.get(`/v1/questions/${q.id}`).set(headers(who));
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('QUESTION_NOT_FOUND');
      }
      const missing = await svc.request.get('/v1/questions/nope').set(headers(teacher()));
      expect(missing.body.error.code).to.equal('QUESTION_NOT_FOUND');
      expect((await svc.request.get(`/v1/questions/${q.id}`).set(headers(admin()))).status).to.equal(200);
    });

    it('includes archived rows and gives editor fields with view=editor', async () => {
      const q = await createAs(
        svc,
        teacher(),
        choiceBody({
          status: 'ARCHIVED',
          answerKeys: { correctLabels: ['A'] },
          scoringRule: { mode: 'EXACT', maxScore: 1 },
        }),
      );
      const plain = await svc.request.get(`/v1/questions/${q.id}`).set(headers(teacher()));
      expect(plain.status).to.equal(200);
      expect(plain.body.data.currentVersion).to.not.have.property('answerKeysJson');
      const res = await svc.request.get(`/v1/questions/${q.id}`).query({ view: 'editor' }).set(headers(teacher()));
      expect(res.body.data.currentVersion.answerKeysJson).to.deep.equal({ correctLabels: ['A'] });
      expect(res.body.data.currentVersion).to.have.property('subItemsJson', null);
      expect(res.body.data.options.map((o: { order: number }) => o.order)).to.deep.equal([0, 1]);
      expect((await svc.request.get(`/v1/questions/${q.id}`).query({ view: 'x' })).status).to.equal(400);
    });
  });
});
