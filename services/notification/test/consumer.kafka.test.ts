// The weak-topic consumer end to end through the shared test Kafka, on a topic of its own.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { EventBus } from '../../kit/src/bus/index.js';
import { testBus, uniqueGroup, waitFor } from '../../kit/test/support/kafka-helpers.js';
import { testKafkaBrokers } from '../../kit/test/support/servers.js';
import { message, weakTopicEvent } from './events.js';
import { future, headers, startNotification, student, type TestNotification } from './support.js';

describe('notification service: analytics.weak-topic-detected.v1 consumer', function () {
  this.timeout(90000);
  const topic = `analytics.weak-topic-detected.v1.t-${randomUUID()}`;
  let svc: TestNotification;
  let bus: EventBus;

  before(async () => {
    svc = await startNotification(
      import.meta.url,
      {
        NOTIFICATION_CONSUMER: 'kafka',
        NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS: '6000',
        NOTIFICATION_WEAK_TOPIC_TOPIC: topic,
        NOTIFICATION_CONSUMER_GROUP: uniqueGroup('notification'),
      },
      true,
    );
    bus = testBus('notification-test');
  });
  after(async () => {
    await bus?.close();
    await svc?.close();
  });

  const rows = (query: Record<string, unknown>) => svc.built.deps.models.Notification.find(query).lean();
  const processed = (eventId: string) => svc.built.deps.models.ProcessedEvent.exists({ eventId });

  it('turns an event into one notification for the student, even when delivered twice', async () => {
    const event = weakTopicEvent('s-dup');
    const later = weakTopicEvent('s-dup');
    // The same key, so one partition: once `later` is handled, both copies of `event` were.
    await bus.publish(topic, [message(event), message(event), message(later)]);
    await waitFor('the later event', async () => (await rows({ sourceKey: `event:${later.id}` })).length === 1);
    const mine = await rows({ sourceKey: `event:${event.id}` });
    expect(mine).to.have.length(1);
    expect(mine[0]).to.include({ userId: 's-dup', type: 'WEAK_TOPIC_ALERT', organizationId: 'org-1' });
    const page = await svc.request
      .get('/v1/notifications')
      .set(headers(student('s-dup')))
      .expect(200);
    expect(page.body.data.meta.total).to.equal(2);
    expect(page.body.data.items[0].data.topics[0]).to.include({ topic: 'Hàm số', wrongCount: 2 });
  });

  it('stays one notification when the processed-event record is lost (the rows\u2019 unique key)', async () => {
    const event = weakTopicEvent('s-key');
    await bus.publish(topic, [message(event)]);
    await waitFor('the first handling', () => processed(event.id));
    await svc.built.deps.models.ProcessedEvent.deleteMany({ eventId: event.id });
    const later = weakTopicEvent('s-key');
    await bus.publish(topic, [message(event), message(later)]);
    await waitFor('the later event', async () => (await rows({ sourceKey: `event:${later.id}` })).length === 1);
    expect(await rows({ sourceKey: `event:${event.id}` })).to.have.length(1);
  });

  it('creates nothing for a muted student or one who switched the type off', async () => {
    const h = headers(student('s-muted'));
    await svc.request.patch('/v1/notifications/preferences').set(h).send({ mutedUntil: future() }).expect(200);
    await svc.request
      .patch('/v1/notifications/preferences')
      .set(headers(student('s-off')))
      .send({ enabledTypes: { WEAK_TOPIC_ALERT: false } })
      .expect(200);
    const muted = weakTopicEvent('s-muted');
    const off = weakTopicEvent('s-off');
    await bus.publish(topic, [message(muted), message(off)]);
    await waitFor('both handled', async () => (await processed(muted.id)) && (await processed(off.id)));
    expect(await rows({ userId: { $in: ['s-muted', 's-off'] } })).to.have.length(0);
  });

  it('also alerts the parents last resolved for the student', async () => {
    await svc.request
      .post('/v1/alerts/weak-topic')
      .send({
        studentId: 's-kid',
        parentIds: ['p-kid'],
        topics: [{ topic: 'Hình học', wrongCount: 2, attemptCount: 2, accuracy: 0 }],
      })
      .expect(201);
    const event = weakTopicEvent('s-kid');
    await bus.publish(topic, [message(event)]);
    await waitFor('handled', () => processed(event.id));
    const got = await rows({ sourceKey: `event:${event.id}` });
    expect(got.map((r) => r.userId).sort()).to.deep.equal(['p-kid', 's-kid']);
  });

  it('sends an event whose data is not an alert to the dead-letter topic and goes on', async () => {
    const bad = { ...weakTopicEvent('s-bad'), data: { studentId: 's-bad', topics: [] } };
    const client = new Kafka({
      clientId: 'notification-dlq-test',
      brokers: testKafkaBrokers(),
      logLevel: logLevel.NOTHING,
    });
    const dlq: Consumer = client.consumer({
      groupId: uniqueGroup('dlq'),
      sessionTimeout: 6000,
      heartbeatInterval: 500,
    });
    const seen: string[] = [];
    try {
      await dlq.connect();
      await dlq.subscribe({ topic: `${topic}.dlq`, fromBeginning: true });
      await dlq.run({ eachMessage: async ({ message: m }) => void seen.push(JSON.parse(m.value!.toString()).id) });
      const after = weakTopicEvent('s-bad');
      await bus.publish(topic, [{ key: 's-bad', value: JSON.stringify(bad) }, message(after)]);
      await waitFor('the dead letter', () => seen.includes(bad.id));
      await waitFor('the next event', async () => (await rows({ sourceKey: `event:${after.id}` })).length === 1);
      expect(await rows({ sourceKey: `event:${bad.id}` })).to.have.length(0);
    } finally {
      await dlq.disconnect();
    }
  });
});
