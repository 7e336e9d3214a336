// The question bank's search outbox across a broker outage: HTTP writes go on while a private
// Kafka (never the shared test broker) is stopped and restarted, and afterwards the topic holds
// every write's event, per question in order, the tombstone last.
import { expect } from 'chai';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { TOPICS } from '../../../kafka/topics.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { uniqueGroup, waitFor } from '../../kit/test/support/kafka-helpers.js';
import { PrivateKafka } from '../../kit/test/support/private-kafka.js';
import { choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

const OUTAGE_MS = 18000;
const LIVE = 6;
// A question is deleted once it reached this many versions, so every run has tombstones.
const DELETE_AT = 4;

interface Change {
  questionId: string;
  sourceVersion: number;
  operation: 'UPSERT' | 'DELETE';
}
interface Arrival {
  id: string;
  event: { id: string; subject: string; data: Change };
}
interface Expected {
  versions: number;
  deleted: boolean;
}

/** Creates, patches and deletes in turn over a few live questions; tracks each one's versions. */
class Writer {
  readonly expected = new Map<string, Expected>();
  writes = 0;
  private running = true;
  private loop: Promise<void> | undefined;
  private readonly h = headers(teacher('t-outage'));

  constructor(private readonly svc: TestQuestionBank) {}

  start(): void {
    this.loop = (async () => {
      while (this.running) await this.step();
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private live(): Array<[string, Expected]> {
    return [...this.expected].filter(([, e]) => !e.deleted);
  }

  private async step(): Promise<void> {
    const live = this.live();
    if (live.length < LIVE) {
      const q = await createAs(this.svc, teacher('t-outage'), choiceBody({ content: `Câu ${this.writes}` }));
      this.expected.set(q.id, { versions: 1, deleted: false });
    } else {
      const [id, e] = live[this.writes % live.length]!;
      if (e.versions >= DELETE_AT) {
        await this.svc.request.delete(`/v1/questions/${id}`).set(this.h).expect(200);
        e.deleted = true;
      } else {
        const content = `Câu ${id} sửa lần ${e.versions}`;
        await this.svc.request.patch(`/v1/questions/${id}`).set(this.h).send({ content }).expect(200);
      }
      e.versions += 1;
    }
    this.writes += 1;
  }
}

/** Each event id's first arrival, in arrival order, grouped by question. */
function firstArrivals(arrivals: Arrival[]): Map<string, Change[]> {
  const seen = new Set<string>();
  const out = new Map<string, Change[]>();
  for (const a of arrivals) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    const list = out.get(a.event.data.questionId) ?? [];
    list.push(a.event.data);
    out.set(a.event.data.questionId, list);
  }
  return out;
}

describe('question bank: search outbox across a broker outage (private Kafka)', function () {
  this.timeout(480000);
  let kafka: PrivateKafka | undefined;
  let svc: TestQuestionBank | undefined;
  let consumer: Consumer | undefined;

  before(async () => {
    kafka = await PrivateKafka.start();
    svc = await startQuestionBank(import.meta.url, {
      OUTBOX_PUBLISHER: 'kafka',
      KAFKA_BROKERS: kafka.brokers.join(','),
    });
  });
  after(async () => {
    await consumer?.disconnect().catch(() => undefined);
    await svc?.close();
    await kafka?.dispose();
  });

  async function readTopic(arrivals: Arrival[]): Promise<Consumer> {
    const client = new Kafka({ clientId: 'qb-outage-test', brokers: kafka!.brokers, logLevel: logLevel.NOTHING });
    const c = client.consumer({ groupId: uniqueGroup('qb-outage'), sessionTimeout: 6000, heartbeatInterval: 500 });
    await c.connect();
    await c.subscribe({ topic: TOPICS.searchProjectionChanged, fromBeginning: true });
    await c.run({
      eachMessage: async ({ message: m }) => {
        const event = JSON.parse(m.value?.toString() ?? 'null') as Arrival['event'];
        expect(m.key?.toString()).to.equal(event.subject);
        arrivals.push({ id: event.id, event });
      },
    });
    return c;
  }

  // Skipped until the kit's bus recovers its idempotent producer: in about one run of three, a
  // produce request in flight when the broker stops leaves kafkajs's sequence numbers behind the
  // broker's, every later publish fails with "The broker received an out of order sequence
  // number", and the relay retries the same producer until its entries die (seen here: 9
  // attempts, 1348 entries pending). Unskip once services/kit/src/bus/kafka.ts drops and reconnects
  // the producer on that error.
  it('every create, update and delete written during the outage reaches the topic, in order per question', async () => {
    const writer = new Writer(svc!);
    const published = () => svc!.built.deps.outbox.models.Published.countDocuments({});
    writer.start();
    let duringOutage = 0;
    try {
      await waitFor('writes published before the outage', async () => (await published()) >= 10, 60000);
      await kafka!.stop();
      const atStop = writer.writes;
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      duringOutage = writer.writes - atStop;
      await kafka!.restart();
      const atRestart = writer.writes;
      // Some writes after the restart too, so new events queue behind the backlog.
      await waitFor('writes after the restart', () => writer.writes >= atRestart + 10, 60000);
    } finally {
      await writer.stop();
    }
    expect(duringOutage, 'writes while the broker was down').to.be.above(0);

    const total = [...writer.expected.values()].reduce((n, e) => n + e.versions, 0);
    const arrivals: Arrival[] = [];
    consumer = await readTopic(arrivals);
    const distinctIds = () => new Set(arrivals.map((a) => a.id)).size;
    // A long bound: the relay's backoff (1 s doubling) grew with each failed attempt during the
    // outage, so the backlog leaves at the next attempt, possibly a minute or two after the restart.
    await waitFor('every write event on the topic', () => distinctIds() >= total, 300000).catch(async (err: Error) => {
      // Where the events stopped: still in the outbox (pending or dead) or not read back.
      const { Entry, Published } = svc!.built.deps.outbox.models;
      const [pending, dead, published, first] = await Promise.all([
        Entry.countDocuments({ status: 'pending' }),
        Entry.countDocuments({ status: 'dead' }),
        Published.countDocuments({}),
        Entry.findOne({}, { attempts: 1, lastError: 1, nextAttemptAt: 1 }).sort({ seq: 1 }).lean(),
      ]);
      const state = { expected: total, read: distinctIds(), pending, dead, published, first };
      throw new Error(`${err.message}: ${JSON.stringify(state)}`);
    });

    const byQuestion = firstArrivals(arrivals);
    expect([...byQuestion.keys()].sort()).to.deep.equal([...writer.expected.keys()].sort());
    for (const [id, e] of writer.expected) {
      const changes = byQuestion.get(id)!;
      const versions = Array.from({ length: e.versions }, (_, i) => i + 1);
      expect(
        changes.map((c) => c.sourceVersion),
        id,
      ).to.deep.equal(versions);
      const ops = versions.map((v) => (e.deleted && v === e.versions ? 'DELETE' : 'UPSERT'));
      expect(
        changes.map((c) => c.operation),
        id,
      ).to.deep.equal(ops);
    }
    expect([...writer.expected.values()].some((e) => e.deleted)).to.equal(true);
    for (const a of arrivals) expectValidEvent(a.event, TOPICS.searchProjectionChanged);
  });
});
