// attempt.graded.v1 → analytics → analytics.weak-topic-detected.v1, end to end through a private
// Kafka (never the shared test broker, which this file stops and restarts), with the consumer
// group and topics exactly as in production.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { EVENT_TYPES, TOPICS } from '../../../kafka/topics.js';
import { buildEvent, type PlatformEvent } from '../../kit/src/bus/index.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { uniqueGroup, waitFor } from '../../kit/test/support/kafka-helpers.js';
import { PrivateKafka } from '../../kit/test/support/private-kafka.js';
import { startAnalytics, type TestAnalytics } from './support.js';

type Detected = PlatformEvent<{ studentId: string; attemptId: string; topics: Array<{ topic: string }> }>;

/** A graded attempt as the attempt service publishes it (kafka/schemas/attempt.graded.v1.json). */
function graded(studentId: string, topics: string[], over: Record<string, unknown> = {}): PlatformEvent<unknown> {
  const attemptId = `att-${randomUUID()}`;
  const data = {
    attemptId,
    organizationId: 'org-k',
    student: { id: studentId, fullName: 'Trần Thị B', accountCode: null },
    classroom: { id: 'class-k', name: '12A2' },
    exam: { id: 'exam-k', title: 'Thi thử THPT', subjectId: 'math', gradeLevel: 12 },
    status: 'GRADED',
    submissionSource: 'STUDENT',
    startedAt: '2026-03-01T08:00:00.000Z',
    submittedAt: new Date().toISOString(),
    durationSeconds: 1200,
    totalScore: 6.5,
    maxScore: 10,
    scorePercent: 65,
    correctCount: 13,
    wrongCount: topics.length,
    questionCount: 13 + topics.length,
    wrongAnswerTopics: topics.map((topic, i) => ({ questionId: `q-${i}`, topicId: null, topic })),
    ...over,
  };
  const event = buildEvent(
    { source: 'attempt', type: EVENT_TYPES.attemptGraded, subject: attemptId, data },
    new Date(),
  );
  return event;
}

function validGraded(studentId: string, topics: string[]): PlatformEvent<unknown> {
  const event = graded(studentId, topics);
  expectValidEvent(event, TOPICS.attemptGraded);
  return event;
}

describe('analytics: attempt.graded.v1 in, weak-topic alerts out (private Kafka)', function () {
  this.timeout(480000);
  let kafka: PrivateKafka | undefined;
  let svc: TestAnalytics | undefined;
  let producer: Producer | undefined;
  const readers: Consumer[] = [];

  before(async () => {
    kafka = await PrivateKafka.start();
    svc = await startAnalytics(import.meta.url, { OUTBOX_PUBLISHER: 'kafka', KAFKA_BROKERS: kafka.brokers.join(',') });
    producer = client().producer({ allowAutoTopicCreation: false });
    await producer.connect();
  });
  after(async () => {
    await Promise.allSettled(readers.map((r) => r.disconnect()));
    await producer?.disconnect().catch(() => undefined);
    await svc?.close();
    await kafka?.dispose();
  });

  const client = () => new Kafka({ clientId: 'analytics-test', brokers: kafka!.brokers, logLevel: logLevel.NOTHING });

  async function publish(events: Array<PlatformEvent<unknown>>, topic: string = TOPICS.attemptGraded): Promise<void> {
    const messages = events.map((e) => ({ key: e.subject, value: JSON.stringify(e) }));
    await producer!.send({ topic, acks: -1, messages });
  }

  /** Everything on a topic from the beginning, as parsed values (a fresh group each time). */
  async function read(topic: string): Promise<Detected[]> {
    const arrivals: Detected[] = [];
    const c = client().consumer({
      groupId: uniqueGroup('analytics-read'),
      sessionTimeout: 6000,
      heartbeatInterval: 500,
    });
    readers.push(c);
    await c.connect();
    await c.subscribe({ topic, fromBeginning: true });
    await c.run({
      eachMessage: async ({ message }) => {
        const e = JSON.parse(message.value?.toString() ?? 'null') as Detected;
        expect(message.key?.toString()).to.equal(e.subject);
        arrivals.push(e);
      },
    });
    return arrivals;
  }

  const resultCount = (filter: Record<string, unknown>) => svc!.built.deps.models.Result.countDocuments(filter);
  const forStudent = (arrivals: Detected[], studentId: string) => {
    const seen = new Map<string, Detected>();
    for (const a of arrivals) if (a.data.studentId === studentId) seen.set(a.id, a);
    return [...seen.values()];
  };

  it('projects a graded attempt, alerts once per crossing, skips a redelivery and dead-letters a broken event', async () => {
    const alerts = await read(TOPICS.analyticsWeakTopicDetected);
    const student = `stu-${randomUUID()}`;
    const first = validGraded(student, ['Hàm số', 'Hàm số']);
    await publish([first]);
    await waitFor('the first result', async () => (await resultCount({ _id: first.subject })) === 1, 60000);
    const res = await svc!.request.get(`/v1/analytics/results?studentId=${student}`).expect(200);
    expect(res.body.data.items[0]).to.deep.include({ attemptId: first.subject, score: 6.5, wrongCount: 2 });
    expect(res.body.data.items[0].weakTopics.map((t: { topic: string }) => t.topic)).to.deep.equal([
      'Hàm số',
      'Hàm số',
    ]);

    // The same event again, then the same topic again: no new crossing. Then a new topic: one more.
    const second = validGraded(student, ['Hàm số']);
    const third = validGraded(student, ['Xác suất', 'Hàm số']);
    await publish([first, second]);
    await waitFor('the second result', async () => (await resultCount({ _id: second.subject })) === 1, 60000);
    await publish([third]);
    // Alerts of one student share a key, so the third's alert arrives after any earlier one.
    await waitFor('the alert of the third attempt', () => forStudent(alerts, student).length >= 2, 120000);
    const mine = forStudent(alerts, student);
    expect(mine.map((a) => [a.data.attemptId, a.data.topics.map((t) => t.topic)])).to.deep.equal([
      [first.subject, ['Hàm số']],
      [third.subject, ['Xác suất']],
    ]);
    for (const a of mine) expectValidEvent(a, TOPICS.analyticsWeakTopicDetected);
    expect(await resultCount({ studentId: student })).to.equal(3);
    const processed = await svc!.built.deps.models.ProcessedEvent.countDocuments({ eventId: first.id });
    expect(processed).to.equal(1);

    const dead = await read(TOPICS.attemptGradedDlq);
    const broken = graded(student, ['X'], { totalScore: 'seven' });
    await publish([broken]);
    await waitFor('the broken event on the dead-letter topic', () => dead.some((d) => d.id === broken.id), 60000);
    expect(await resultCount({ _id: broken.subject })).to.equal(0);
  });

  it('loses nothing across a broker restart: every graded attempt projected, every alert published once', async () => {
    const before = Array.from({ length: 20 }, (_, i) => validGraded(`stu-r-${i}-${randomUUID()}`, [`Chủ đề ${i}`]));
    await publish(before);
    await waitFor('the consumer at work', async () => (await resultCount({ _id: { $in: ids(before) } })) >= 1, 60000);
    await kafka!.stop();
    // The outage lasts until the service itself sees the broker gone: /readyz reports it, still 200
    // (readiness gates on MongoDB only; the service stays in rotation through a Kafka outage).
    const kafkaDown = async () => {
      const r = await svc!.request.get('/readyz');
      const check = (r.body as { data?: { checks?: { kafka?: string } } }).data?.checks?.kafka ?? '';
      return r.status === 200 && check.startsWith('fail');
    };
    await waitFor('readiness to report Kafka down while staying 200', kafkaDown, 60000);
    await kafka!.restart();
    await producer!.disconnect().catch(() => undefined);
    producer = client().producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const after = Array.from({ length: 10 }, (_, i) => validGraded(`stu-r2-${i}-${randomUUID()}`, [`Đề tài ${i}`]));
    await publish(after);

    const all = [...before, ...after];
    await waitFor('every result', async () => (await resultCount({ _id: { $in: ids(all) } })) === all.length, 240000);
    const alerts = await read(TOPICS.analyticsWeakTopicDetected);
    const students = new Set(all.map((e) => (e.data as { student: { id: string } }).student.id));
    const alertsOf = () => alerts.filter((a) => students.has(a.data.studentId));
    await waitFor(
      'an alert per student',
      () => new Set(alertsOf().map((a) => a.data.studentId)).size === students.size,
      240000,
    );
    const distinct = new Map(alertsOf().map((a) => [a.id, a]));
    expect(distinct.size, 'one alert per student, never two').to.equal(students.size);
    for (const a of distinct.values()) expectValidEvent(a, TOPICS.analyticsWeakTopicDetected);
  });
});

const ids = (events: Array<PlatformEvent<unknown>>) => events.map((e) => e.subject);
