// The platform as one system, end to end through Kafka: students submit in the attempt service,
// its outbox publishes attempt.graded.v1, the analytics service projects each result and publishes
// analytics.weak-topic-detected.v1 for the crossings, and the notification service turns those into
// one WEAK_TOPIC_ALERT per student. The three real services share a private broker, which is
// restarted between two bursts of submissions: nothing is lost and nothing is doubled.
import { expect } from 'chai';
import { startAnalytics, type TestAnalytics } from '../../analytics/test/support.js';
import {
  headers,
  newExamId,
  startAs,
  startAttemptService,
  startBody,
  student,
  type TestAttempt,
} from '../../attempt/test/support.js';
import { waitFor } from '../../kit/test/support/kafka-helpers.js';
import { PrivateKafka } from '../../kit/test/support/private-kafka.js';
import { startNotification, type TestNotification } from './support.js';

const PER_BURST = 3;

describe('platform chain: attempt → analytics → notification through Kafka (private broker restarted)', function () {
  this.timeout(300000);
  let kafka: PrivateKafka | undefined;
  let attempt: TestAttempt | undefined;
  let analytics: TestAnalytics | undefined;
  let notification: TestNotification | undefined;
  const examId = newExamId();

  before(async () => {
    kafka = await PrivateKafka.start();
    const brokers = { KAFKA_BROKERS: kafka.brokers.join(',') };
    attempt = await startAttemptService(import.meta.url, {
      ...brokers,
      OUTBOX_PUBLISHER: 'kafka',
      ATTEMPT_SWEEP_INTERVAL_MS: '0',
    });
    analytics = await startAnalytics(import.meta.url, { ...brokers, OUTBOX_PUBLISHER: 'kafka' });
    notification = await startNotification(import.meta.url, {
      ...brokers,
      NOTIFICATION_CONSUMER: 'kafka',
      NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS: '6000',
    });
  });
  after(async () => {
    await notification?.close();
    await analytics?.close();
    await attempt?.close();
    await kafka?.dispose();
  });

  /** A student answers the single-choice question wrong and submits; returns the attempt id. */
  async function submitWrong(studentId: string): Promise<string> {
    const who = student(studentId);
    const started = await startAs(attempt!, who, startBody(examId));
    const save = await attempt!.request
      .post(`/v1/attempts/${started.id}/answers`)
      .set(headers(who))
      .send({ questionId: 'q1', selectedOptionIds: ['o1'] });
    expect(save.status).to.equal(200);
    const submit = await attempt!.request
      .post(`/v1/attempts/${started.id}/submit`)
      .set(headers(who))
      .send({ source: 'STUDENT' });
    expect(submit.status).to.equal(200);
    return started.id;
  }

  it('projects every graded attempt and notifies each student once, across a broker restart', async () => {
    const students = Array.from({ length: 2 * PER_BURST }, (_, i) => `chain-s${i}`);
    const attempts: string[] = [];
    for (const s of students.slice(0, PER_BURST)) attempts.push(await submitWrong(s));
    await kafka!.restart();
    for (const s of students.slice(PER_BURST)) attempts.push(await submitWrong(s));

    const Notification = notification!.built.deps.models.Notification;
    const alerts = () => Notification.find({ type: 'WEAK_TOPIC_ALERT' }).lean();
    await waitFor(
      'a weak-topic alert for every student',
      async () => (await alerts()).length >= students.length,
      240000,
    );

    const results = await analytics!.request
      .get('/v1/analytics/results')
      // Read as the platform (no user): every projected attempt, whatever its organization.
      .query({ examId, limit: 100 });
    expect(results.status).to.equal(200);
    const projected = (results.body.data.items as Array<{ attemptId: string }>).map((r) => r.attemptId);
    expect(projected.sort()).to.deep.equal([...attempts].sort());
    const got = await alerts();
    expect(got.map((n) => n.userId).sort()).to.deep.equal([...students].sort());
    expect(got.every((n) => String(n.body).includes('Phép cộng'))).to.equal(true);
  });
});
