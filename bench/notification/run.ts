// bench/notification: the inbox list (limit 20, a page out of 50) for a user with 10,000
// notifications, and a batch fan-out of 10,000 recipients, against the real notification service
// process on the local MongoDB; each beside the bare `mongodb` driver doing the same work on the
// same server in the same run (inbox: the same find/sort/skip/limit and the two counts; batch: the
// same rows through the same unordered insertMany in chunks of 1,000). Service and driver rounds
// alternate, so a busy machine weighs on both alike.
//   node --import tsx bench/notification/run.ts   (make bench-notification)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { fmt, summarize } from '../lib/load.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const INBOX_ROWS = Number(env('BENCH_INBOX_ROWS', '10000'));
const LIST_CALLS = Number(env('BENCH_LIST_CALLS', '300'));
const BATCH = Number(env('BENCH_BATCH', '10000'));
const BATCH_RUNS = Number(env('BENCH_BATCH_RUNS', '3'));
const PAGES = 50;
const CHUNK = 1000;
const PORT = 4094;
const BASE = `http://127.0.0.1:${PORT}`;
const USER = 'bench-user';
const HEADERS = { 'X-Actor-Id': USER, 'X-Actor-Role': 'STUDENT' };
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const dbName = `edu_notification_bench_${process.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startService(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/notification/src/main.ts'], {
    env: { ...process.env, PORT: String(PORT), MONGODB_URI: mongoUri, MONGODB_DB: dbName, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('notification service did not start');
}

let seq = 0;
/** A row as the service writes it (time-ordered id, data as JSON text). */
function row(userId: string, sourceKey: string, at: number): Document {
  const id = `${at.toString(16).padStart(12, '0')}-${(seq++).toString(16).padStart(6, '0')}-bench`;
  const createdAt = new Date(at);
  const title = `Thông báo ${seq}`;
  return {
    _id: id,
    userId,
    organizationId: 'org-bench',
    type: seq % 7 === 0 ? 'SUPPORT_REPLY' : 'INFO',
    title,
    body: 'Nội dung thông báo để đo',
    data: '{}',
    isRead: seq % 3 === 0,
    readAt: null,
    sourceKey,
    createdBy: null,
    createdAt,
    updatedAt: createdAt,
  };
}

async function insertChunks(col: Collection, rows: Document[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await col.insertMany(rows.slice(i, i + CHUNK), { ordered: false });
}

const page = () => 1 + Math.floor(Math.random() * PAGES);

async function listService(): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${BASE}/v1/notifications?limit=20&page=${page()}`, { headers: HEADERS });
  const body = (await res.json()) as { data?: { items?: unknown[] } };
  if (!res.ok || body.data?.items?.length !== 20) throw new Error(`bench: list failed (${res.status})`);
  return performance.now() - t;
}

async function listRaw(col: Collection): Promise<number> {
  const t = performance.now();
  const query = { userId: USER };
  const [items] = await Promise.all([
    col
      .find(query)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page() - 1) * 20)
      .limit(20)
      .toArray(),
    col.countDocuments(query),
    col.countDocuments({ userId: USER, isRead: false }),
  ]);
  if (items.length !== 20) throw new Error('bench: raw list came back short');
  return performance.now() - t;
}

async function inboxBench(col: Collection) {
  const base = Date.now() - INBOX_ROWS * 1000;
  await insertChunks(
    col,
    Array.from({ length: INBOX_ROWS }, (_, i) => row(USER, `seed:${i}`, base + i * 1000)),
  );
  const service: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < 10; i++) await Promise.all([listService(), listRaw(col)]); // warm-up
  for (let i = 0; i < LIST_CALLS; i++) {
    service.push(await listService());
    raw.push(await listRaw(col));
  }
  return { service: summarize(service), raw: summarize(raw) };
}

async function batchService(run: number): Promise<number> {
  const recipientIds = Array.from({ length: BATCH }, (_, i) => `r${run}-${i}`);
  const t = performance.now();
  const res = await fetch(`${BASE}/v1/notifications/batch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      recipientIds,
      type: 'EXAM_PUBLISHED',
      title: 'Đề mới',
      body: 'Có đề mới',
      organizationId: 'org-bench',
    }),
  });
  const body = (await res.json()) as { data?: { created?: number } };
  if (res.status !== 201 || body.data?.created !== BATCH) throw new Error(`bench: batch failed (${res.status})`);
  return performance.now() - t;
}

async function batchRaw(col: Collection, run: number): Promise<number> {
  const now = Date.now();
  const t = performance.now();
  const rows = Array.from({ length: BATCH }, (_, i) => row(`q${run}-${i}`, `batch:raw-${run}`, now));
  await insertChunks(col, rows);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const client = await MongoClient.connect(mongoUri);
  const stop = await startService();
  const col = client.db(dbName).collection('notifications');
  try {
    console.log(`notification bench: ${os.cpus().length} cores, node ${process.version}, mongo ${mongoUri}`);
    const inbox = await inboxBench(col);
    const s = inbox.service;
    const r = inbox.raw;
    console.log(
      `inbox list, ${INBOX_ROWS} rows for one user, limit 20, random page of ${PAGES}, ${LIST_CALLS} calls each:`,
    );
    console.log(`  service  p50 ${fmt(s.p50)} ms  p99 ${fmt(s.p99)} ms  max ${fmt(s.max)} ms`);
    console.log(`  driver   p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  max ${fmt(r.max)} ms`);
    console.log(`  ratio service/driver  p50 ${fmt(s.p50 / r.p50, 2)}  p99 ${fmt(s.p99 / r.p99, 2)}`);
    const svcMs: number[] = [];
    const rawMs: number[] = [];
    for (let run = 0; run < BATCH_RUNS; run++) {
      svcMs.push(await batchService(run));
      rawMs.push(await batchRaw(col, run));
    }
    const svcRate = BATCH / (median(svcMs) / 1000);
    const rawRate = BATCH / (median(rawMs) / 1000);
    console.log(`batch of ${BATCH} recipients, median of ${BATCH_RUNS} runs each:`);
    console.log(
      `  service  ${fmt(median(svcMs), 0)} ms  ${fmt(svcRate, 0)} rows/s  (runs: ${svcMs.map((x) => fmt(x, 0)).join(', ')} ms)`,
    );
    console.log(
      `  driver   ${fmt(median(rawMs), 0)} ms  ${fmt(rawRate, 0)} rows/s  (runs: ${rawMs.map((x) => fmt(x, 0)).join(', ')} ms)`,
    );
    console.log(`  ratio service/driver throughput ${fmt(svcRate / rawRate, 2)}`);
  } finally {
    stop();
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  }
}

await main();
