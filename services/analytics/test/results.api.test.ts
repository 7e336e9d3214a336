import { expect } from 'chai';
import { put, snapshot, startAnalytics, ORG, type TestAnalytics } from './support.js';

describe('analytics results API', function () {
  this.timeout(60000);
  let svc: TestAnalytics;
  before(async () => {
    svc = await startAnalytics(import.meta.url, { ANALYTICS_CONSUMER: 'off' });
  });
  after(() => svc?.close());

  const get = (path: string, org: string | null = ORG) =>
    svc.request.get(path).set(org ? { 'X-Organization-Id': org } : {});

  describe('PUT /v1/analytics/results/:attemptId/snapshot', () => {
    beforeEach(() => svc.clearCollections());

    it('stores the projection and returns the result row', async () => {
      const res = await put(svc, 'att-1', snapshot()).expect(200);
      expect(res.body).to.include({ success: true, message: 'OK' });
      expect(res.body.data).to.deep.include({
        attemptId: 'att-1',
        organizationId: ORG,
        score: 7.5,
        correctCount: 3,
        wrongCount: 1,
        durationSeconds: 600,
        status: 'GRADED',
        submittedAt: '2026-01-10T08:10:00.000Z',
      });
      expect(res.body.data.student).to.deep.equal({ id: 'stu-1', fullName: 'Nguyễn Văn A', accountCode: 'HS001' });
      expect(res.body.data.weakTopics).to.deep.equal([{ topic: 'Hàm số', topicId: 'topic-fn', questionId: 'q-1' }]);
      expect(await svc.built.deps.models.Result.countDocuments({})).to.equal(1);
    });

    it('is idempotent by attempt id: the same body twice keeps one row with the same content and createdAt', async () => {
      const first = await put(svc, 'att-1', snapshot()).expect(200);
      const second = await put(svc, 'att-1', snapshot()).expect(200);
      const { updatedAt: _a, ...a } = first.body.data;
      const { updatedAt: _b, ...b } = second.body.data;
      expect(b).to.deep.equal(a);
      expect(await svc.built.deps.models.Result.countDocuments({})).to.equal(1);
    });

    it('replaces the projection on a later PUT (last write wins)', async () => {
      await put(svc, 'att-1', snapshot()).expect(200);
      await put(svc, 'att-1', snapshot({ score: 9, weakTopics: [] })).expect(200);
      const res = await get('/v1/analytics/results').expect(200);
      expect(res.body.data.items).to.have.length(1);
      expect(res.body.data.items[0]).to.deep.include({ score: 9, weakTopics: [] });
    });

    it('takes organizationId from the body over the header, and null without either', async () => {
      await put(svc, 'att-1', snapshot({ organizationId: 'org-b' })).expect(200);
      const none = await put(svc, 'att-2', snapshot(), '').expect(200);
      expect(none.body.data.organizationId).to.equal(null);
      const b = await get('/v1/analytics/results', 'org-b').expect(200);
      expect(b.body.data.items.map((r: { attemptId: string }) => r.attemptId)).to.deep.equal(['att-1']);
    });

    it('trims topic labels and stores optional references as null', async () => {
      const body = snapshot({ classroom: null, weakTopics: [{ topic: '  Tích phân ' }] });
      const res = await put(svc, 'att-1', body).expect(200);
      expect(res.body.data.classroom).to.equal(null);
      expect(res.body.data.weakTopics).to.deep.equal([{ topic: 'Tích phân', topicId: null, questionId: null }]);
    });

    it('accepts the public ids beside the row fields and ignores (never stores) members it does not use', async () => {
      const body = snapshot({
        examId: 'exam-1',
        studentId: 'stu-1',
        classroomId: 'class-1',
        subjectId: 'math',
        gradeLevel: 12,
        totalScore: 7.5,
        passwordHash: 'x',
        student: { id: 'stu-1', fullName: 'Nguyễn Văn A', accountCode: 'HS001', email: 'a@b.c' },
        exam: { id: 'exam-1', title: 'Kiểm tra Toán', subjectId: 'math', gradeLevel: 12, durationMinutes: 45 },
        weakTopics: [{ topic: 'Hàm số', topicId: 'topic-fn', questionId: 'q-1', note: 'x' }],
      });
      const res = await put(svc, 'att-1', body).expect(200);
      expect(res.body.data).to.deep.include({ score: 7.5 });
      expect(res.body.data.exam).to.deep.equal({
        id: 'exam-1',
        title: 'Kiểm tra Toán',
        subjectId: 'math',
        gradeLevel: 12,
      });
      const stored = JSON.stringify(await svc.built.deps.models.Result.findById('att-1').lean());
      for (const unused of ['passwordHash', 'totalScore', 'email', 'durationMinutes', 'note']) {
        expect(stored).to.not.include(unused);
      }
    });

    it('takes the public ids flat where the nested objects leave them out', async () => {
      const { student: _s, classroom: _c, ...rest } = snapshot();
      const body = {
        ...rest,
        exam: { id: 'exam-1', title: 'Kiểm tra Lý' },
        studentId: 'stu-9',
        classroomId: 'class-9',
        subjectId: 'phys',
        gradeLevel: 11,
      };
      const res = await put(svc, 'att-1', body).expect(200);
      expect(res.body.data.student).to.deep.equal({ id: 'stu-9', fullName: null, accountCode: null });
      expect(res.body.data.classroom).to.deep.equal({ id: 'class-9', name: null });
      expect(res.body.data.exam).to.deep.equal({
        id: 'exam-1',
        title: 'Kiểm tra Lý',
        subjectId: 'phys',
        gradeLevel: 11,
      });
      const filtered = await get('/v1/analytics/results?subjectId=phys&gradeLevel=11&classroomId=class-9').expect(200);
      expect(filtered.body.data.items).to.have.length(1);
    });

    it('counts the 500-character topic label limit after trimming', async () => {
      const label = 'T'.repeat(500);
      const ok = await put(svc, 'att-1', snapshot({ weakTopics: [{ topic: `  ${label}  ` }] })).expect(200);
      expect(ok.body.data.weakTopics[0].topic).to.equal(label);
      await put(svc, 'att-2', snapshot({ weakTopics: [{ topic: `${label}T` }] })).expect(400);
    });

    const disagreeing: Array<[string, Record<string, unknown>]> = [
      ['examId', snapshot({ examId: 'exam-2' })],
      ['studentId', snapshot({ studentId: 'stu-2' })],
      ['classroomId', snapshot({ classroomId: 'class-2' })],
      ['classroomId', snapshot({ classroom: null, classroomId: 'class-2' })],
      ['subjectId', snapshot({ subjectId: 'chem' })],
      ['gradeLevel', snapshot({ gradeLevel: 10 })],
      ['totalScore', snapshot({ totalScore: 1 })],
    ];
    for (const [alias, body] of disagreeing) {
      it(`refuses ${alias} that disagrees with the nested value with 400 naming it, and writes nothing`, async () => {
        const res = await put(svc, 'att-1', body).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(alias);
        expect(await svc.built.deps.models.Result.countDocuments({})).to.equal(0);
      });
    }

    const bad: Array<[string, Record<string, unknown>]> = [
      ['a flat gradeLevel sent as a string', snapshot({ exam: { id: 'e', title: 't' }, gradeLevel: '12' })],
      ['a flat studentId outside the id alphabet', snapshot({ student: undefined, studentId: 'a b' })],
      ['a missing score (an unused totalScore absent too)', snapshot({ score: undefined })],
      ['a missing student', snapshot({ student: undefined })],
      ['a missing exam title', snapshot({ exam: { id: 'e' } })],
      ['a score sent as a string', snapshot({ score: '7' })],
      ['a negative correctCount', snapshot({ correctCount: -1 })],
      ['a fractional durationSeconds', snapshot({ durationSeconds: 1.5 })],
      ['a lowercase status', snapshot({ status: 'graded' })],
      ['a submittedAt that is not ISO 8601', snapshot({ submittedAt: 'yesterday' })],
      ['a gradeLevel of 13', snapshot({ exam: { id: 'e', title: 't', gradeLevel: 13 } })],
      ['a blank topic label', snapshot({ weakTopics: [{ topic: '   ' }] })],
      [
        'more than 500 topic occurrences',
        snapshot({ weakTopics: Array.from({ length: 501 }, () => ({ topic: 't' })) }),
      ],
      ['an id outside the id alphabet', snapshot({ student: { id: 'a b' } })],
      ['an attemptId that differs from the path', snapshot({ attemptId: 'att-2' })],
    ];
    for (const [what, body] of bad) {
      it(`refuses ${what} with 400 VALIDATION_ERROR and writes nothing`, async () => {
        const res = await put(svc, 'att-1', body).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(await svc.built.deps.models.Result.countDocuments({})).to.equal(0);
      });
    }

    it('refuses malformed JSON with 400 and a bad path id with 400', async () => {
      const res = await svc.request
        .put('/v1/analytics/results/att-1/snapshot')
        .set('Content-Type', 'application/json')
        .send('{"score":')
        .expect(400);
      expect(res.body.success).to.equal(false);
      await put(svc, 'bad%20id', snapshot()).expect(400);
    });
  });

  describe('GET /v1/analytics/results', () => {
    async function seed(): Promise<void> {
      const rows: Array<[string, Record<string, unknown>]> = [
        ['r1', snapshot({ submittedAt: '2026-01-01T00:00:00.000Z' })],
        ['r2', snapshot({ submittedAt: '2026-01-02T00:00:00.000Z', classroom: { id: 'class-2' } })],
        [
          'r3',
          snapshot({
            submittedAt: '2026-01-03T00:00:00.000Z',
            exam: { id: 'exam-2', title: 'Lý', subjectId: 'physics', gradeLevel: 11 },
          }),
        ],
        [
          'r4',
          snapshot({
            submittedAt: '2026-01-04T00:00:00.000Z',
            weakTopics: [{ topic: 'Xác suất', topicId: 'topic-p' }],
          }),
        ],
        ['r5', snapshot({ submittedAt: '2026-01-05T00:00:00.000Z', student: { id: 'stu-2' } })],
      ];
      for (const [id, body] of rows) await put(svc, id, body).expect(200);
      await put(svc, 'other-org', snapshot({ organizationId: 'org-z' })).expect(200);
    }
    // Read-only tests below: the rows are written once.
    before(async () => {
      await svc.clearCollections();
      await seed();
    });
    const ids = (res: { body: { data: { items: Array<{ attemptId: string }> } } }) =>
      res.body.data.items.map((r) => r.attemptId);

    it('lists newest first in the list envelope with default paging', async () => {
      const res = await get('/v1/analytics/results').expect(200);
      expect(ids(res)).to.deep.equal(['r5', 'r4', 'r3', 'r2', 'r1']);
      expect(res.body.data.meta).to.deep.equal({ page: 1, limit: 20, total: 5, totalPages: 1 });
    });

    it('lists every organization without X-Organization-Id', async () => {
      const res = await get('/v1/analytics/results', null).expect(200);
      expect(res.body.data.meta.total).to.equal(6);
    });

    const filters: Array<[string, string[]]> = [
      ['classroomId=class-2', ['r2']],
      ['examId=exam-2', ['r3']],
      ['subjectId=physics', ['r3']],
      ['gradeLevel=11', ['r3']],
      ['gradeLevel=12', ['r5', 'r4', 'r2', 'r1']],
      ['topic=Xác suất', ['r4']],
      ['topic=topic-p', ['r4']],
      ['studentId=stu-2', ['r5']],
      ['from=2026-01-04T00:00:00Z', ['r5', 'r4']],
      ['to=2026-01-02T00:00:00Z', ['r2', 'r1']],
      ['from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z', ['r3', 'r2']],
      ['from=2026-01-05T00:00:00Z&to=2026-01-01T00:00:00Z', []],
      ['examId=exam-1&classroomId=class-1&topic=Hàm số', ['r5', 'r1']],
    ];
    for (const [query, expected] of filters) {
      it(`filters by ${query}`, async () => {
        const res = await get(`/v1/analytics/results?${encodeURI(query)}`).expect(200);
        expect(ids(res)).to.deep.equal(expected);
        expect(res.body.data.meta.total).to.equal(expected.length);
      });
    }

    const clamps: Array<[string, { page: number; limit: number }, string[]]> = [
      ['page=2&limit=2', { page: 2, limit: 2 }, ['r3', 'r2']],
      ['limit=0', { page: 1, limit: 1 }, ['r5']],
      ['limit=500', { page: 1, limit: 100 }, ['r5', 'r4', 'r3', 'r2', 'r1']],
      ['page=-3&limit=abc', { page: 1, limit: 20 }, ['r5', 'r4', 'r3', 'r2', 'r1']],
      ['page=9', { page: 9, limit: 20 }, []],
    ];
    for (const [query, meta, expected] of clamps) {
      it(`clamps paging: ${query}`, async () => {
        const res = await get(`/v1/analytics/results?${query}`).expect(200);
        expect(res.body.data.meta).to.deep.include(meta);
        expect(ids(res)).to.deep.equal(expected);
      });
    }

    for (const query of ['gradeLevel=0', 'gradeLevel=x', 'from=soon', 'examId=a%20b', 'topic=', 'unknown=1']) {
      it(`refuses ${query} with 400 VALIDATION_ERROR`, async () => {
        const res = await get(`/v1/analytics/results?${query}`).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      });
    }
  });
});
