// bench/outbox: commit-to-Kafka latency of the kit's outbox at fixed event rates and the relay's
// top throughput, beside a bare producer send (bus.publish) measured in the same run, so the
// figures read as ratios on a noisy machine. Commit = the owner write (with its move) returned;
// arrival = a consumer in this process received the event; one clock.
//   node --import tsx bench/outbox/run.ts   (make bench-outbox)
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import {
  cloudEventHeaders,
  eventIdFromHeaders,
  type BusMessage,
  type EventBus,
} from '../../services/kit/src/bus/index.js';
import { createOutbox, createOutboxRelay, type Outbox } from '../../services/kit/src/data/index.js';
import { openDb, silent, testBus, thingModel, writeThing } from '../../services/kit/test/support/outbox-fixture.js';
import { fmt, summarize, type LatencySummary } from '../lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? '10000');
const BATCH = 500;
const KEYS = 100;
const mongoUri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27037/';
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:19192').split(',');
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Arrival times by event id (`ce_id` header), from one consumer per topic. */
async function watch(bus: EventBus, topic: string, arrived: Map<string, number>) {
  // The producer retries until a new topic's metadata is everywhere; a fresh consumer does not.
  await bus.publish(topic, [{ key: 'warm-up', value: null }]);
  return bus.subscribe({
    topic,
    groupId: `bench-${randomUUID()}`,
    fromBeginning: true,
    deadLetterTopic: false,
    handle: async (m) => {
      const id = eventIdFromHeaders(m.headers);
      if (id && !arrived.has(id)) arrived.set(id, clock());
    },
  });
}

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 120000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Starts `op` every 1/rate s for SECONDS; returns each op's start ("due") or commit time by id. */
async function paced(rate: number, op: (i: number) => Promise<[string, number]>): Promise<Map<string, number>> {
  const total = Math.round(rate * SECONDS);
  const start = clock();
  const times = new Map<string, number>();
  const inflight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i += 1) {
    const wait = start + (i * 1000) / rate - clock();
    if (wait > 0) await sleep(wait);
    inflight.push(op(i).then(([id, t]) => void times.set(id, t)));
  }
  await Promise.all(inflight);
  return times;
}

async function latency(times: Map<string, number>, arrived: Map<string, number>): Promise<LatencySummary> {
  await until(() => [...times.keys()].every((id) => arrived.has(id)), 'every event to arrive');
  return summarize([...times].map(([id, t]) => arrived.get(id)! - t));
}

function bareMessage(i: number): BusMessage {
  const id = randomUUID();
  const value = JSON.stringify({ id, data: { i } });
  return { key: `thing-${i % KEYS}`, value, headers: cloudEventHeaders(id, value) };
}

async function outboxAt(outbox: Outbox, topic: string, rate: number, arrived: Map<string, number>) {
  const times = await paced(rate, async (i) => {
    const id = await writeThing(outbox, topic, `thing-${i % KEYS}`, i);
    return [id, clock()];
  });
  return latency(times, arrived);
}

async function bareAt(bus: EventBus, topic: string, rate: number, arrived: Map<string, number>) {
  const times = await paced(rate, async (i) => {
    const m = bareMessage(i);
    const t = clock();
    await bus.publish(topic, [m]);
    return [eventIdFromHeaders(m.headers)!, t];
  });
  return latency(times, arrived);
}

async function relayThroughput(outbox: Outbox, bus: EventBus, topic: string): Promise<number> {
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < BACKLOG; i += 8) await writeThing(outbox, topic, `backlog-${i % KEYS}`, i);
    }),
  );
  const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m), batchSize: BATCH });
  const t0 = clock();
  relay.start();
  await until(async () => (await outbox.models.Entry.countDocuments({ status: 'pending' })) === 0, 'the backlog');
  const perSecond = BACKLOG / ((clock() - t0) / 1000);
  await relay.stop();
  return perSecond;
}

async function bareThroughput(bus: EventBus, topic: string): Promise<number> {
  const t0 = clock();
  for (let sent = 0; sent < BACKLOG; sent += BATCH) {
    await bus.publish(
      topic,
      Array.from({ length: BATCH }, (_, i) => bareMessage(sent + i)),
    );
  }
  return BACKLOG / ((clock() - t0) / 1000);
}

const line = (label: string, s: LatencySummary) =>
  `${label}: p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms (${s.count} events)`;

async function main(): Promise<void> {
  const db = await openDb(mongoUri, `edu_outbox_bench_${process.pid}`);
  const bus = testBus(brokers);
  const topics = { outbox: `bench-outbox.${randomUUID()}`, bare: `bench-bare.${randomUUID()}` };
  const backlog = { outbox: `bench-outbox-backlog.${randomUUID()}`, bare: `bench-bare-backlog.${randomUUID()}` };
  const all = [...Object.values(topics), ...Object.values(backlog)];
  await bus.ensureTopics(all.map((name) => ({ name, partitions: 3 })));
  const outbox = createOutbox({ db, owners: [thingModel(db)], logger: silent });
  const arrived = new Map<string, number>();
  const subs = [];
  for (const t of Object.values(topics)) subs.push(await watch(bus, t, arrived));
  const relay = createOutboxRelay({ outbox, publish: (t, m) => bus.publish(t, m), batchSize: BATCH });
  relay.start();
  try {
    await writeThing(outbox, topics.outbox, 'warm-up', 0);
    await bus.publish(topics.bare, [bareMessage(0)]);
    await until(() => arrived.size >= 2, 'the warm-up events');
    const results: string[] = [];
    for (const rate of [200, 500]) {
      const bare = await bareAt(bus, topics.bare, rate, arrived);
      const ob = await outboxAt(outbox, topics.outbox, rate, arrived);
      results.push(line(`  ${rate}/s bare bus.publish send->arrival`, bare));
      results.push(line(`  ${rate}/s outbox commit->arrival       `, ob));
      results.push(`  ${rate}/s ratio outbox/bare: p50 ${fmt(ob.p50 / bare.p50, 2)}, p99 ${fmt(ob.p99 / bare.p99, 2)}`);
    }
    await relay.stop();
    const relayRate = await relayThroughput(outbox, bus, backlog.outbox);
    const bareRate = await bareThroughput(bus, backlog.bare);
    console.log(
      `outbox benchmark on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, ${SECONDS}s per rate`,
    );
    console.log(results.join('\n'));
    console.log(`  relay top throughput (${BACKLOG} waiting entries, batch ${BATCH}): ${fmt(relayRate, 0)} events/s`);
    console.log(`  bare bus.publish, batches of ${BATCH}: ${fmt(bareRate, 0)} events/s`);
    console.log(`  ratio relay/bare: ${fmt(relayRate / bareRate, 2)}`);
  } finally {
    await relay.stop();
    await Promise.allSettled(subs.map((s) => s.stop()));
    await bus.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  }
}

await main();
