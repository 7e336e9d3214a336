import { expect } from 'chai';
import { TOPICS } from '../../../kafka/topics.js';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { uniqueGroup, waitFor } from '../../kit/test/support/kafka-helpers.js';
import { testKafkaBrokers } from '../../kit/test/support/servers.js';
import { choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

interface Change {
  questionId: string;
  sourceVersion: number;
  operation: 'UPSERT' | 'DELETE';
  document: Record<string, unknown> | null;
}

describe('question bank: search projection outbox to Kafka', function () {
  this.timeout(120000);
  let svc: TestQuestionBank;
  let consumer: Consumer;
  const seen = new Map<string, Array<{ id: string; data: Change }>>();

  before(async () => {
    svc = await startQuestionBank(import.meta.url, { OUTBOX_PUBLISHER: 'kafka' }, true);
    // A plain reader (no dead-letter topic: this test only watches what the relay sends).
    const kafka = new Kafka({ clientId: 'qb-outbox-test', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: uniqueGroup('qb-outbox-test'), sessionTimeout: 6000, heartbeatInterval: 500 });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPICS.searchProjectionChanged, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message: m }) => {
        const event = JSON.parse(m.value?.toString() ?? 'null') as { id: string; subject: string; data: Change };
        expect(m.key?.toString()).to.equal(event.subject);
        const list = seen.get(event.data.questionId) ?? [];
        list.push({ id: event.id, data: event.data });
        seen.set(event.data.questionId, list);
        expectValidEvent(event, TOPICS.searchProjectionChanged);
      },
    });
  });
  after(async () => {
    await consumer?.disconnect();
    await svc?.close();
  });

  it('publishes every write per question in order, increasing sourceVersion, tombstone last, no answer keys', async () => {
    const h = headers(teacher());
    const q = await createAs(
      svc,
      teacher(),
      choiceBody({ answerKeys: { correctLabels: ['A'] }, sourceMetadataJson: { secret: 'raw' } }),
    );
    await svc.request.patch(`/v1/questions/${q.id}`).set(h).send({ content: 'Sửa lần 1' }).expect(200);
    await svc.request
      .patch(`/v1/questions/${q.id}`)
      .set(h)
      .send({ tags: ['Mới'] })
      .expect(200);
    await svc.request
      .patch('/v1/questions/bulk-status')
      .set(h)
      .send({ ids: [q.id], status: 'PUBLISHED' })
      .expect(200);
    // A failed write (invalid) announces nothing.
    await svc.request
      .patch(`/v1/questions/${q.id}`)
      .set(h)
      .send({ options: [{ content: 'x' }] })
      .expect(409);
    await svc.request.delete(`/v1/questions/${q.id}`).set(h).expect(200);

    const found = await waitFor('five events of the question', () => {
      const list = seen.get(q.id) ?? [];
      return list.some((e) => e.data.operation === 'DELETE') && list.length >= 5 ? list : null;
    });
    const events = found!;
    expect(events.map((e) => e.data.sourceVersion)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(events.map((e) => e.data.operation)).to.deep.equal(['UPSERT', 'UPSERT', 'UPSERT', 'UPSERT', 'DELETE']);
    expect(events.map((e) => e.id)).to.deep.equal([1, 2, 3, 4, 5].map((v) => `${q.id}:${v}`));
    expect(events[1]!.data.document).to.include({ content: 'Sửa lần 1' });
    expect(events[3]!.data.document).to.include({ status: 'PUBLISHED' });
    expect(events[4]!.data.document).to.equal(null);
    const text = JSON.stringify(events);
    for (const hidden of ['answerKeys', 'isCorrect', 'sourceMetadataJson', 'raw', 'correctLabels'])
      expect(text).to.not.include(hidden);
  });

  it('leaves no stamp behind in the owner document and marks entries published', async () => {
    const q = await createAs(svc, teacher());
    await waitFor('the create event', () => seen.get(q.id)?.length === 1);
    const row = await svc.db.conn.collection('questions').findOne({ _id: q.id as never });
    expect(row?._outbox ?? []).to.deep.equal([]);
    await waitFor(
      'the entry to leave the pending outbox',
      async () => (await svc.db.conn.collection('outbox').countDocuments({ key: q.id })) === 0,
    );
  });
});
