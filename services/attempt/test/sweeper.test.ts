import { expect } from 'chai';
import { TOPICS } from '../../../kafka/topics.js';
import { testDbName } from '../../kit/test/support/servers.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import {
  admin,
  headers,
  newExamId,
  questions,
  shiftClock,
  startAs,
  startAttemptService,
  startBody,
  student,
  waitFor,
  type TestAttempt,
} from './support.js';

const MINUTE = 60_000;

describe('attempt: the sweeper grades abandoned attempts once, with two replicas on one database', function () {
  this.timeout(120000);
  let a: TestAttempt;
  let b: TestAttempt;

  before(async () => {
    // Both replicas on one database, each sweeping every 20 ms once their clocks pass the deadlines.
    const env = { MONGODB_DB: testDbName('attempt', import.meta.url), ATTEMPT_SWEEP_INTERVAL_MS: '20' };
    a = await startAttemptService(import.meta.url, env);
    b = await startAttemptService(import.meta.url, env);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('submits each abandoned attempt with source TIMEOUT exactly once and announces it once on attempt.graded.v1', async () => {
    const examId = newExamId();
    const qs = questions().map((q) => (q.questionId === 'q3' ? { ...q, topicId: 'tp-frac', topicName: 'Phân số' } : q));
    const body = startBody(examId, { questions: qs });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const who = student(`abandoned-${i}`);
      const started = await startAs(i % 2 ? b : a, who, body);
      await (i % 2 ? a : b).request
        .post(`/v1/attempts/${started.id}/answers`)
        .set(headers(who))
        .send({ questionId: 'q3', textAnswer: '0.3' })
        .expect(200);
      ids.push(started.id);
    }
    const live = await startAs(a, student('still-working'), startBody(newExamId(), { exam: { durationMinutes: 60 } }));
    shiftClock(a, 20 * MINUTE);
    shiftClock(b, 20 * MINUTE);

    const Attempt = a.built.deps.models.Attempt;
    await waitFor(
      async () =>
        (await Attempt.countDocuments({ _id: { $in: ids }, status: 'GRADED' })) === ids.length ? true : undefined,
      60000,
      'the sweepers to grade every abandoned attempt',
    );
    for (const id of ids) {
      const got = (await a.request.get(`/v1/attempts/${id}`).set(headers(admin()))).body.data;
      expect(got).to.include({
        status: 'GRADED',
        submissionSource: 'TIMEOUT',
        submittedBy: 'SYSTEM',
        durationSeconds: 15 * 60,
      });
      expect(got).to.include({ totalScore: 0, wrongCount: 1, correctCount: 0 });
      const events = (await b.request.get(`/v1/attempts/${id}/events`).set(headers(admin()))).body.data;
      expect(events.filter((e: { type: string }) => e.type === 'TIMEOUT')).to.have.length(1);
      expect(events.filter((e: { type: string }) => e.type === 'SUBMIT')).to.have.length(0);
    }
    expect((await a.request.get(`/v1/attempts/${live.id}`).set(headers(admin()))).body.data.status).to.equal(
      'IN_PROGRESS',
    );

    const { Entry, Published } = a.built.deps.outbox.models;
    const rows = [
      ...(await Entry.find({ key: { $in: ids } }).lean()),
      ...(await Published.find({ key: { $in: ids } }).lean()),
    ];
    expect(rows.map((r) => r.key).sort()).to.deep.equal([...ids].sort());
    for (const row of rows) {
      expect(row.topic).to.equal(TOPICS.attemptGraded);
      const event = JSON.parse(row.envelope) as { subject: string; data: Record<string, unknown> };
      expectValidEvent(event, TOPICS.attemptGraded);
      expect(event.data).to.deep.include({
        attemptId: event.subject,
        organizationId: 'org-a',
        classroom: { id: 'c10a1', name: '10A1' },
        exam: { id: examId, title: 'Kiểm tra 15 phút', subjectId: 'math', gradeLevel: 10 },
        status: 'GRADED',
        submissionSource: 'TIMEOUT',
        totalScore: 0,
        maxScore: 4,
        scorePercent: 0,
        correctCount: 0,
        wrongCount: 1,
        questionCount: 3,
        durationSeconds: 900,
      });
      expect(event.data.wrongAnswerTopics).to.deep.equal([{ questionId: 'q3', topicId: 'tp-frac', topic: 'Phân số' }]);
      expect((event.data.student as { fullName: string }).fullName).to.equal('Nguyễn Văn A');
    }
  });
});
