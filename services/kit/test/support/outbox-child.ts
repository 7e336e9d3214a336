// A child process for the outbox kill tests; the parent SIGKILLs it at a point it announces.
//   OUTBOX_CHILD=relay: runs a relay; with PAUSE_AT=n it stops inside its n-th publish, before
//     (PAUSE_WHERE=before) or after (after) the real send, prints "PAUSED" and waits to be killed.
//   OUTBOX_CHILD=writer: makes one owner write with its stamp, prints "WRITTEN" and waits to be
//     killed before the unit moves the stamp.
import type { BusMessage } from '../../src/bus/index.js';
import { createOutbox, createOutboxRelay } from '../../src/data/index.js';
import { openDb, silent, testBus, thingEvent, thingModel } from './outbox-fixture.js';

const env = (k: string): string => {
  const v = process.env[k];
  if (!v) throw new Error(`outbox-child: ${k} is required`);
  return v;
};
const never = () => new Promise<never>(() => undefined);
const say = (line: string) => process.stdout.write(`${line}\n`);

async function relayChild(): Promise<void> {
  const db = await openDb(env('MONGODB_URI'), env('OUTBOX_DB'));
  const outbox = createOutbox({ db, owners: [thingModel(db)], logger: silent });
  const bus = testBus(env('KAFKA_BROKERS').split(','));
  const pauseAt = Number(process.env.PAUSE_AT ?? 0);
  const where = process.env.PAUSE_WHERE ?? 'after';
  let calls = 0;
  const publish = async (topic: string, messages: BusMessage[]): Promise<void> => {
    calls += 1;
    if (calls === pauseAt && where === 'before') {
      say('PAUSED');
      await never();
    }
    await bus.publish(topic, messages);
    if (calls === pauseAt) {
      say('PAUSED');
      await never();
    }
  };
  const relay = createOutboxRelay({
    outbox,
    publish,
    batchSize: Number(env('BATCH_SIZE')),
    leaseMs: Number(env('LEASE_MS')),
    pollMs: 50,
  });
  relay.start();
  say('READY');
}

async function writerChild(): Promise<void> {
  const db = await openDb(env('MONGODB_URI'), env('OUTBOX_DB'));
  const Thing = thingModel(db);
  const outbox = createOutbox({ db, owners: [Thing], logger: silent });
  const key = env('KEY');
  await outbox.transaction(async (unit, session) => {
    const event = thingEvent(key, 1);
    const stamp = unit.enqueue({ topic: env('TOPIC'), event, owner: Thing, ownerId: key });
    await Thing.updateOne({ _id: key }, { $set: { version: 1 }, ...stamp.update }, { session, upsert: true });
    say(`WRITTEN ${event.id}`);
    await never();
  });
}

await (process.env.OUTBOX_CHILD === 'writer' ? writerChild() : relayChild());
