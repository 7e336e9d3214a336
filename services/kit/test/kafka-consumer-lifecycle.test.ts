import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { Admin } from 'kafkajs';
import { buildEvent, type EventBus } from '../src/bus/index.js';
import {
  committedOffset,
  FAST_SESSION,
  testAdmin,
  testBus,
  uniqueGroup,
  uniqueTopic,
  waitFor,
} from './support/kafka-helpers.js';

const event = (subject: string, n: number) =>
  buildEvent({ source: 'kit-test', type: 'thing.changed.v1', subject, data: { n } }, new Date());

async function memberIds(admin: Admin, groupId: string): Promise<string[]> {
  const { groups } = await admin.describeGroups([groupId]);
  return (groups[0]?.members ?? []).map((m) => m.memberId);
}

describe('kit consumer lifecycle (real broker)', function () {
  this.timeout(120000);
  let bus: EventBus;
  let admin: Admin;
  before(async () => {
    bus = testBus('kit-lifecycle-test');
    admin = await testAdmin();
  });
  after(async () => {
    await bus.close();
    await admin.disconnect();
  });

  async function topicWithDlq(prefix: string): Promise<string> {
    const topic = uniqueTopic(prefix);
    await bus.ensureTopics([
      { name: topic, partitions: 1 },
      { name: `${topic}.dlq`, partitions: 1 },
    ]);
    return topic;
  }

  it('bus.close() during an in-flight handler lets it finish and commits: the group does not get it again', async () => {
    const topic = await topicWithDlq('kit-stop');
    const groupId = uniqueGroup('kit-stop');
    const first = event('k', 1);
    await bus.publish(topic, [{ key: 'k', value: JSON.stringify(first) }]);
    const own = testBus('kit-stop-a');
    let started = false;
    let finished = false;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await own.consume({
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async () => {
        started = true;
        await gate;
        // Real I/O after the gate, so a stop that did not wait would resolve before this ends.
        await bus.publish(`${topic}.dlq`, [{ key: 'marker', value: 'handler ran to the end' }]);
        finished = true;
      },
    });
    await waitFor('the handler to start', () => started);
    const closing = own.close().then(() => finished);
    setImmediate(release);
    expect(await closing, 'handler finished before close() resolved').to.equal(true);
    expect(await committedOffset(admin, groupId, topic)).to.equal(1);

    const second = event('k', 2);
    await bus.publish(topic, [{ key: 'k', value: JSON.stringify(second) }]);
    const seen: string[] = [];
    const next = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async (e) => void seen.push(e.id),
    });
    await waitFor('the next event', () => seen.includes(second.id));
    await next.stop();
    expect(seen).to.deep.equal([second.id]);
  });

  it('stop() during a retry backoff returns without waiting it out and leaves the message for redelivery', async () => {
    const topic = await topicWithDlq('kit-stop-retry');
    const groupId = uniqueGroup('kit-stop-retry');
    const only = event('k', 1);
    await bus.publish(topic, [{ key: 'k', value: JSON.stringify(only) }]);
    let failures = 0;
    const failing = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      // A backoff longer than the test's timeout: only an interrupted wait lets stop() return.
      retry: { attempts: 5, initialMs: 600_000, maxMs: 600_000 },
      session: FAST_SESSION,
      handle: async () => {
        failures += 1;
        throw new Error('downstream unavailable');
      },
    });
    await waitFor('the first failure', () => failures === 1);
    await failing.stop();
    expect(await committedOffset(admin, groupId, topic)).to.equal(-1);

    const seen: string[] = [];
    const next = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async (e) => void seen.push(e.id),
    });
    await waitFor('the redelivery', () => seen.length === 1);
    await next.stop();
    expect(seen).to.deep.equal([only.id]);
    expect(failures).to.equal(1);
  });

  it('a handler longer than the session timeout keeps its partition: no rebalance, no redelivery', async () => {
    const topic = await topicWithDlq('kit-heartbeat');
    const groupId = uniqueGroup('kit-heartbeat');
    const slow = event('k', 1);
    const after = event('k', 2);
    await bus.publish(topic, [
      { key: 'k', value: JSON.stringify(slow) },
      { key: 'k', value: JSON.stringify(after) },
    ]);
    const deliveries: string[] = [];
    let membersDuring: string[] = [];
    const sessionTimeout = FAST_SESSION.sessionTimeout!;
    const sub = await bus.consume({
      topic,
      groupId,
      fromBeginning: true,
      session: FAST_SESSION,
      handle: async (e) => {
        deliveries.push(e.id);
        if (e.id !== slow.id) return;
        membersDuring = await memberIds(admin, groupId);
        // The scenario itself: work for well over a session timeout (not a wait for settling).
        const until = Date.now() + 2.5 * sessionTimeout;
        await waitFor('the long handler to end', () => Date.now() >= until, 4 * sessionTimeout);
      },
    });
    const redelivered = () => deliveries.filter((id) => id === slow.id).length > 1;
    await waitFor(
      'the event after the slow one, or a redelivery',
      () => deliveries.includes(after.id) || redelivered(),
      60000,
    );
    const membersAfter = await memberIds(admin, groupId);
    await sub.stop();
    expect(deliveries).to.deep.equal([slow.id, after.id]);
    expect(membersDuring).to.have.length(1);
    expect(membersAfter, 'same member: never expired and rejoined').to.deep.equal(membersDuring);
  });

  it("tells onState when the consumer has joined its group (a worker's readiness reads it)", async () => {
    const topic = await topicWithDlq('kit-state');
    const states: string[] = [];
    const own = testBus('kit-state');
    try {
      await own.consume({
        topic,
        groupId: uniqueGroup('kit-state'),
        session: FAST_SESSION,
        handle: async () => undefined,
        onState: (s) => void states.push(s.phase),
      });
      await waitFor('the joined state', () => states.includes('joined'), 30000);
      expect(states).to.not.include('crashed');
    } finally {
      await own.close();
    }
  });

  it('counts what it dead-letters in the service registry: kafka_dead_lettered_total by dead-letter topic', async () => {
    const topic = await topicWithDlq('kit-dlq-metric');
    const registry = new Registry();
    const own = testBus('kit-dlq-metric', 'silent', registry);
    const broken = event('k', 1);
    await bus.publish(topic, [{ key: 'k', value: JSON.stringify(broken) }]);
    const dead = () =>
      registry
        .getSingleMetric('kafka_dead_lettered_total')
        ?.get()
        .then((m) => m.values.find((v) => v.labels.topic === `${topic}.dlq`)?.value ?? 0);
    try {
      await own.consume({
        topic,
        groupId: uniqueGroup('kit-dlq-metric'),
        fromBeginning: true,
        session: FAST_SESSION,
        retry: { attempts: 2, initialMs: 10, maxMs: 20 },
        handle: async () => {
          throw new Error('always fails');
        },
      });
      await waitFor('the dead-lettered count', async () => (await dead()) === 1, 60000);
    } finally {
      await own.close();
    }
  });
});
