// A broker restart in the middle of the weak-topic stream loses nothing: a private Kafka (never
// the shared test broker) is stopped and started again between two bursts of events; afterwards
// every event is exactly one notification.
import { expect } from 'chai';
import { TOPICS } from '../../../kafka/topics.js';
import { createLogger } from '../../kit/src/core/index.js';
import { createKafkaBus, type EventBus } from '../../kit/src/bus/index.js';
import { waitFor } from '../../kit/test/support/kafka-helpers.js';
import { PrivateKafka } from '../../kit/test/support/private-kafka.js';
import { message, weakTopicEvent } from './events.js';
import { startNotification, type TestNotification } from './support.js';

const PER_BURST = 15;

describe('notification service: weak-topic consumer across a broker restart (private Kafka)', function () {
  this.timeout(300000);
  let kafka: PrivateKafka | undefined;
  let svc: TestNotification | undefined;
  let bus: EventBus | undefined;

  before(async () => {
    kafka = await PrivateKafka.start();
    svc = await startNotification(import.meta.url, {
      NOTIFICATION_CONSUMER: 'kafka',
      NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS: '6000',
      KAFKA_BROKERS: kafka.brokers.join(','),
    });
    bus = createKafkaBus({
      brokers: kafka.brokers,
      clientId: 'restart-test',
      logger: createLogger({ name: 't', level: 'silent' }),
    });
  });
  after(async () => {
    await bus?.close().catch(() => undefined);
    await svc?.close();
    await kafka?.dispose();
  });

  /** Publishes, retrying while the broker comes back (a send in flight at the stop may fail). */
  async function publishAll(events: ReturnType<typeof weakTopicEvent>[]) {
    for (const e of events) {
      await waitFor(
        `publish ${e.id}`,
        () =>
          bus!.publish(TOPICS.analyticsWeakTopicDetected, [message(e)]).then(
            () => true,
            () => false,
          ),
        120000,
      );
    }
  }

  it('turns every event into exactly one notification', async () => {
    const first = Array.from({ length: PER_BURST }, (_, i) => weakTopicEvent(`s-a${i}`));
    const second = Array.from({ length: PER_BURST }, (_, i) => weakTopicEvent(`s-b${i}`));
    await publishAll(first);
    await kafka!.restart();
    await publishAll(second);
    const Notification = svc!.built.deps.models.Notification;
    await waitFor('every event handled', async () => (await Notification.countDocuments()) >= 2 * PER_BURST, 180000);
    const got = await Notification.find().lean();
    const keys = got.map((r) => r.sourceKey).sort();
    expect(keys).to.deep.equal([...first, ...second].map((e) => `event:${e.id}`).sort());
  });
});
