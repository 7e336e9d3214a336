// What the bench runs against: one document-import API process and N docx-worker processes on the
// local test servers, sharing a spool directory, with a database, work topic, events topic and
// consumer group of this run's own (so no other run or test ever takes its items). teardown() stops
// every child, drops the database, deletes the topics and the group, and removes the spool.
// hold()/release() use the workers' DOCX_WORKER_PAUSE_FILE: while the file exists each worker keeps
// the jobs it claimed, so the queue can be filled through the API before the workers drain it.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { TOPICS } from '../../kafka/topics.js';
import { loadConfig } from '../../services/kit/src/core/index.js';
import { documentImportConfigSchema, workerConcurrency } from '../../services/document-import/src/config.js';
import { ImportApi } from './api.js';
import { freePort, startChild, stopAll, until, type Child } from './procs.js';

const READY_MS = 180_000;

export interface Stack {
  api: ImportApi;
  /** Jobs each worker process runs at once, as the worker reads it from its environment. */
  concurrency: number;
  children(): Child[];
  /** Starts worker processes until there are `n`, then waits until all n are members of a stable group. */
  scaleWorkers(n: number): Promise<void>;
  /** Work items on the queue not yet committed by the group (waiting plus in hand). */
  queueDepth(): Promise<number>;
  hold(): void;
  release(): void;
  teardown(): Promise<void>;
}

function benchEnv(mongoUri: string, brokers: string): Record<string, string> {
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const root = mkdtempSync(join(tmpdir(), 'bench-docx-'));
  mkdirSync(join(root, 'spool'));
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    MONGODB_URI: mongoUri,
    MONGODB_DB: `edu_docx_bench_${id.replace('-', '_')}`,
    KAFKA_BROKERS: brokers,
    DOCX_IMPORT_PAYLOAD_DIR: join(root, 'spool'),
    DOCX_WORKER_PAUSE_FILE: join(root, 'hold'),
    DOCX_IMPORT_TOPIC: `${TOPICS.docxImportJobs}.bench-${id}`,
    DOCX_IMPORT_EVENTS_TOPIC: `${TOPICS.docxImportJobEvents}.bench-${id}`,
    DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-bench-${id}`,
  };
  const concurrency = process.env.BENCH_WORKER_CONCURRENCY;
  if (concurrency) env.DOCX_IMPORT_WORKER_CONCURRENCY = concurrency;
  return env;
}

async function lag(admin: Admin, topic: string, group: string): Promise<number> {
  const [ends, [committed]] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId: group, topics: [topic] }),
  ]);
  const at = new Map(committed?.partitions.map((p) => [p.partition, Number(p.offset)]));
  // A partition the group never committed on starts at its low offset (fromBeginning).
  return ends.reduce((sum, p) => sum + Number(p.high) - Math.max(Number(p.low), at.get(p.partition) ?? -1), 0);
}

async function groupMembers(admin: Admin, group: string): Promise<number> {
  const { groups } = await admin.describeGroups([group]);
  const g = groups[0];
  return g?.state === 'Stable' ? g.members.length : -1;
}

export async function startStack(mongoUri: string, brokers: string): Promise<Stack> {
  const env = benchEnv(mongoUri, brokers);
  const kafka = new Kafka({ clientId: 'bench-docx-import', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const workers: Child[] = [];
  let service: Child | undefined;
  const children = () => [...(service ? [service] : []), ...workers];

  let torn: Promise<void> | undefined;
  const teardown = () =>
    (torn ??= (async () => {
      await stopAll();
      const client = await MongoClient.connect(mongoUri);
      await client
        .db(env.MONGODB_DB)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
      const topic = env.DOCX_IMPORT_TOPIC!;
      await admin.deleteGroups([env.DOCX_IMPORT_CONSUMER_GROUP!]).catch(() => undefined);
      await admin
        .deleteTopics({ topics: [topic, `${topic}.dlq`, env.DOCX_IMPORT_EVENTS_TOPIC!] })
        .catch(() => undefined);
      await admin.disconnect();
      rmSync(join(env.DOCX_IMPORT_PAYLOAD_DIR!, '..'), { recursive: true, force: true });
    })());

  try {
    await admin.connect();
    const port = await freePort();
    const api = new ImportApi(`http://127.0.0.1:${port}`);
    service = startChild('document-import API', 'document-import', { ...env, PORT: String(port) });
    // Ready means the engine has created the work topic and recovered; workers may join now.
    await until('the document-import API to be ready', () => api.ready(), { ms: READY_MS, watch: children() });
    const stack: Stack = {
      api,
      concurrency: workerConcurrency(loadConfig(documentImportConfigSchema, env)),
      children,
      async scaleWorkers(n) {
        while (workers.length < n) workers.push(startChild(`docx-worker ${workers.length + 1}`, 'docx-worker', env));
        const group = env.DOCX_IMPORT_CONSUMER_GROUP!;
        await until(`${n} workers in a stable consumer group`, async () => (await groupMembers(admin, group)) === n, {
          ms: READY_MS,
          watch: children(),
          everyMs: 250,
        });
      },
      queueDepth: () => lag(admin, env.DOCX_IMPORT_TOPIC!, env.DOCX_IMPORT_CONSUMER_GROUP!),
      hold: () => writeFileSync(env.DOCX_WORKER_PAUSE_FILE!, 'hold'),
      release: () => rmSync(env.DOCX_WORKER_PAUSE_FILE!, { force: true }),
      teardown,
    };
    return stack;
  } catch (err) {
    await teardown();
    throw err;
  }
}
