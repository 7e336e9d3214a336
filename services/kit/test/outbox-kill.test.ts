import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Model } from 'mongoose';
import type { EventBus } from '../src/bus/index.js';
import { createOutbox, createOutboxRelay, type MongoHandle, type Outbox } from '../src/data/index.js';
import {
  openDb,
  readTopic,
  silent,
  testBus,
  thingModel,
  waitFor,
  writeThing,
  type Arrival,
  type ThingRow,
} from './support/outbox-fixture.js';
import { testDbName, testKafkaBrokers, testMongoUri } from './support/servers.js';

const childScript = fileURLToPath(new URL('./support/outbox-child.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

interface Child {
  proc: ChildProcess;
  lines: string[];
  exited: Promise<void>;
}

function spawnChild(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', childScript], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buf = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { proc, lines, exited };
}

/** Waits for a line from the child; fails at once if the child died on its own. */
async function waitForLine(child: Child, match: (l: string) => boolean, what: string): Promise<string> {
  await waitFor(
    () => {
      if (child.proc.exitCode !== null) throw new Error(`the child exited (${child.proc.exitCode}) before ${what}`);
      return child.lines.some(match);
    },
    what,
    60000,
  );
  return child.lines.find(match)!;
}

async function kill(child: Child): Promise<void> {
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  await child.exited;
}

/** Each key's versions in order of first arrival (a redelivery repeats what came before). */
function firstArrivals(arrivals: readonly Arrival[]): Map<string, number[]> {
  const seen = new Set<string>();
  const out = new Map<string, number[]>();
  for (const a of arrivals) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    out.set(a.key, [...(out.get(a.key) ?? []), a.version]);
  }
  return out;
}

describe('kit outbox under crashes (child processes, real Kafka and MongoDB)', function () {
  this.timeout(120000);
  let db: MongoHandle;
  let dbName: string;
  let bus: EventBus;
  let Thing: Model<ThingRow>;
  let outbox: Outbox;
  let topic: string;
  const children: Child[] = [];

  before(async () => {
    dbName = testDbName('kit', 'outbox-kill');
    db = await openDb(testMongoUri(), dbName);
    Thing = thingModel(db);
    bus = testBus(testKafkaBrokers());
  });
  after(async () => {
    await db.conn.dropDatabase();
    await db.conn.close();
    await bus.close();
  });
  beforeEach(async () => {
    await Promise.all(Object.values(db.conn.models).map((m) => m.deleteMany({})));
    outbox = createOutbox({ db, owners: [Thing], logger: silent });
    topic = `kit-outbox-kill.${randomUUID()}`;
    await bus.ensureTopics([{ name: topic, partitions: 3 }]);
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(kill));
  });

  const childEnv = (extra: Record<string, string>) => ({
    MONGODB_URI: testMongoUri(),
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    OUTBOX_DB: dbName,
    TOPIC: topic,
    ...extra,
  });

  it('a relay SIGKILLed mid-batch ten times loses nothing, and a duplicate only repeats an event', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `thing-${i}-${randomUUID()}`);
    const ids = new Set<string>();
    await Promise.all(
      keys.map(async (key) => {
        for (let v = 1; v <= 20; v += 1) ids.add(await writeThing(outbox, topic, key, v));
      }),
    );
    const reader = await readTopic(bus, topic);
    const published = () => outbox.models.Published.countDocuments({});
    try {
      for (let round = 0; round < 10; round += 1) {
        const where = round % 2 === 0 ? 'after' : 'before';
        const relayEnv = {
          OUTBOX_CHILD: 'relay',
          BATCH_SIZE: '20',
          LEASE_MS: '1500',
          PAUSE_AT: '3',
          PAUSE_WHERE: where,
        };
        const child = spawnChild(childEnv(relayEnv));
        children.push(child);
        await waitForLine(child, (l) => l === 'PAUSED', `round ${round}: the relay inside its third batch`);
        await kill(child);
        // Killed inside a batch: some entries are out, not all.
        expect(await published(), `round ${round}`)
          .to.be.above(0)
          .and.below(600);
      }
      const last = spawnChild(childEnv({ OUTBOX_CHILD: 'relay', BATCH_SIZE: '20', LEASE_MS: '1500' }));
      children.push(last);
      await waitFor(async () => (await published()) === 600, 'every entry published', 60000);
      await waitFor(() => new Set(reader.arrivals.map((a) => a.id)).size === 600, 'every event in Kafka', 30000);
      expect(new Set(reader.arrivals.map((a) => a.id))).to.deep.equal(ids);
      // A duplicate carries the id, key and state of the event it repeats.
      const firstById = new Map<string, Arrival>();
      for (const a of reader.arrivals) {
        const first = firstById.get(a.id);
        if (first) expect(a).to.deep.equal(first);
        else firstById.set(a.id, a);
      }
      const byKey = firstArrivals(reader.arrivals);
      for (const key of keys) expect(byKey.get(key), key).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    } finally {
      await reader.stop();
    }
  });

  it('no transaction: a writer killed after its owner write, before the move, still gets its event out', async () => {
    const key = `thing-${randomUUID()}`;
    const child = spawnChild(childEnv({ OUTBOX_CHILD: 'writer', KEY: key }));
    children.push(child);
    const line = await waitForLine(child, (l) => l.startsWith('WRITTEN '), 'the owner write');
    await kill(child);
    const id = line.slice('WRITTEN '.length);
    expect(await Thing.findById(key).lean()).to.deep.equal({ _id: key, version: 1 });
    expect(await outbox.models.Entry.countDocuments({})).to.equal(0);
    // The relay's sweeper picks up stamps older than its grace period.
    const relay = createOutboxRelay({
      outbox,
      publish: (t, m) => bus.publish(t, m),
      sweepMs: 50,
      graceMs: 0,
      pollMs: 50,
    });
    const reader = await readTopic(bus, topic);
    relay.start();
    try {
      await waitFor(() => reader.arrivals.length >= 1, 'the swept event');
      expect(reader.arrivals.map((a) => a.id)).to.deep.equal([id]);
      expect((await Thing.collection.findOne({ _id: key } as never))?._outbox).to.deep.equal([]);
    } finally {
      await relay.stop();
      await reader.stop();
    }
  });
});
