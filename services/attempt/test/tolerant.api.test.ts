import { expect } from 'chai';
import {
  headers,
  newExamId,
  questions,
  startAs,
  startAttemptService,
  startBody,
  student,
  type TestAttempt,
} from './support.js';

type Json = Record<string, unknown>;
const paths = (res: { body: { error: { details: Array<{ path: string }> } } }) =>
  res.body.error.details.map((d) => d.path);

// Every member the attempt does not use is named zz…, so "never stored" is one string search.
function withUnusedMembers(examId: string) {
  const body = startBody(examId) as Json & { exam: Json; access: Json; questions: Json[] };
  const [q1, q2, q3] = questions() as Json[];
  const options = (q1!.options as Json[]).map((o) => ({ ...o, zzWeight: 2, contentJson: { ops: [o.content] } }));
  return {
    ...body,
    zzTop: { nested: { deep: true } },
    exam: { ...body.exam, zzPassword: 'secret', zzSettings: { proctoring: { camera: true } } },
    access: { ...body.access, zzToken: 't', accessLink: { id: 'l1', active: true, zzIssuedBy: 'x' } },
    questions: [
      {
        ...q1,
        options,
        scoringRule: { mode: 'EXACT', maxScore: 1, zzLegacy: 'old' },
        zzInternal: { reviewer: 'r1' },
        zzMeta: { $where: 'x', 'a.b': 1 },
        mediaRefs: [{ id: 'm1', url: 'https://cdn.example/m1.png' }],
        group: { id: 'g1', passage: 'Đọc đoạn văn' },
        groupId: 'g1',
      },
      q2,
      q3,
    ],
  };
}

describe('attempt: tolerant readers (start snapshot, events POST)', function () {
  this.timeout(60000);
  let svc: TestAttempt;
  const start = (examId: string, body: object, who = student()) =>
    svc.request.post(`/v1/exams/${examId}/attempts`).set(headers(who)).send(body);
  const stored = (id: string) => svc.built.deps.models.Attempt.collection.findOne({ _id: id as never });

  before(async () => {
    svc = await startAttemptService(import.meta.url);
  });
  after(async () => {
    await svc?.close();
  });

  describe('POST /v1/exams/{examId}/attempts', () => {
    it('accepts members it does not use at every depth and stores none of them', async () => {
      const examId = newExamId();
      const res = await start(examId, withUnusedMembers(examId));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const row = await stored(res.body.data.attempt.id);
      expect(JSON.stringify(row)).not.to.match(/zz|secret|\$where/);
      const q1 = (row!.questions as Json[]).find((q) => q.questionId === 'q1')!;
      // What the student's client renders and what grading reads are kept.
      expect(q1.mediaRefs).to.deep.equal([{ id: 'm1', url: 'https://cdn.example/m1.png' }]);
      expect(q1.group).to.deep.equal({ id: 'g1', passage: 'Đọc đoạn văn' });
      expect(q1.scoringRule).to.deep.equal({ mode: 'EXACT', maxScore: 1 });
      expect((q1.options as Json[])[1]).to.deep.equal({
        id: 'o2',
        label: 'B',
        content: '2',
        isCorrect: true,
        contentJson: { ops: ['2'] },
      });
    });

    it('takes the exam id as exam.id, as examId, or both when they agree', async () => {
      const nested = newExamId();
      expect((await start(nested, startBody(nested))).status).to.equal(201);
      const flat = newExamId();
      const { id: _id, ...examWithoutId } = startBody(flat).exam;
      const res = await start(flat, { ...startBody(flat), exam: examWithoutId, examId: flat });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.attempt.examId).to.equal(flat);
      expect((await stored(res.body.data.attempt.id))!.exam).to.include({ id: flat });
      const both = newExamId();
      expect((await start(both, { ...startBody(both), examId: both })).status).to.equal(201);
    });

    it('refuses exam.id and examId that disagree with 400 VALIDATION_ERROR naming examId', async () => {
      const examId = newExamId();
      const res = await start(examId, { ...startBody(examId), examId: newExamId() });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      expect(paths(res)).to.deep.equal(['examId']);
      expect(await svc.built.deps.models.Attempt.countDocuments({ examId })).to.equal(0);
    });

    it('keeps the path check for the flat spelling (400 EXAM_ID_MISMATCH)', async () => {
      const examId = newExamId();
      const { id: _id, ...examWithoutId } = startBody(examId).exam;
      const res = await start('other-exam', { ...startBody(examId), exam: examWithoutId, examId });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'EXAM_ID_MISMATCH']);
    });

    it('still refuses known members of the wrong type at every depth', async () => {
      const examId = newExamId();
      const base = startBody(examId);
      const [q1, ...rest] = questions() as Json[];
      const withQ1 = (over: Json) => ({ ...base, questions: [{ ...q1, ...over }, ...rest] });
      const cases: Array<[object, string]> = [
        [{ ...base, examId: 5 }, 'examId'],
        [startBody(examId, { exam: { durationMinutes: '15' } }), 'exam.durationMinutes'],
        [startBody(examId, { access: { assigned: 'yes' } }), 'access.assigned'],
        [withQ1({ score: '1' }), 'questions.0.score'],
        [withQ1({ options: [{ id: 'o1', isCorrect: 'true' }] }), 'questions.0.options.0.isCorrect'],
        [withQ1({ scoringRule: { mode: 'EXACT', maxScore: '1' } }), 'questions.0.scoringRule.maxScore'],
        [withQ1({ mediaRefs: 'm1' }), 'questions.0.mediaRefs'],
        [withQ1({ group: { $where: 'x' } }), 'questions.0'],
      ];
      for (const [body, path] of cases) {
        const res = await start(examId, body);
        expect([res.status, res.body.error?.code], path).to.deep.equal([400, 'VALIDATION_ERROR']);
        expect(paths(res), path).to.include(path);
      }
      expect(await svc.built.deps.models.Attempt.countDocuments({ examId })).to.equal(0);
    });
  });

  describe('POST /v1/attempts/{attemptId}/events', () => {
    let attemptId: string;
    const post = (body: object) =>
      svc.request
        .post(`/v1/attempts/${attemptId}/events`)
        .set(headers(student('s-ev')))
        .send(body);
    const storedEvents = async () => ((await stored(attemptId))!.events as Json[]).slice(1);

    beforeEach(async () => {
      attemptId = (await startAs(svc, student('s-ev'), startBody(newExamId()))).id;
    });

    it('accepts members it does not use at every depth and never stores them', async () => {
      const res = await post({
        type: 'QUESTION_VIEW',
        question: { id: 'q1', zzText: 'x' },
        metadata: { ms: 5 },
        zzClient: { build: { sha: 'abc' } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.metadata).to.deep.equal({ ms: 5, questionId: 'q1' });
      const events = await storedEvents();
      expect(events.map((e) => e.metadata)).to.deep.equal([{ ms: 5, questionId: 'q1' }]);
      expect(JSON.stringify(events)).not.to.include('zz');
    });

    it('takes the question as questionId, as question.id, or both when they agree', async () => {
      for (const body of [
        { questionId: 'q1' },
        { question: { id: 'q2' } },
        { questionId: 'q3', question: { id: 'q3' } },
      ]) {
        const res = await post({ type: 'QUESTION_VIEW', ...body });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      }
      const ids = (await storedEvents()).map((e) => (e.metadata as Json).questionId);
      expect(ids).to.deep.equal(['q1', 'q2', 'q3']);
    });

    it('refuses questionId and question.id that disagree with 400 VALIDATION_ERROR naming questionId', async () => {
      const res = await post({ type: 'QUESTION_VIEW', questionId: 'q1', question: { id: 'q2' } });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      expect(paths(res)).to.deep.equal(['questionId']);
      expect(await storedEvents()).to.deep.equal([]);
    });

    it('still refuses known members of the wrong type, values and metadata keys', async () => {
      const cases: Array<[object, string]> = [
        [{ type: 'BOGUS' }, 'type'],
        [{ type: 'QUESTION_VIEW', questionId: 5 }, 'questionId'],
        [{ type: 'QUESTION_VIEW', question: { id: 'a b' } }, 'question.id'],
        [{ type: 'QUESTION_VIEW', question: 'q1' }, 'question'],
        [{ type: 'QUESTION_VIEW', metadata: { 'bad key': 1 } }, 'metadata.bad key'],
        [{ type: 'QUESTION_VIEW', metadata: { nested: { a: 1 } } }, 'metadata.nested'],
        [
          { type: 'QUESTION_VIEW', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) },
          'metadata',
        ],
      ];
      for (const [body, path] of cases) {
        const res = await post(body);
        expect([res.status, res.body.error?.code], path).to.deep.equal([400, 'VALIDATION_ERROR']);
        expect(paths(res), path).to.include(path);
      }
      expect(await storedEvents()).to.deep.equal([]);
    });
  });
});
