import { expect } from 'chai';
import { put, snapshot, startAnalytics, ORG, type TestAnalytics } from './support.js';

const topics = (...labels: string[]) => labels.map((topic) => ({ topic }));
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

describe('analytics weak topics, summaries and events API', function () {
  this.timeout(60000);
  let svc: TestAnalytics;
  before(async () => {
    svc = await startAnalytics(import.meta.url, { ANALYTICS_CONSUMER: 'off' });
  });
  after(() => svc?.close());
  beforeEach(() => svc.clearCollections());

  const get = (path: string) => svc.request.get(path).set('X-Organization-Id', ORG);

  describe('GET /v1/analytics/weak-topics', () => {
    it('derives the contract formula from the matching results', async () => {
      await put(svc, 'a1', snapshot({ weakTopics: topics('Hàm số', 'Hàm số'), submittedAt: day(1) })).expect(200);
      await put(svc, 'a2', snapshot({ weakTopics: topics('Xác suất'), submittedAt: day(2) })).expect(200);
      await put(svc, 'a3', snapshot({ exam: { id: 'other', title: 'x' }, weakTopics: topics('Lượng giác') })).expect(
        200,
      );
      const res = await get('/v1/analytics/weak-topics?examId=exam-1').expect(200);
      expect(res.body.data).to.deep.equal({
        items: [
          { topic: 'Hàm số', topicId: null, wrongCount: 2, attemptCount: 2, accuracy: 0, shouldAlert: true },
          { topic: 'Xác suất', topicId: null, wrongCount: 1, attemptCount: 1, accuracy: 0, shouldAlert: true },
        ],
        resultCount: 2,
      });
    });

    it('uses only the newest 100 matching results, whatever page and limit say', async () => {
      // The 101 rows go in through the service's own model (the HTTP path is covered above).
      const now = new Date();
      const rows = Array.from({ length: 101 }, (_, i) => ({
        _id: `bulk-${String(i).padStart(3, '0')}`,
        organizationId: ORG,
        studentId: 'stu-1',
        examId: 'exam-1',
        student: { id: 'stu-1' },
        exam: { id: 'exam-1', title: 'T' },
        score: 1,
        correctCount: 0,
        wrongCount: 1,
        durationSeconds: 1,
        status: 'GRADED',
        submittedAt: new Date(day(i)),
        weakTopics: topics(i === 0 ? 'oldest' : 'recent'),
        source: { kind: 'SNAPSHOT', eventId: null },
        createdAt: now,
        updatedAt: now,
      }));
      await svc.built.deps.models.Result.insertMany(rows);
      const res = await get('/v1/analytics/weak-topics?page=3&limit=5').expect(200);
      expect(res.body.data.resultCount).to.equal(100);
      expect(res.body.data.items.map((t: { topic: string }) => t.topic)).to.deep.equal(['recent']);
      expect(res.body.data.items[0].wrongCount).to.equal(100);
    });

    it('is empty with no matching results, and refuses a bad filter with 400', async () => {
      const res = await get('/v1/analytics/weak-topics?classroomId=none').expect(200);
      expect(res.body.data).to.deep.equal({ items: [], resultCount: 0 });
      const bad = await get('/v1/analytics/weak-topics?to=tomorrow').expect(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    });
  });

  describe('summaries', () => {
    beforeEach(async () => {
      const rows: Array<[string, Record<string, unknown>]> = [
        ['s1', { score: 6, correctCount: 3, wrongCount: 2, weakTopics: topics('A', 'A') }],
        ['s2', { score: 9, correctCount: 5, wrongCount: 0, weakTopics: [], student: { id: 'stu-2' } }],
        ['s3', { score: 3, correctCount: 1, wrongCount: 4, classroom: { id: 'class-2' }, weakTopics: topics('B') }],
        ['s4', { score: 10, exam: { id: 'exam-2', title: 'Lý' }, weakTopics: topics('C') }],
      ];
      for (const [id, over] of rows) await put(svc, id, snapshot(over)).expect(200);
      await put(svc, 'elsewhere', snapshot({ organizationId: 'org-z', score: 100 })).expect(200);
    });

    it('summarizes an exam: count, mean score, correct and wrong sums, weak topics (within the organization)', async () => {
      const res = await get('/v1/analytics/exams/exam-1/summary').expect(200);
      expect(res.body.data).to.deep.include({
        examId: 'exam-1',
        attemptCount: 3,
        averageScore: 6,
        correctCount: 9,
        wrongCount: 6,
      });
      expect(
        res.body.data.weakTopics.map((t: { topic: string; wrongCount: number }) => [t.topic, t.wrongCount]),
      ).to.deep.equal([
        ['A', 2],
        ['B', 1],
      ]);
    });

    it('summarizes a classroom', async () => {
      const res = await get('/v1/analytics/classrooms/class-2/summary').expect(200);
      expect(res.body.data).to.deep.include({
        classroomId: 'class-2',
        attemptCount: 1,
        averageScore: 3,
        wrongCount: 4,
      });
    });

    it('summarizes a student', async () => {
      const res = await get('/v1/analytics/students/stu-1/summary').expect(200);
      expect(res.body.data).to.deep.include({ studentId: 'stu-1', attemptCount: 3, averageScore: 19 / 3 });
    });

    it('answers 200 with zeros and a null average for an id with no results', async () => {
      const res = await get('/v1/analytics/students/nobody/summary').expect(200);
      expect(res.body.data).to.deep.equal({
        studentId: 'nobody',
        attemptCount: 0,
        averageScore: null,
        correctCount: 0,
        wrongCount: 0,
        weakTopics: [],
      });
    });

    it('refuses an id outside the id alphabet with 400', async () => {
      await get('/v1/analytics/exams/a%20b/summary').expect(400);
    });
  });

  describe('analytics events', () => {
    const actor = { 'X-Actor-Id': 'teacher-1', 'X-Actor-Role': 'TEACHER', 'X-Organization-Id': ORG };
    const post = (body: unknown, headers: Record<string, string> = actor) =>
      svc.request
        .post('/v1/analytics/events')
        .set(headers)
        .send(body as object);

    it('records an event with the actor and organization from the headers', async () => {
      const body = { type: 'report.viewed', entity: 'exam', entityId: 'exam-1', payload: { $set: 1, 'a.b': [1] } };
      const res = await post(body).expect(201);
      expect(res.body.data).to.deep.include({
        type: 'report.viewed',
        actorId: 'teacher-1',
        actorRole: 'TEACHER',
        organizationId: ORG,
        entity: 'exam',
        entityId: 'exam-1',
        studentId: null,
      });
      expect(res.body.data.payload).to.deep.equal({ $set: 1, 'a.b': [1] });
      const listed = await get('/v1/analytics/events').expect(200);
      expect(listed.body.data.items).to.deep.equal([res.body.data]);
    });

    it('lists with filters, newest occurredAt first, and the paging clamp', async () => {
      await post({ type: 'a', studentId: 's1', occurredAt: '2026-01-01T00:00:00Z' }).expect(201);
      await post({ type: 'b', studentId: 's2', occurredAt: '2026-01-03T00:00:00Z' }).expect(201);
      await post({ type: 'a', examId: 'e1', occurredAt: '2026-01-02T00:00:00Z' }).expect(201);
      await post({ type: 'a' }, { 'X-Organization-Id': 'org-z' }).expect(201);
      const types = async (q: string) =>
        (await get(`/v1/analytics/events?${q}`).expect(200)).body.data.items.map(
          (e: { type: string; occurredAt: string }) => e.occurredAt,
        );
      expect(await types('type=a')).to.deep.equal(['2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
      expect(await types('studentId=s2')).to.deep.equal(['2026-01-03T00:00:00.000Z']);
      expect(await types('examId=e1&actorId=teacher-1')).to.deep.equal(['2026-01-02T00:00:00.000Z']);
      expect(await types('from=2026-01-02T00:00:00Z&to=2026-01-02T23:00:00Z')).to.have.length(1);
      const page = await get('/v1/analytics/events?limit=0&page=2').expect(200);
      expect(page.body.data.meta).to.deep.equal({ page: 2, limit: 1, total: 3, totalPages: 3 });
    });

    it('replays the first answer for a repeated Idempotency-Key and records once', async () => {
      const h = { ...actor, 'Idempotency-Key': 'k-1' };
      const first = await post({ type: 'x' }, h).expect(201);
      const again = await post({ type: 'x' }, h).expect(201);
      expect(again.body.data.id).to.equal(first.body.data.id);
      expect(await svc.built.deps.models.AnalyticsEvent.countDocuments({})).to.equal(1);
      const reused = await post({ type: 'y' }, h).expect(409);
      expect(reused.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    });

    it('ignores members it does not use (never stored) and takes the ids nested as result rows spell them', async () => {
      const body = { type: 'a', organizationId: 'org-b', extra: { x: 1 }, student: { id: 's1' }, exam: { id: 'e1' } };
      const res = await post(body).expect(201);
      expect(res.body.data).to.deep.include({ organizationId: ORG, studentId: 's1', examId: 'e1', payload: {} });
      const stored = JSON.stringify(await svc.built.deps.models.AnalyticsEvent.findOne({}).lean());
      expect(stored).to.not.include('org-b');
      expect(stored).to.not.include('extra');
    });

    const bad: Array<[string, unknown]> = [
      ['a missing type', { payload: {} }],
      ['a type with spaces', { type: 'a b' }],
      ['a payload that is not an object', { type: 'a', payload: [1] }],
      ['a payload over 16 KiB', { type: 'a', payload: { big: 'x'.repeat(17 * 1024) } }],
      ['a nested student id that disagrees with studentId', { type: 'a', studentId: 's1', student: { id: 's2' } }],
      ['a flat studentId outside the id alphabet', { type: 'a', student: { id: 'a b' } }],
      ['a bad occurredAt', { type: 'a', occurredAt: 'now' }],
    ];
    for (const [what, body] of bad) {
      it(`refuses ${what} with 400 and records nothing`, async () => {
        const res = await post(body).expect(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(await svc.built.deps.models.AnalyticsEvent.countDocuments({})).to.equal(0);
      });
    }

    it('refuses a malformed actor role header with 400', async () => {
      await post({ type: 'a' }, { 'X-Actor-Role': 'KING' }).expect(400);
    });
  });
});
