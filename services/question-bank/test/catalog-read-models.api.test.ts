import { expect } from 'chai';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { QuestionBankConfig } from '../src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';

const as = (user: string, role: string, org?: string) => ({
  'X-User-Id': user,
  'X-User-Role': role,
  ...(org ? { 'X-Organization-Id': org } : {}),
});
const teacher = as('t1', 'TEACHER', 'org-a');
const admin = as('a1', 'ADMIN', 'org-a');
// Issue 20: global rows come from the platform ADMIN (no X-Organization-Id), org-b's from org-b.
const platform = as('p1', 'ADMIN');
const adminB = as('b1', 'ADMIN', 'org-b');

describe('read-model backfill routes', () => {
  let svc: TestService<QuestionBankConfig, BuiltQuestionBank>;
  before(async () => (svc = await startTestService(questionBankService, { file: import.meta.url })));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const put = (path: string, body: object, headers: Record<string, string> = admin) =>
    svc.request.put(path).set(headers).send(body);
  const refs = (query: object, headers: Record<string, string> = teacher) =>
    svc.request.get('/v1/taxonomy/refs').set(headers).query(query).expect(200);

  describe('taxonomy refs', () => {
    beforeEach(async () => {
      await put('/v1/taxonomy/refs', {
        items: [
          { id: 's1', kind: 'SUBJECT', code: 'MATH', name: 'Toán học' },
          { id: 'c1', kind: 'CHAPTER', code: 'CH1', name: 'Hàm số', status: 'ARCHIVED' },
        ],
      }).expect(200);
      const g0 = { id: 'g0', kind: 'SUBJECT', code: 'PHYS', name: 'Vật lý', organizationId: null };
      await put('/v1/taxonomy/refs', { items: [g0] }, platform).expect(200);
      const b1 = { id: 'b1', kind: 'SUBJECT', code: 'CHEM', name: 'Hóa học', organizationId: 'org-b' };
      await put('/v1/taxonomy/refs', { items: [b1] }, adminB).expect(200);
    });

    it('lists the organization own refs, adds global ones with includeGlobal=1, and filters', async () => {
      const own = (await refs({})).body.data;
      expect(own.items.map((r: { id: string }) => r.id).sort()).to.deep.equal(['c1', 's1']);
      expect(own.meta).to.deep.equal({ page: 1, limit: 100, total: 2, totalPages: 1 });
      const withGlobal = (await refs({ includeGlobal: '1' })).body.data.items.map((r: { id: string }) => r.id);
      expect(withGlobal.sort()).to.deep.equal(['c1', 'g0', 's1']);
      expect((await refs({ kind: 'CHAPTER' })).body.data.items.map((r: { id: string }) => r.id)).to.deep.equal(['c1']);
      expect((await refs({ status: 'ACTIVE' })).body.data.items.map((r: { id: string }) => r.id)).to.deep.equal(['s1']);
      expect((await refs({ q: 'toan' })).body.data.items.map((r: { id: string }) => r.id)).to.deep.equal(['s1']);
      expect((await refs({ q: '.*' })).body.data.items).to.deep.equal([]);
      const global = (await svc.request.get('/v1/taxonomy/refs').expect(200)).body.data.items;
      expect(global.map((r: { id: string }) => r.id)).to.deep.equal(['g0']);
    });

    it('refuses unknown kinds, a teacher writing another organization, and allOrgs without ADMIN', async () => {
      const bad = await put('/v1/taxonomy/refs', { items: [{ id: 'x', kind: 'PLANET', code: 'X', name: 'x' }] });
      expect(bad.status).to.equal(400);
      const cross = await put(
        '/v1/taxonomy/refs',
        { items: [{ id: 'x', kind: 'SUBJECT', code: 'X', name: 'x', organizationId: 'org-b' }] },
        teacher,
      );
      expect(cross.status).to.equal(403);
      expect(await svc.built.deps.models.TaxonomyRef.countDocuments({ _id: 'x' })).to.equal(0);
      expect((await svc.request.get('/v1/taxonomy/refs').set(teacher).query({ allOrgs: '1' })).status).to.equal(403);
      expect((await svc.request.get('/v1/taxonomy/refs').query({ kind: 'PLANET' })).status).to.equal(400);
    });

    it('replaces a ref on a second PUT with the same id', async () => {
      await put('/v1/taxonomy/refs', { items: [{ id: 's1', kind: 'SUBJECT', code: 'MATH', name: 'Toán' }] }).expect(
        200,
      );
      const row = await svc.built.deps.models.TaxonomyRef.findById('s1').lean();
      expect(row).to.include({ name: 'Toán', organizationId: 'org-a' });
    });
  });

  describe('usage counts', () => {
    it('upserts non-negative counts and refuses a negative or fractional one without writing any item', async () => {
      const ok = await put('/v1/questions/usage-counts', {
        items: [{ questionId: 'q1', examItems: 1, attemptItems: 2, answers: 3 }],
      }).expect(200);
      expect(ok.body.data).to.deep.equal({ count: 1 });
      const neg = await put('/v1/questions/usage-counts', {
        items: [
          { questionId: 'q2', examItems: 1, attemptItems: 0, answers: 0 },
          { questionId: 'q3', examItems: -1, attemptItems: 0, answers: 0 },
        ],
      });
      expect(neg.status).to.equal(400);
      expect(neg.body.error.details[0].path).to.equal('items.1.examItems');
      expect(
        (
          await put('/v1/questions/usage-counts', {
            items: [{ questionId: 'q2', examItems: 1.5, attemptItems: 0, answers: 0 }],
          })
        ).status,
      ).to.equal(400);
      expect(await svc.built.deps.models.UsageCount.countDocuments()).to.equal(1);
    });

    it('refuses wrong roles, a missing organization header and over-limit item lists', async () => {
      const body = { items: [{ questionId: 'q1', examItems: 0, attemptItems: 0, answers: 0 }] };
      expect((await put('/v1/questions/usage-counts', body, as('s', 'STUDENT', 'org-a'))).status).to.equal(403);
      expect((await put('/v1/questions/usage-counts', body, as('t', 'TEACHER'))).status).to.equal(400);
      const many = {
        items: Array.from({ length: 501 }, (_, i) => ({
          questionId: `q${i}`,
          examItems: 0,
          attemptItems: 0,
          answers: 0,
        })),
      };
      expect((await put('/v1/questions/usage-counts', many)).status).to.equal(400);
    });
  });

  describe('tolerant bodies and trimmed limits', () => {
    const dump = async () =>
      JSON.stringify(
        await Promise.all(
          (await svc.db.conn.db!.listCollections().toArray()).map((c) =>
            svc.db.conn.collection(c.name).find({}).toArray(),
          ),
        ),
      );

    it('ignores members the four backfills do not use, at every depth, and never stores them', async () => {
      await put('/v1/taxonomy/refs', {
        source: 'legacy-sync',
        items: [{ id: 's1', kind: 'SUBJECT', code: 'MATH', name: 'Toán', legacyParent: 'mk-tax' }],
      }).expect(200);
      await put('/v1/questions/usage-counts', {
        batch: 'mk-batch',
        items: [{ questionId: 'q1', examItems: 1, attemptItems: 2, answers: 3, lastUsedBy: 'mk-usage' }],
      }).expect(200);
      await put('/v1/questions/relation-refs', {
        users: [{ id: 'u1', fullName: 'Cô Lan', email: 'lan@x.vn', passwordHash: 'mk-secret' }],
        organizations: [{ id: 'org-a', name: 'Trường A', slug: 'truong-a', plan: 'mk-plan' }],
        cursor: 'mk-cursor',
      }).expect(200);
      await put('/v1/questions/exam-refs', {
        exams: [
          {
            questionId: 'q1',
            examId: 'e1',
            title: 'Đề 1',
            status: 'PUBLISHED',
            createdAt: '2026-01-01T00:00:00Z',
            durationMinutes: 45,
            owner: { id: 'mk-owner' },
          },
        ],
      }).expect(200);
      const stored = await dump();
      expect(stored).to.include('Trường A');
      expect(stored).not.to.match(/mk-|legacyParent|durationMinutes|passwordHash/);
    });

    it('keeps checking the members they use: a wrong type or a bad id is still 400, writing nothing', async () => {
      const cases: Array<[string, object]> = [
        ['/v1/questions/usage-counts', { items: [{ questionId: 'q1', examItems: '1', attemptItems: 0, answers: 0 }] }],
        ['/v1/questions/usage-counts', { items: [{ questionId: 'a b', examItems: 1, attemptItems: 0, answers: 0 }] }],
        ['/v1/questions/relation-refs', { cursor: 'x' }],
        ['/v1/taxonomy/refs', { items: [{ id: 's1', kind: 'SUBJECT', code: 'M', name: 'x', numericLevel: '3' }] }],
        ['/v1/questions/exam-refs', { exams: [{ questionId: 'q1', examId: 'e1', title: 't', status: 'P' }] }],
      ];
      for (const [path, body] of cases) {
        const res = await put(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect(await dump()).not.to.match(/"questionId":"q1"|"_id":"s1"/);
    });

    it('counts a text limit after trimming: at the limit with spaces around is stored trimmed, one over is 400', async () => {
      const name = 'N'.repeat(500);
      await put('/v1/taxonomy/refs', {
        items: [{ id: 's1', kind: 'SUBJECT', code: '  MATH  ', name: `  ${name}  ` }],
      }).expect(200);
      const [ref] = (await refs({})).body.data.items;
      expect(ref).to.include({ code: 'MATH', name });
      const over = await put('/v1/taxonomy/refs', {
        items: [{ id: 's2', kind: 'SUBJECT', code: 'M', name: `${name}N` }],
      });
      expect(over.status).to.equal(400);
      const folder = 'F'.repeat(200);
      const made = await svc.request
        .post('/v1/question-folders')
        .set(teacher)
        .send({ name: ` ${folder}\t` });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect(made.body.data.name).to.equal(folder);
      await svc.request
        .post('/v1/question-folders')
        .set(teacher)
        .send({ name: `${folder}F` })
        .expect(400);
      await svc.request.post('/v1/question-folders').set(teacher).send({ name: '   ' }).expect(400);
    });
  });

  describe('fixed paths under /v1/questions and /v1/question-types', () => {
    it('answer other methods with 405 and exactly their own method in Allow, never as a question or type id', async () => {
      for (const [path, allow] of [
        ['/v1/questions/usage-counts', 'PUT'],
        ['/v1/questions/relation-refs', 'PUT'],
        ['/v1/questions/exam-refs', 'PUT'],
        ['/v1/question-types/bulk-status', 'PATCH'],
        ['/v1/question-types/bulk-delete', 'POST'],
      ] as const) {
        const res = await svc.request.get(path).set(admin);
        expect(res.status, path).to.equal(405);
        expect(res.headers.allow, path).to.equal(allow);
        const options = await svc.request.options(path);
        expect(options.status, path).to.equal(200);
        expect(options.headers.allow, path).to.equal(allow);
        expect((await svc.request.delete(path).set(admin)).status, path).to.equal(405);
      }
    });
  });

  describe('relation and exam refs', () => {
    it('stores users under the header organization and organizations under their own id', async () => {
      const res = await put('/v1/questions/relation-refs', {
        users: [{ id: 'u1', fullName: 'Trần Thị Bình', email: 'binh@example.edu.vn' }],
        organizations: [{ id: 'org-a', name: 'THPT A', slug: 'thpt-a' }],
      }).expect(200);
      expect(res.body.data).to.deep.equal({ users: 1, organizations: 1 });
      expect(await svc.built.deps.models.UserRef.findById('u1').lean()).to.include({ organizationId: 'org-a' });
      expect(await svc.built.deps.models.OrganizationRef.findById('org-a').lean()).to.include({
        organizationId: 'org-a',
      });
      const foreignOrg = await put(
        '/v1/questions/relation-refs',
        { organizations: [{ id: 'org-z', name: 'Z', slug: 'z' }] },
        teacher,
      );
      expect(foreignOrg.status).to.equal(403);
      expect((await put('/v1/questions/relation-refs', { users: [{ id: 'u2' }] })).status).to.equal(400);
    });

    it('stores exam refs keyed by exam and question, and refuses a bad createdAt', async () => {
      const exam = {
        questionId: 'q1',
        examId: 'e1',
        title: 'Giữa kỳ',
        status: 'PUBLISHED',
        createdAt: '2026-01-02T03:04:05Z',
      };
      await put('/v1/questions/exam-refs', { exams: [exam, { ...exam, questionId: 'q2' }] }).expect(200);
      await put('/v1/questions/exam-refs', { exams: [{ ...exam, title: 'Cuối kỳ' }] }).expect(200);
      const rows = await svc.built.deps.models.ExamRef.find().sort({ questionId: 1 }).lean();
      expect(rows.map((r) => [r.questionId, r.title])).to.deep.equal([
        ['q1', 'Cuối kỳ'],
        ['q2', 'Giữa kỳ'],
      ]);
      expect((await put('/v1/questions/exam-refs', { exams: [{ ...exam, createdAt: 'yesterday' }] })).status).to.equal(
        400,
      );
      expect((await put('/v1/questions/relation-refs', {})).status).to.equal(400);
      const stringCount = { items: [{ questionId: 'q9', examItems: '1', attemptItems: 0, answers: 0 }] };
      expect((await put('/v1/questions/usage-counts', stringCount)).status).to.equal(400);
    });
  });
});
