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
  type TestAttempt,
} from './support.js';
import { MAX_SAVE_EVENTS } from '../src/domain/answers.js';

type Answer = {
  questionId: string;
  selectedOptionIds: string[];
  serverVersion: number;
  clientVersion: number;
  sourceTabId: string | null;
};

describe('attempt: answers (POST /v1/attempts/{id}/answers)', function () {
  this.timeout(120000);
  let svc: TestAttempt;
  const save = (id: string, body: object, who = student()) =>
    svc.request.post(`/v1/attempts/${id}/answers`).set(headers(who)).send(body);
  const fresh = async (who = student()) => startAs(svc, who, startBody(newExamId()));
  const answerOf = (res: { body: { data: { answers: Answer[] } } }, questionId: string) =>
    res.body.data.answers.find((a) => a.questionId === questionId)!;

  before(async () => {
    svc = await startAttemptService(import.meta.url);
  });
  after(async () => {
    await svc?.close();
  });
  afterEach(() => {
    svc.built.deps.clock = () => new Date();
  });

  it('saves nested or top-level answer fields, increments serverVersion, keeps sourceTabId, records SAVE_ANSWER', async () => {
    const a = await fresh();
    const first = await save(a.id, { questionId: 'q1', answer: { selectedOptionIds: ['o2'] }, sourceTabId: 'tab-1' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(answerOf(first, 'q1')).to.include({ serverVersion: 1, clientVersion: 0, sourceTabId: 'tab-1' });
    expect(answerOf(first, 'q1').selectedOptionIds).to.deep.equal(['o2']);
    const second = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o3'], clientVersion: 1 });
    expect(answerOf(second, 'q1')).to.include({ serverVersion: 2, clientVersion: 1, sourceTabId: 'tab-1' });
    expect(answerOf(second, 'q1').selectedOptionIds).to.deep.equal(['o3']);
    const byExamQuestionId = await save(a.id, { questionId: 'eq3', textAnswer: '0,25' });
    expect(answerOf(byExamQuestionId, 'q3')).to.include({ serverVersion: 1 });
    const events = await svc.request.get(`/v1/attempts/${a.id}/events`).set(headers(student()));
    const types = events.body.data.map((e: { type: string }) => e.type);
    expect(types).to.deep.equal(['START', 'SAVE_ANSWER', 'SAVE_ANSWER', 'SAVE_ANSWER']);
    expect(events.body.data[1].metadata).to.include({ questionId: 'q1', serverVersion: 1 });
  });

  it('refuses a positive clientVersion below the stored version with 409 and the current answer', async () => {
    const a = await fresh();
    await save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'], clientVersion: 5 }).expect(200);
    const stale = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o1'], clientVersion: 3 });
    expect(stale.status).to.equal(409);
    expect(stale.body.error.code).to.equal('ANSWER_VERSION_CONFLICT');
    expect(stale.body.error.details.answer).to.include({ questionId: 'q1', serverVersion: 5 });
    expect(stale.body.error.details.answer.selectedOptionIds).to.deep.equal(['o2']);
    const unversioned = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o4'] });
    expect(answerOf(unversioned, 'q1')).to.include({ serverVersion: 6 });
  });

  it('lets only the owning student save, only into its questions, only while IN_PROGRESS', async () => {
    const a = await fresh(student('owner'));
    const other = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'] }, student('intruder'));
    expect([other.status, other.body.error.code]).to.deep.equal([404, 'ATTEMPT_NOT_FOUND']);
    const teacher = await save(a.id, { questionId: 'q1' }, { userId: 't1', role: 'TEACHER' });
    expect(teacher.status).to.equal(403);
    const foreign = await save(a.id, { questionId: 'q-other', selectedOptionIds: ['o2'] }, student('owner'));
    expect([foreign.status, foreign.body.error.code]).to.deep.equal([400, 'QUESTION_NOT_IN_ATTEMPT']);
    expect(foreign.body.message).to.equal('Câu hỏi không thuộc lượt làm bài này');
    const badOption = await save(a.id, { questionId: 'q1', selectedOptionIds: ['nope'] }, student('owner'));
    expect([badOption.status, badOption.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    const malformed = await save(a.id, { questionId: 'q1', textAnswer: { x: 1 } }, student('owner'));
    expect(malformed.status).to.equal(400);
    await svc.request
      .post(`/v1/attempts/${a.id}/submit`)
      .set(headers(student('owner')))
      .send({})
      .expect(200);
    const locked = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'] }, student('owner'));
    expect([locked.status, locked.body.error.code, locked.body.message]).to.deep.equal([
      409,
      'ATTEMPT_LOCKED',
      'Attempt is locked',
    ]);
    const missing = await save('no-such-attempt', { questionId: 'q1' });
    expect(missing.status).to.equal(404);
  });

  it('past the deadline submits the attempt as TIMEOUT and fails the save with Exam duration expired', async () => {
    const a = await fresh(student('late'));
    await save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'] }, student('late')).expect(200);
    shiftClock(svc, 16 * 60_000);
    const late = await save(a.id, { questionId: 'q3', textAnswer: '0.25' }, student('late'));
    expect([late.status, late.body.error.code, late.body.message]).to.deep.equal([
      409,
      'EXAM_DURATION_EXPIRED',
      'Exam duration expired',
    ]);
    const graded = await svc.request.get(`/v1/attempts/${a.id}`).set(headers(admin()));
    expect(graded.body.data).to.include({ status: 'GRADED', submissionSource: 'TIMEOUT', submittedBy: 'SYSTEM' });
    expect(graded.body.data).to.include({ totalScore: 1, correctCount: 1, durationSeconds: 15 * 60 });
    expect(answerOf(graded, 'q3').serverVersion).to.equal(0);
    const events = await svc.request.get(`/v1/attempts/${a.id}/events`).set(headers(admin()));
    expect(events.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['START', 'SAVE_ANSWER', 'TIMEOUT']);
  });

  it('keeps saving once the event log is full, and refuses client events past their bound (429)', async () => {
    const who = student('chatty');
    const a = await fresh(who);
    await svc.built.deps.models.Attempt.updateOne({ _id: a.id }, { $set: { eventCount: MAX_SAVE_EVENTS } });
    const saved = await save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'] }, who);
    expect(answerOf(saved, 'q1')).to.include({ serverVersion: 1 });
    const events = await svc.request.get(`/v1/attempts/${a.id}/events`).set(headers(who));
    expect(events.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['START']);
    const view = await svc.request.post(`/v1/attempts/${a.id}/events`).set(headers(who)).send({ type: 'TAB_HIDDEN' });
    expect([view.status, view.body.error.code]).to.deep.equal([429, 'RATE_LIMITED']);
  });

  it('never loses the newest of 50 concurrent versioned saves of one answer', async () => {
    const a = await fresh(student('burst'));
    const options = ['o1', 'o2', 'o3', 'o4'];
    const versions = Array.from({ length: 50 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    const results = await Promise.all(
      versions.map((v) =>
        save(
          a.id,
          { questionId: 'q1', selectedOptionIds: [options[v % 4]!], clientVersion: v, sourceTabId: `tab-${v}` },
          student('burst'),
        ),
      ),
    );
    for (const r of results) expect([200, 409], JSON.stringify(r.body)).to.include(r.status);
    expect(results.some((r) => r.status === 200)).to.equal(true);
    const stored = answerOf(await svc.request.get(`/v1/attempts/${a.id}`).set(headers(student('burst'))), 'q1');
    expect(stored).to.include({ clientVersion: 50, serverVersion: 50, sourceTabId: 'tab-50' });
    expect(stored.selectedOptionIds).to.deep.equal([options[50 % 4]]);
    // Every accepted save answered with a version no lower than its own clientVersion.
    for (const r of results.filter((x) => x.status === 200)) {
      const mine = answerOf(r, 'q1');
      expect(mine.serverVersion).to.be.at.least(mine.clientVersion);
    }
  });

  it('never lands a save after grading when it races the submit', async () => {
    for (let round = 0; round < 10; round++) {
      const who = student(`racer-${round}`);
      const a = await fresh(who);
      const [saved, submitted] = await Promise.all([
        save(a.id, { questionId: 'q1', selectedOptionIds: ['o2'] }, who),
        svc.request.post(`/v1/attempts/${a.id}/submit`).set(headers(who)).send({}),
      ]);
      expect(submitted.status).to.equal(200);
      const graded = (await svc.request.get(`/v1/attempts/${a.id}`).set(headers(admin()))).body.data;
      const q1 = graded.answers.find((x: Answer) => x.questionId === 'q1');
      if (saved.status === 200) {
        // The save came first: the grading saw it.
        expect(q1).to.include({ serverVersion: 1, isCorrect: true, score: 1 });
        expect(graded.totalScore).to.equal(1);
      } else {
        expect([saved.status, saved.body.error.code]).to.deep.equal([409, 'ATTEMPT_LOCKED']);
        expect(q1).to.include({ serverVersion: 0, score: 0 });
        expect(graded.totalScore).to.equal(0);
      }
      expect(graded.answers.every((x: { score: number | null }) => x.score !== null)).to.equal(true);
    }
  });
});
