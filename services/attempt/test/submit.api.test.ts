import { expect } from 'chai';
import {
  admin,
  headers,
  newExamId,
  shiftClock,
  startAs,
  startAttemptService,
  startBody,
  student,
  teacher,
  type TestAttempt,
} from './support.js';

const HOUR = 3600_000;

describe('attempt: submit, events and results', function () {
  this.timeout(60000);
  let svc: TestAttempt;
  const post = (path: string, body: object, who = student()) => svc.request.post(path).set(headers(who)).send(body);
  const get = (path: string, who = student()) => svc.request.get(path).set(headers(who));

  /** An attempt answered: q1 right, q2 three of four statements right, q3 wrong. */
  async function answered(who = student(), exam: object = {}) {
    const a = await startAs(svc, who, startBody(newExamId(), { exam }));
    await post(`/v1/attempts/${a.id}/answers`, { questionId: 'q1', selectedOptionIds: ['o2'] }, who).expect(200);
    const statements = [
      { label: 'A', value: true },
      { label: 'B', value: false },
      { label: 'C', value: true },
      { label: 'D', value: true },
    ];
    await post(
      `/v1/attempts/${a.id}/answers`,
      { questionId: 'q2', answer: { statementAnswers: statements } },
      who,
    ).expect(200);
    await post(`/v1/attempts/${a.id}/answers`, { questionId: 'q3', textAnswer: '0,5' }, who).expect(200);
    return a;
  }

  before(async () => {
    svc = await startAttemptService(import.meta.url);
  });
  after(async () => {
    await svc?.close();
  });
  afterEach(() => {
    svc.built.deps.clock = () => new Date();
  });

  it('grades from the copied snapshots: totals, counts, per-answer score, submittedBy, duration, SUBMIT event', async () => {
    const a = await answered(student('grade'));
    const res = await post(`/v1/attempts/${a.id}/submit`, { source: 'STUDENT' }, student('grade'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const g = res.body.data;
    // 1 (q1) + 0.5 × 2 (THPT ladder, 3 of 4) + 0 (q3) of 4.
    expect(g).to.include({ status: 'GRADED', totalScore: 2, maxScore: 4, correctCount: 1, wrongCount: 2 });
    expect(g).to.include({
      submittedBy: 'grade',
      submissionSource: 'STUDENT',
      resultsVisible: true,
      hiddenReason: null,
    });
    expect(g.durationSeconds).to.be.a('number').and.at.least(0);
    expect(g.answers.map((x: { score: number }) => x.score)).to.deep.equal([1, 1, 0]);
    expect(g.answers.map((x: { isCorrect: boolean }) => x.isCorrect)).to.deep.equal([true, false, false]);
    const again = await post(`/v1/attempts/${a.id}/submit`, {}, student('grade'));
    expect(again.status).to.equal(200);
    expect(again.body.data.submittedAt).to.equal(g.submittedAt);
    const events = await get(`/v1/attempts/${a.id}/events`, student('grade'));
    expect(events.body.data.map((e: { type: string }) => e.type)).to.deep.equal([
      'START',
      'SAVE_ANSWER',
      'SAVE_ANSWER',
      'SAVE_ANSWER',
      'SUBMIT',
    ]);
    const times = events.body.data.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect(times).to.deep.equal([...times].sort((x: number, y: number) => x - y));
    const result = await get(`/v1/attempts/${a.id}/result`, student('grade'));
    expect(result.body.data.scorePercent).to.equal(50);
  });

  it('refuses TIMEOUT as a submit source from clients, and submits by anyone but the owner', async () => {
    const a = await answered(student('own'));
    expect((await post(`/v1/attempts/${a.id}/submit`, { source: 'TIMEOUT' }, student('own'))).status).to.equal(400);
    expect((await post(`/v1/attempts/${a.id}/submit`, {}, student('else'))).status).to.equal(404);
    expect((await post(`/v1/attempts/${a.id}/submit`, {}, teacher())).status).to.equal(403);
    expect((await get(`/v1/attempts/${a.id}`, student('own'))).body.data.status).to.equal('IN_PROGRESS');
  });

  it('records client events, and a TIMEOUT event submits with source TIMEOUT and returns the graded attempt', async () => {
    const a = await answered(student('ev'));
    const view = await post(
      `/v1/attempts/${a.id}/events`,
      { type: 'QUESTION_VIEW', questionId: 'q2', metadata: { ms: 1200 } },
      student('ev'),
    );
    expect(view.status).to.equal(201);
    expect(view.body.data).to.include({ type: 'QUESTION_VIEW' });
    expect(view.body.data.metadata).to.deep.equal({ ms: 1200, questionId: 'q2' });
    await post(`/v1/attempts/${a.id}/events`, { type: 'TAB_HIDDEN' }, student('ev')).expect(201);
    const bad = await post(`/v1/attempts/${a.id}/events`, { type: 'SUBMIT' }, student('ev'));
    expect(bad.status).to.equal(400);
    const timeout = await post(`/v1/attempts/${a.id}/events`, { type: 'TIMEOUT' }, student('ev'));
    expect(timeout.status).to.equal(200);
    expect(timeout.body.data).to.include({
      status: 'GRADED',
      submissionSource: 'TIMEOUT',
      submittedBy: 'ev',
      totalScore: 2,
    });
    const after = await post(`/v1/attempts/${a.id}/events`, { type: 'TIMEOUT' }, student('ev'));
    expect(after.status).to.equal(201);
    const types = (await get(`/v1/attempts/${a.id}/events`, teacher())).body.data.map((e: { type: string }) => e.type);
    expect(types.slice(-4)).to.deep.equal(['QUESTION_VIEW', 'TAB_HIDDEN', 'TIMEOUT', 'TIMEOUT']);
  });

  it('hides grading by showResultMode: AFTER_CLOSE until close or release, MANUAL until release; staff always see', async () => {
    const close = new Date(Date.now() + HOUR).toISOString();
    const after = await answered(student('ac'), { showResultMode: 'AFTER_CLOSE', closeTime: close });
    await post(`/v1/attempts/${after.id}/submit`, {}, student('ac')).expect(200);
    const hidden = await get(`/v1/attempts/${after.id}/result`, student('ac'));
    expect(hidden.body.data.scorePercent).to.equal(null);
    expect(hidden.body.data.attempt).to.include({ totalScore: null, correctCount: null, wrongCount: null });
    expect(hidden.body.data.attempt).to.include({ resultsVisible: false, hiddenReason: 'RESULTS_AFTER_CLOSE' });
    expect(
      hidden.body.data.attempt.answers.every(
        (x: { score: unknown; isCorrect: unknown }) => x.score === null && x.isCorrect === null,
      ),
    ).to.equal(true);
    const staff = await get(`/v1/attempts/${after.id}/result`, teacher());
    expect(staff.body.data.scorePercent).to.equal(50);
    shiftClock(svc, HOUR + 60_000);
    expect((await get(`/v1/attempts/${after.id}/result`, student('ac'))).body.data.scorePercent).to.equal(50);
    svc.built.deps.clock = () => new Date();

    const release = new Date(Date.now() + 2 * HOUR).toISOString();
    const manual = await answered(student('mn'), { showResultMode: 'MANUAL', resultsReleasedAt: release });
    await post(`/v1/attempts/${manual.id}/submit`, {}, student('mn')).expect(200);
    const notYet = await get(`/v1/attempts/${manual.id}`, student('mn'));
    expect(notYet.body.data).to.include({ totalScore: null, hiddenReason: 'RESULTS_NOT_RELEASED' });
    shiftClock(svc, 2 * HOUR + 60_000);
    expect((await get(`/v1/attempts/${manual.id}`, student('mn'))).body.data).to.include({ totalScore: 2 });
  });

  it('lets students read only their own attempts; teachers and admins read any (organization-scoped when named)', async () => {
    const a = await answered(student('mine'));
    for (const path of [`/v1/attempts/${a.id}`, `/v1/attempts/${a.id}/events`, `/v1/attempts/${a.id}/result`]) {
      expect((await get(path, student('mine'))).status).to.equal(200);
      const other = await get(path, student('theirs'));
      expect([other.status, other.body.error.code]).to.deep.equal([404, 'ATTEMPT_NOT_FOUND']);
      expect((await get(path, teacher())).status).to.equal(200);
      expect((await get(path, admin())).status).to.equal(200);
      expect((await get(path, teacher('t2', 'org-a'))).status).to.equal(200);
      expect((await get(path, teacher('t3', 'org-b'))).status).to.equal(404);
      expect((await get(path, { userId: 'p1', role: 'PARENT' })).status).to.equal(403);
      expect((await svc.request.get(path)).status).to.equal(401);
    }
    const teacherView = (await get(`/v1/attempts/${a.id}`, teacher())).body.data;
    expect(teacherView).to.include({ status: 'IN_PROGRESS', totalScore: null, hiddenReason: 'ATTEMPT_IN_PROGRESS' });
  });

  it('answers 405 with Allow for undeclared methods', async () => {
    const res = await svc.request.delete('/v1/attempts/x/submit').set(headers(student()));
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.match(/POST/);
  });
});
