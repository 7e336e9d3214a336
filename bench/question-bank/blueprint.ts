// bench/question-bank: blueprint selection of 50 questions from a 10,000-question bank through the
// real question-bank process (local MongoDB), beside a raw-driver baseline doing the same reads in
// the same run: per rule a find of candidate ids (the `_id` projection; newest-first sorted and
// limited, seeded unsorted and ranked with the same pure ranking), then the picked rows and their
// versions by id, then the hydration lookups. What the baseline leaves out is the service itself
// (HTTP, validation, scope, mongoose, snapshot shaping, JSON).
//   node --import tsx bench/question-bank/blueprint.ts   (make bench-question-bank-jobs)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import { MongoClient, type Db, type Document } from 'mongodb';
import { pickSeeded } from '../../services/question-bank/src/domain/blueprint/shuffle.js';
import { closedLoop, fmt, openLoop, type LatencySummary } from '../lib/load.js';
import { HEADERS, ORG, seed, TEACHER } from './seed.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const SECONDS = Number(env('BENCH_SECONDS', '8'));
const TOTAL = Number(env('BENCH_QUESTIONS', '10000'));
// A fixed rate below what a busy 2-core machine serves, so latencies are service times, not a queue.
const RATE = Number(env('BENCH_BLUEPRINT_RATE', '1'));
// Long enough at that rate for a p99 that is more than the maximum of a handful of samples.
const LAT_SECONDS = Number(env('BENCH_LATENCY_SECONDS', '30'));
const CLIENTS = 4;
// A free port of our own: other benchmarks may run beside this one.
const PORT = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const BASE = `http://127.0.0.1:${PORT}`;
const PATH = '/v1/internal/questions/select-for-exam-blueprint';
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const dbName = `edu_qb_bench_blueprint_${process.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Doc = Document & { _id: string };
type Rule = { count: number } & Record<string, unknown>;
interface Scenario {
  name: string;
  rules: Rule[];
  seeded: boolean;
}

// 50 questions each: two filtered rules (about 1,000 candidates each), and one rule over the bank.
const SCENARIOS: Scenario[] = [
  { name: 'newest-first, 2 rules x 25 (chapter, topic)', seeded: false, rules: twoRules() },
  { name: 'seeded, 2 rules x 25 (chapter, topic)', seeded: true, rules: twoRules() },
  { name: `seeded, 1 rule of 50 over all ${TOTAL}`, seeded: true, rules: [{ count: 50 }] },
];

function twoRules(): Rule[] {
  return [
    { count: 25, chapterId: 'chapter-1' },
    { count: 25, topicId: 'topic-2', difficulty: 'MEDIUM' },
  ];
}

async function startService(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/question-bank/src/main.ts'], {
    env: { ...process.env, PORT: String(PORT), MONGODB_URI: mongoUri, MONGODB_DB: dbName, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('question-bank service did not start');
}

const body = (s: Scenario) => ({ rules: s.rules, ...(s.seeded ? { randomSeed: randomUUID() } : {}) });

async function viaService(s: Scenario): Promise<boolean> {
  const res = await fetch(`${BASE}${PATH}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body(s)) });
  if (res.status !== 200) return false;
  const { data } = (await res.json()) as { data: { complete: boolean; items: unknown[] } };
  return data.complete && data.items.length === 50;
}

// ---- the raw-driver baseline ----

const SCOPE = { removedAt: null, organizationId: ORG, createdById: TEACHER, status: 'PUBLISHED' };
const HIDDEN = { projection: { searchTokens: 0, _outbox: 0, _outboxClaim: 0 } };
const REF_FIELDS = ['subjectId', 'chapterId', 'topicId'];
const distinct = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))];

const byIds = (db: Db, collection: string, ids: string[]): Promise<Doc[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .collection<Doc>(collection)
        .find({ _id: { $in: ids } })
        .toArray();

async function rawCandidates(db: Db, rule: Rule, taken: Set<string>, seed: string | null): Promise<string[]> {
  const { count, ...filters } = rule;
  const filter = { ...SCOPE, ...filters, ...(taken.size > 0 ? { _id: { $nin: [...taken] } } : {}) };
  const cursor = db.collection<Doc>('questions').find(filter, { projection: { _id: 1 } });
  if (seed === null) return (await cursor.sort({ createdAt: -1, _id: -1 }).limit(count).toArray()).map((r) => r._id);
  return pickSeeded(
    seed,
    (await cursor.toArray()).map((r) => r._id),
    count,
  );
}

async function viaDriver(db: Db, s: Scenario): Promise<boolean> {
  const seed = s.seeded ? randomUUID() : null;
  const taken = new Set<string>();
  for (const rule of s.rules) for (const id of await rawCandidates(db, rule, taken, seed)) taken.add(id);
  const rows = await db
    .collection<Doc>('questions')
    .find({ ...SCOPE, _id: { $in: [...taken] } }, HIDDEN)
    .toArray();
  const versions = await byIds(db, 'question_versions', distinct(rows.map((r) => r.currentVersionId)));
  await Promise.all([
    byIds(db, 'taxonomy_refs', distinct(rows.flatMap((r) => REF_FIELDS.map((f) => r[f])))),
    byIds(db, 'usage_counts', distinct(rows.map((r) => r._id))),
    byIds(db, 'user_refs', distinct(rows.map((r) => r.createdById))),
    byIds(db, 'organization_refs', distinct(rows.map((r) => r.organizationId))),
  ]);
  return rows.length === 50 && versions.length === 50;
}

// ---- the run ----

/** Every question PUBLISHED; the oldest third HARD, so the second rule's difficulty filter bites. */
async function publish(db: Db): Promise<void> {
  const questions = db.collection<Doc>('questions');
  await questions.updateMany({}, { $set: { status: 'PUBLISHED' } });
  const [cut] = await questions
    .find({}, { projection: { createdAt: 1 } })
    .sort({ createdAt: -1 })
    .skip(Math.floor((TOTAL * 2) / 3))
    .limit(1)
    .toArray();
  await questions.updateMany({ createdAt: { $lte: cut!.createdAt } }, { $set: { difficulty: 'HARD' } });
}

interface Row {
  name: string;
  tp: { api: number; raw: number };
  lat: { api: LatencySummary; raw: LatencySummary };
}

async function measure(db: Db, s: Scenario): Promise<Row> {
  if (!(await viaService(s)) || !(await viaDriver(db, s))) throw new Error(`bench: ${s.name} did not select 50`);
  const api = (await closedLoop(() => viaService(s), CLIENTS, SECONDS)).perSecond;
  const raw = (await closedLoop(() => viaDriver(db, s), CLIENTS, SECONDS)).perSecond;
  const apiLat = await openLoop(() => viaService(s), RATE, LAT_SECONDS);
  const rawLat = await openLoop(() => viaDriver(db, s), RATE, LAT_SECONDS);
  return { name: s.name, tp: { api, raw }, lat: { api: apiLat, raw: rawLat } };
}

const lat = (s: LatencySummary) =>
  `p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms (${s.count} ok, ${s.errors} errors)`;

async function main(): Promise<void> {
  const stop = await startService();
  const client = await MongoClient.connect(mongoUri);
  const db = client.db(dbName);
  try {
    const startLoad = os.loadavg().map((x) => x.toFixed(2));
    const t0 = performance.now();
    const ids = await seed(db, BASE, TOTAL, 200);
    await publish(db);
    const seeded = (performance.now() - t0) / 1000;
    const rows: Row[] = [];
    for (const s of SCENARIOS) rows.push(await measure(db, s));
    const load = os.loadavg().map((x) => x.toFixed(2));
    console.log(
      `question-bank blueprint benchmark on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${startLoad.join(' ')} at the start, ${load.join(' ')} at the end; ${ids.length} PUBLISHED questions seeded in ${fmt(seeded)} s; ${SECONDS} s per throughput phase, ${LAT_SECONDS} s per latency phase`,
    );
    for (const r of rows) {
      console.log(`${r.name}: 50 questions per selection`);
      console.log(
        `  throughput, ${CLIENTS} closed-loop clients: service ${fmt(r.tp.api)} /s, raw driver ${fmt(r.tp.raw)} /s = ${fmt(r.tp.api / r.tp.raw, 2)}x the baseline`,
      );
      console.log(`  latency @ ${RATE}/s (open loop): service ${lat(r.lat.api)}; raw driver ${lat(r.lat.raw)}`);
    }
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    stop();
  }
}

await main();
