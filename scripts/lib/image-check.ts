// What scripts/images.sh verify runs against a built server image, from inside the private network
// namespace the image runs in, with the project's own drivers:
//   kafka: the broker on 127.0.0.1:9092 answers metadata; a topic is created, a message produced
//          and consumed back through a consumer group;
//   mongo: the server on 127.0.0.1:27017 answers ping; a document is inserted and found.
// Prints one line of what it did and exits 0; prints the error and exits 1 otherwise. TIMEOUT_MS
// bounds the whole check.
//   TIMEOUT_MS=90000 node --import tsx scripts/lib/image-check.ts kafka|mongo
import type { Admin, Kafka, RetryOptions } from 'kafkajs';
import type { MongoClient } from 'mongodb';

const deadline = Date.now() + Number(process.env.TIMEOUT_MS);
const MESSAGE = 'hello from the image check';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries `attempt` every 250 ms until it returns a value or the deadline passes (then throws `what`). */
async function poll<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  let last = 'none yet';
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await sleep(250);
  }
  throw new Error(`${what}: ${last}`);
}

async function kafkaClient(retry: RetryOptions | undefined): Promise<Kafka> {
  const { Kafka: KafkaClient, logLevel } = await import('kafkajs');
  return new KafkaClient({
    clientId: 'edu-images-verify',
    brokers: ['127.0.0.1:9092'],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 5000,
    ...(retry && { retry }),
  });
}

/** An admin connected to a broker that lists itself in its metadata (no retries while polling). */
async function readyAdmin(): Promise<Admin> {
  const probe = await kafkaClient({ retries: 0 });
  return poll('broker not ready', async () => {
    const admin = probe.admin();
    try {
      await admin.connect();
      if ((await admin.describeCluster()).brokers.length) return admin;
    } catch (e) {
      await admin.disconnect().catch(() => undefined);
      throw e;
    }
    await admin.disconnect().catch(() => undefined);
    return undefined;
  });
}

/** The first message's value on `topic`, read from the beginning by a group of its own. */
async function consumeOne(kafka: Kafka, topic: string): Promise<string> {
  const consumer = kafka.consumer({ groupId: `${topic}-g` });
  consumer.on(consumer.events.CRASH, (e) => console.error(`consumer crashed: ${e.payload.error.message}`));
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error('no message consumed in time')),
        Math.max(1000, deadline - Date.now()),
      );
      consumer
        .run({
          eachMessage: async ({ message }) => {
            clearTimeout(t);
            resolve(message.value?.toString() ?? '');
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

async function checkKafka(): Promise<string> {
  const admin = await readyAdmin();
  const topic = `edu-images-verify-${process.pid}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  // kafkajs's default retries for the real work: the group coordinator needs a moment to create
  // __consumer_offsets on first use.
  const kafka = await kafkaClient(undefined);
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value: MESSAGE }] });
  await producer.disconnect();
  const got = await consumeOne(kafka, topic);
  if (got !== MESSAGE) throw new Error(`consumed ${JSON.stringify(got)}`);
  return `topic ${topic}: produced and consumed 1 message`;
}

/** A client connected to a server that answers ping. */
async function connectedMongo(): Promise<MongoClient> {
  const { MongoClient: Client } = await import('mongodb');
  return poll('no answer to ping', async () => {
    const client = new Client('mongodb://127.0.0.1:27017/?directConnection=true', {
      serverSelectionTimeoutMS: 1000,
      connectTimeoutMS: 1000,
    });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return client;
    } catch (e) {
      await client.close().catch(() => undefined);
      throw e;
    }
  });
}

async function checkMongo(): Promise<string> {
  const client = await connectedMongo();
  const coll = client.db('edu_images_verify').collection<{ _id: string; text: string; n: number }>('probe');
  const doc = { _id: `probe-${process.pid}`, text: MESSAGE, n: 42 };
  await coll.insertOne(doc);
  const got = await coll.findOne({ _id: doc._id });
  await client.close();
  if (!got || got.text !== doc.text || got.n !== 42) throw new Error(`found ${JSON.stringify(got)}`);
  return 'ping ok, 1 document inserted and found';
}

const CHECKS: Record<string, () => Promise<string>> = { kafka: checkKafka, mongo: checkMongo };

const check = CHECKS[process.argv[2] ?? ''];
if (!check) {
  console.error('usage: image-check.ts kafka|mongo');
  process.exit(2);
}
check().then(
  (line) => {
    console.log(line);
    process.exit(0);
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
