// bench/question-bank: list (limit 20, hydrated), detail and create against the real question-bank
// process (local MongoDB, outbox relay on against Kafka) over a seeded bank, beside the same reads
// done with the bare `mongodb` driver on the same server in the same run (the baseline; the goal
// is at least 0.6 of its throughput), and the outbox commit-to-Kafka latency while list, detail
// and create run together at fixed rates.
//   node --import tsx bench/question-bank/run.ts   (make bench-question-bank)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { MongoClient, type Db } from 'mongodb';
import { TOPICS } from '../../kafka/topics.js';
import { createLogger } from '../../services/kit/src/core/index.js';
import { createKafkaBus, eventIdFromHeaders, type EventBus } from '../../services/kit/src/bus/index.js';
import { closedLoop, fmt, openLoop, summarize, type LatencySummary } from '../lib/load.js';
import { rawDetail, rawList } from './raw.js';
import { HEADERS, questionBody, seed } from './seed.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const SECONDS = Number(env('BENCH_SECONDS', '10'));
// Fixed rates below what a busy 2-core machine serves, so the latencies are service times and
// not a queue (list is the costly read: a count and a sorted page over the whole scope).
const LIST_RATE = Number(env('BENCH_LIST_RATE', '2'));
const DETAIL_RATE = Number(env('BENCH_DETAIL_RATE', '10'));
const CREATE_RATE = Number(env('BENCH_CREATE_RATE', '5'));
const TOTAL = Number(env('BENCH_QUESTIONS', '10000'));
const CLIENTS = 8;
const PAGES = 50;
const PORT = 4095;
const BASE = `http://127.0.0.1:${PORT}`;
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const brokers = env('KAFKA_BROKERS', '127.0.0.1:19192');
const dbName = `edu_qb_bench_${process.pid}`;
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, what: string, ms = 120000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function startService(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/question-bank/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      MONGODB_URI: mongoUri,
      MONGODB_DB: dbName,
      KAFKA_BROKERS: brokers,
      OUTBOX_PUBLISHER: 'kafka',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('question-bank service did not start');
}

/** Arrival time of each search event by id (`ce_id`); the topic's older events never match ours. */
async function watchEvents(bus: EventBus, arrived: Map<string, number>) {
  return bus.subscribe({
    topic: TOPICS.searchProjectionChanged,
    groupId: `bench-qb-${randomUUID()}`,
    fromBeginning: true,
    deadLetterTopic: false,
    handle: async (m) => {
      const id = eventIdFromHeaders(m.headers);
      if (id && !arrived.has(id)) arrived.set(id, clock());
    },
  });
}

const page = () => 1 + Math.floor(Math.random() * PAGES);
const listApi = async () => (await fetch(`${BASE}/v1/questions?limit=20&page=${page()}`, { headers: HEADERS })).ok;
const pick = (ids: string[]) => ids[Math.floor(Math.random() * ids.length)]!;

interface Created {
  id: string;
  createdAt: number;
  answered: number;
}

async function createApi(i: number, out?: Created[]): Promise<boolean> {
  const res = await fetch(`${BASE}/v1/questions`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(questionBody(i)),
  });
  const answered = clock();
  if (res.status !== 201) return false;
  const { data } = (await res.json()) as { data: { id: string; createdAt: string } };
  out?.push({ id: data.id, createdAt: Date.parse(data.createdAt), answered });
  return true;
}

interface Pair {
  api: number;
  raw: number;
}

async function throughputs(db: Db, ids: string[]): Promise<{ list: Pair; detail: Pair; create: number }> {
  const tp = async (op: () => Promise<boolean>) => (await closedLoop(op, CLIENTS, SECONDS)).perSecond;
  const list = { api: await tp(listApi), raw: await tp(() => rawList(db, page(), 20)) };
  const detailApi = async () => (await fetch(`${BASE}/v1/questions/${pick(ids)}`, { headers: HEADERS })).ok;
  const detail = { api: await tp(detailApi), raw: await tp(() => rawDetail(db, pick(ids))) };
  let n = TOTAL;
  const create = await tp(() => createApi(n++));
  return { list, detail, create };
}

async function latencies(db: Db, ids: string[]) {
  const detailApi = async () => (await fetch(`${BASE}/v1/questions/${pick(ids)}`, { headers: HEADERS })).ok;
  let n = TOTAL * 3;
  return {
    listApi: await openLoop(listApi, LIST_RATE, SECONDS),
    listRaw: await openLoop(() => rawList(db, page(), 20), LIST_RATE, SECONDS),
    detailApi: await openLoop(detailApi, DETAIL_RATE, SECONDS),
    detailRaw: await openLoop(() => rawDetail(db, pick(ids)), DETAIL_RATE, SECONDS),
    create: await openLoop(() => createApi(n++), CREATE_RATE, SECONDS),
  };
}

/** The three together at their rates; each create's event matched to it by id. */
async function mixed(ids: string[], arrived: Map<string, number>) {
  const created: Created[] = [];
  let n = TOTAL * 2;
  const detailApi = async () => (await fetch(`${BASE}/v1/questions/${pick(ids)}`, { headers: HEADERS })).ok;
  const [create, list, detail] = await Promise.all([
    openLoop(() => createApi(n++, created), CREATE_RATE, SECONDS),
    openLoop(listApi, LIST_RATE, SECONDS),
    openLoop(detailApi, DETAIL_RATE, SECONDS),
  ]);
  await until(() => created.every((c) => arrived.has(`${c.id}:1`)), 'every create event');
  const fromWrite = summarize(created.map((c) => arrived.get(`${c.id}:1`)! - c.createdAt));
  const fromResponse = summarize(created.map((c) => arrived.get(`${c.id}:1`)! - c.answered));
  return { create, list, detail, fromWrite, fromResponse };
}

const lat = (label: string, s: LatencySummary) =>
  `${label}: p50 ${fmt(s.p50, 2)} ms, p99 ${fmt(s.p99, 2)} ms, max ${fmt(s.max, 1)} ms (${s.count} ok, ${s.errors} errors)`;

async function main(): Promise<void> {
  const stop = await startService();
  const client = await MongoClient.connect(mongoUri);
  const db = client.db(dbName);
  const bus = createKafkaBus({
    brokers: brokers.split(','),
    clientId: 'bench-qb',
    logger: createLogger({ name: 'bench-qb', level: 'warn' }),
  });
  const arrived = new Map<string, number>();
  try {
    const startLoad = os.loadavg().map((x) => x.toFixed(2));
    const t0 = clock();
    const ids = await seed(db, BASE, TOTAL, 200);
    const seeded = (clock() - t0) / 1000;
    const sub = await watchEvents(bus, arrived);
    const probe: Created[] = [];
    await createApi(-1, probe);
    // The consumer is running and at the head once the probe's event arrived.
    await until(() => arrived.has(`${probe[0]!.id}:1`), 'the probe event');
    const tp = await throughputs(db, ids);
    const l = await latencies(db, ids);
    const m = await mixed(ids, arrived);
    await sub.stop();
    const load = os.loadavg().map((x) => x.toFixed(2));
    console.log(
      `question-bank benchmark on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${startLoad.join(' ')} at the start, ${load.join(' ')} at the end; ${ids.length} questions seeded in ${fmt(seeded)} s; ${SECONDS}s per phase`,
    );
    console.log(`throughput, ${CLIENTS} closed-loop clients:`);
    console.log(
      `  list (limit 20, hydrated, pages 1-${PAGES}): service ${fmt(tp.list.api)} /s, raw driver ${fmt(tp.list.raw)} /s = ${fmt(tp.list.api / tp.list.raw, 2)}x the baseline`,
    );
    console.log(
      `  detail (hydrated): service ${fmt(tp.detail.api)} /s, raw driver ${fmt(tp.detail.raw)} /s = ${fmt(tp.detail.api / tp.detail.raw, 2)}x the baseline`,
    );
    console.log(`  create: ${fmt(tp.create)} /s`);
    console.log(`latency at a fixed rate (open loop), one operation at a time:`);
    console.log(`  ${lat(`list   service @ ${LIST_RATE}/s`, l.listApi)}`);
    console.log(`  ${lat(`list   raw     @ ${LIST_RATE}/s`, l.listRaw)}`);
    console.log(`  ${lat(`detail service @ ${DETAIL_RATE}/s`, l.detailApi)}`);
    console.log(`  ${lat(`detail raw     @ ${DETAIL_RATE}/s`, l.detailRaw)}`);
    console.log(`  ${lat(`create service @ ${CREATE_RATE}/s`, l.create)}`);
    console.log(`together: create ${CREATE_RATE}/s + list ${LIST_RATE}/s + detail ${DETAIL_RATE}/s:`);
    console.log(`  ${lat('create', m.create)}`);
    console.log(`  ${lat('list  ', m.list)}`);
    console.log(`  ${lat('detail', m.detail)}`);
    console.log(
      `  ${lat('outbox commit-to-Kafka, upper bound (from the row createdAt, before its inserts)', m.fromWrite)}`,
    );
    console.log(
      `  ${lat('outbox commit-to-Kafka, lower bound (from the 201 arriving, after the commit)', m.fromResponse)}`,
    );
  } finally {
    await bus.close().catch(() => undefined);
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    stop();
  }
}

await main();
