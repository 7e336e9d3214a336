import { expect } from 'chai';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { TOPICS } from '../../../kafka/topics.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { uniqueGroup } from '../../kit/test/support/kafka-helpers.js';
import { testKafkaBrokers } from '../../kit/test/support/servers.js';
import {
  headers,
  newExamId,
  startAs,
  startAttemptService,
  startBody,
  student,
  waitFor,
  type TestAttempt,
} from './support.js';

interface Graded {
  id: string;
  subject: string;
  data: Record<string, unknown> & { attemptId: string };
}

describe('attempt: attempt.graded.v1 through the outbox relay to Kafka', function () {
  this.timeout(120000);
  let svc: TestAttempt;
  let consumer: Consumer;
  const seen: Graded[] = [];

  before(async () => {
    svc = await startAttemptService(import.meta.url, { OUTBOX_PUBLISHER: 'kafka' }, true);
    const kafka = new Kafka({
      clientId: 'attempt-graded-test',
      brokers: testKafkaBrokers(),
      logLevel: logLevel.NOTHING,
    });
    consumer = kafka.consumer({
      groupId: uniqueGroup('attempt-graded-test'),
      sessionTimeout: 6000,
      heartbeatInterval: 500,
    });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPICS.attemptGraded, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message: m }) => {
        const event = JSON.parse(m.value?.toString() ?? 'null') as Graded;
        expect(m.key?.toString()).to.equal(event.subject);
        expectValidEvent(event, TOPICS.attemptGraded);
        seen.push(event);
      },
    });
  });
  after(async () => {
    await consumer?.disconnect();
    await svc?.close();
  });

  it('publishes one valid event per graded attempt, keyed by the attempt id, not again on a repeated submit', async () => {
    const who = student('kafka-student');
    const a = await startAs(svc, who, startBody(newExamId()));
    await svc.request
      .post(`/v1/attempts/${a.id}/answers`)
      .set(headers(who))
      .send({ questionId: 'q1', selectedOptionIds: ['o1'] });
    await svc.request.post(`/v1/attempts/${a.id}/submit`).set(headers(who)).send({}).expect(200);
    await svc.request.post(`/v1/attempts/${a.id}/submit`).set(headers(who)).send({}).expect(200);
    const mine = await waitFor(
      async () => {
        const got = seen.filter((e) => e.subject === a.id);
        return got.length > 0 ? got : undefined;
      },
      60000,
      'the graded event on Kafka',
    );
    expect(mine[0]!.id).to.equal(`${a.id}.graded`);
    expect(mine[0]!.data).to.include({ attemptId: a.id, submissionSource: 'STUDENT', totalScore: 0, wrongCount: 1 });
    expect(mine[0]!.data.wrongAnswerTopics).to.deep.equal([
      { questionId: 'q1', topicId: 'tp-add', topic: 'Phép cộng' },
    ]);
    // The relay marks it published; a repeated submit added no second entry.
    const { Entry, Published } = svc.built.deps.outbox.models;
    await waitFor(
      async () => ((await Published.countDocuments({ key: a.id })) === 1 ? true : undefined),
      30000,
      'published',
    );
    expect(await Entry.countDocuments({ key: a.id })).to.equal(0);
    expect(new Set(seen.filter((e) => e.subject === a.id).map((e) => e.id)).size).to.equal(1);
  });
});
