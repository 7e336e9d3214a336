import { expect } from 'chai';
import {
  admin,
  headers,
  newExamId,
  questions,
  startAs,
  startAttemptService,
  startBody,
  student,
  type TestAttempt,
} from './support.js';

const MINUTE = 60_000;

describe('attempt: start (POST /v1/exams/{examId}/attempts and /start)', function () {
  this.timeout(60000);
  let svc: TestAttempt;
  const start = (examId: string, body: object, who = student()) =>
    svc.request.post(`/v1/exams/${examId}/attempts`).set(headers(who)).send(body);
  const expectError = async (examId: string, body: object, status: number, code: string) => {
    const res = await start(examId, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.error.code).to.equal(code);
    return res;
  };

  before(async () => {
    svc = await startAttemptService(import.meta.url);
  });
  after(async () => {
    await svc?.close();
  });

  it('creates an attempt with question copies, empty answers, the result policy and a START event', async () => {
    const examId = newExamId();
    const res = await start(examId, startBody(examId));
    expect(res.status).to.equal(201);
    expect(res.body.message).to.equal('OK');
    const { attempt, created } = res.body.data;
    expect(created).to.equal(true);
    expect(attempt).to.include({ examId, studentId: 's1', status: 'IN_PROGRESS', attemptNumber: 1, maxScore: 4 });
    expect(attempt.questions.map((q: { questionId: string }) => q.questionId)).to.deep.equal(['q1', 'q2', 'q3']);
    expect(attempt.answers.map((a: { serverVersion: number }) => a.serverVersion)).to.deep.equal([0, 0, 0]);
    expect(attempt.resultPolicy).to.deep.include({
      examTitle: 'Kiểm tra 15 phút',
      durationMinutes: 15,
      showResultMode: 'IMMEDIATE',
      resultsReleasedAt: null,
      examStatus: 'PUBLISHED',
    });
    expect(Date.parse(attempt.deadlineAt) - Date.parse(attempt.startedAt)).to.equal(15 * MINUTE);
    expect(attempt).to.include({ resultsVisible: false, hiddenReason: 'ATTEMPT_IN_PROGRESS', totalScore: null });
    const events = await svc.request.get(`/v1/attempts/${attempt.id}/events`).set(headers(student()));
    expect(events.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['START']);
  });

  it('hides answer keys from the student and shows them to an admin', async () => {
    const examId = newExamId();
    const attempt = await startAs(svc, student(), startBody(examId));
    const [q1, q2, q3] = attempt.questions as Array<Record<string, unknown>>;
    expect(q1).to.not.have.property('answerKeys');
    expect((q1!.options as object[]).every((o) => !('isCorrect' in o))).to.equal(true);
    expect((q2!.subItems as object[]).every((s) => !('correctBoolean' in s))).to.equal(true);
    expect(q3).to.not.have.property('answerKeys');
    const asAdmin = await svc.request.get(`/v1/attempts/${attempt.id}`).set(headers(admin()));
    expect(asAdmin.body.data.questions[0].answerKeys).to.deep.equal({ correctOptionIds: ['o2'], correctLabels: ['B'] });
  });

  it('reuses the in-progress attempt (created=false, 200) through the /start alias too', async () => {
    const examId = newExamId();
    const first = await startAs(svc, student('s-reuse'), startBody(examId));
    const again = await svc.request
      .post(`/v1/exams/${examId}/start`)
      .set(headers(student('s-reuse')))
      .send(startBody(examId));
    expect(again.status).to.equal(200);
    expect(again.body.data.created).to.equal(false);
    expect(again.body.data.attempt.id).to.equal(first.id);
  });

  it('makes one attempt of ten concurrent starts', async () => {
    const examId = newExamId();
    const body = startBody(examId);
    const results = await Promise.all(Array.from({ length: 10 }, () => start(examId, body, student('s-race'))));
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.attempt.id)).size).to.equal(1);
    expect(await svc.built.deps.models.Attempt.countDocuments({ examId })).to.equal(1);
  });

  it('refuses each failed validation with its own error', async () => {
    const examId = newExamId();
    await expectError('other-exam', startBody(examId), 400, 'EXAM_ID_MISMATCH');
    const teacherRes = await start(examId, startBody(examId), { userId: 't1', role: 'TEACHER' });
    expect([teacherRes.status, teacherRes.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
    const anonymous = await svc.request.post(`/v1/exams/${examId}/attempts`).send(startBody(examId));
    expect(anonymous.status).to.equal(401);
    await expectError(examId, startBody(examId, { exam: { status: 'DRAFT' } }), 409, 'EXAM_NOT_PUBLISHED');
    await expectError(examId, startBody(examId, { exam: { deliveryMode: 'OFFLINE' } }), 409, 'EXAM_OFFLINE');
    const future = new Date(Date.now() + 10 * MINUTE).toISOString();
    await expectError(examId, startBody(examId, { exam: { openTime: future } }), 409, 'EXAM_NOT_OPEN');
    const past = new Date(Date.now() - MINUTE).toISOString();
    await expectError(examId, startBody(examId, { exam: { closeTime: past } }), 409, 'EXAM_CLOSED');
    const locked = startBody(examId, { exam: { requiresAccessPassword: true } });
    await expectError(examId, locked, 403, 'EXAM_PASSWORD_INVALID');
    await expectError(examId, startBody(examId, { access: { assigned: false } }), 403, 'EXAM_ACCESS_DENIED');
    const inactive = { assigned: false, accessLink: { id: 'l1', active: false } };
    await expectError(examId, startBody(examId, { access: inactive }), 403, 'EXAM_ACCESS_DENIED');
    await expectError(examId, startBody(examId, { questions: [] }), 400, 'EXAM_HAS_NO_QUESTIONS');
    await expectError(examId, startBody(examId, { exam: { durationMinutes: '15' } }), 400, 'VALIDATION_ERROR');
    // A free-form member is stored as given, so a name MongoDB cannot store is refused there.
    const dollar = [{ ...questions()[0], answerKeys: { $where: 'x' } }];
    await expectError(examId, startBody(examId, { questions: dollar }), 400, 'VALIDATION_ERROR');
    expect(await svc.built.deps.models.Attempt.countDocuments({ examId })).to.equal(0);
    const verified = startBody(examId, { exam: { requiresAccessPassword: true }, access: { passwordVerified: true } });
    expect((await start(examId, verified)).status).to.equal(201);
  });

  it('counts earlier attempts against maxAttempts, and access.attemptLimit overrides it', async () => {
    const examId = newExamId();
    const body = startBody(examId, { exam: { maxAttempts: 2 } });
    for (let i = 1; i <= 2; i++) {
      const a = await startAs(svc, student('s-limit'), body);
      expect(a.attemptNumber).to.equal(i);
      await svc.request
        .post(`/v1/attempts/${a.id}/submit`)
        .set(headers(student('s-limit')))
        .send({})
        .expect(200);
    }
    const third = await start(examId, body, student('s-limit'));
    expect([third.status, third.body.error?.code]).to.deep.equal([409, 'ATTEMPT_LIMIT_REACHED']);
    const more = startBody(examId, { exam: { maxAttempts: 2 }, access: { attemptLimit: 3 } });
    expect((await start(examId, more, student('s-limit'))).status).to.equal(201);
  });

  it('limits the distinct guests of an access link, not a returning one', async () => {
    const examId = newExamId();
    const link = { assigned: false, accessLink: { id: 'link-1', active: true, maxStudents: 2 } };
    const body = startBody(examId, { access: link });
    const g1 = await startAs(svc, student('g1'), body);
    await startAs(svc, student('g2'), body);
    const g3 = await start(examId, body, student('g3'));
    expect([g3.status, g3.body.error.code]).to.deep.equal([409, 'ACCESS_LINK_LIMIT_REACHED']);
    await svc.request
      .post(`/v1/attempts/${g1.id}/submit`)
      .set(headers(student('g1')))
      .send({})
      .expect(200);
    expect((await start(examId, body, student('g1'))).status).to.equal(201);
    const assigned = startBody(examId, { access: { ...link, assigned: true } });
    expect((await start(examId, assigned, student('g4'))).status).to.equal(201);
  });

  it('caps the deadline at the close time; no duration and no close time means no deadline', async () => {
    const examId = newExamId();
    const close = new Date(Date.now() + 5 * MINUTE);
    const capped = await startAs(
      svc,
      student('s-cap'),
      startBody(examId, { exam: { closeTime: close.toISOString() } }),
    );
    expect(capped.deadlineAt).to.equal(close.toISOString());
    const open = startBody(examId, { exam: { durationMinutes: null, closeTime: null } });
    expect((await startAs(svc, student('s-open'), open)).deadlineAt).to.equal(null);
  });

  it('shuffles questions and options per attempt when asked, the same order on every reload', async () => {
    const examId = newExamId();
    const many = Array.from({ length: 12 }, (_, i) => ({
      ...questions()[0],
      id: `e${i}`,
      questionId: `q${i}`,
      orderIndex: i,
    }));
    const body = startBody(examId, { exam: { shuffleQuestions: true, shuffleOptions: true }, questions: many });
    const orders = [];
    for (const s of ['sh1', 'sh2', 'sh3']) {
      const a = await startAs(svc, student(s), body);
      const reload = await svc.request.get(`/v1/attempts/${a.id}`).set(headers(student(s)));
      const qs = reload.body.data.questions as Array<{
        questionId: string;
        optionOrder: string[];
        options: Array<{ id: string }>;
      }>;
      expect(qs.map((q) => q.questionId)).to.deep.equal((a.questions as typeof qs).map((q) => q.questionId));
      expect(qs.map((q) => q.questionId).sort()).to.deep.equal(many.map((q) => q.questionId).sort());
      for (const q of qs) expect(q.options.map((o) => o.id)).to.deep.equal(q.optionOrder);
      orders.push(qs.map((q) => q.questionId).join());
    }
    // Three attempts of twelve questions all in the stored order would mean no shuffling.
    expect(orders.some((o) => o !== many.map((q) => q.questionId).join())).to.equal(true);
    const plain = await startAs(svc, student('sh4'), startBody(newExamId(), { questions: many }));
    expect((plain.questions as Array<{ questionId: string }>).map((q) => q.questionId)).to.deep.equal(
      many.map((q) => q.questionId),
    );
  });
});
