// bench/analytics: weak-topics latency over 100 results through the real analytics process
// (HTTP, validation, the find of the newest 100 matching results, the derivation, the envelope)
// beside a raw-driver baseline in the same run: the same find with the bare `mongodb` driver and
// the same pure derivation in-process. Requests run one at a time, API and raw interleaved in
// rounds, so both see the same machine load.
//   node --import tsx bench/analytics/run.ts   (make bench-analytics)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { MongoClient, type Db } from 'mongodb';
import { deriveWeakTopics, WEAK_TOPIC_WINDOW } from '../../services/analytics/src/domain/weak-topics.js';
import { fmt, summarize, type LatencySummary } from '../lib/load.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const ROUNDS = Number(env('BENCH_ROUNDS', '20'));
const PER_ROUND = Number(env('BENCH_PER_ROUND', '25'));
const NOISE = Number(env('BENCH_NOISE_RESULTS', '5000'));
const PORT = 4093;
const BASE = `http://127.0.0.1:${PORT}`;
const ORG = 'org-bench';
const CLASSROOM = 'class-bench';
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const dbName = `edu_analytics_bench_${process.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TOPICS = [
  'Hàm số',
  'Đạo hàm',
  'Tích phân',
  'Xác suất',
  'Lượng giác',
  'Hình học không gian',
  'Số phức',
  'Logarit',
];

// Without KAFKA_BROKERS the service has no bus, so no consumer and no relay: HTTP and MongoDB only.
const { KAFKA_BROKERS: _unused, ...serviceEnv } = process.env;

async function startService(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/analytics/src/main.ts'], {
    env: { ...serviceEnv, PORT: String(PORT), MONGODB_URI: mongoUri, MONGODB_DB: dbName, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('analytics service did not start');
}

/** 150 results of the benched classroom (the newest 100 count) among NOISE results of others. */
async function seed(db: Db): Promise<void> {
  const now = new Date();
  const rows = Array.from({ length: NOISE + 150 }, (_, i) => {
    const mine = i < 150;
    const topics = Array.from({ length: 1 + (i % 4) }, (_, k) => ({
      topic: TOPICS[(i + k * 3) % TOPICS.length]!,
      topicId: null,
      questionId: `q-${k}`,
    }));
    const classroomId = mine ? CLASSROOM : `class-${i % 200}`;
    return {
      _id: `bench-${i}`,
      organizationId: ORG,
      studentId: `stu-${i % 300}`,
      classroomId,
      examId: `exam-${i % 20}`,
      subjectId: 'math',
      gradeLevel: 12,
      student: { id: `stu-${i % 300}`, fullName: null, accountCode: null },
      classroom: { id: classroomId, name: null },
      exam: { id: `exam-${i % 20}`, title: 'Thi thử', subjectId: 'math', gradeLevel: 12 },
      score: i % 10,
      maxScore: 10,
      scorePercent: (i % 10) * 10,
      correctCount: 10,
      wrongCount: topics.length,
      questionCount: 10 + topics.length,
      durationSeconds: 1200,
      status: 'GRADED',
      submissionSource: 'STUDENT',
      startedAt: null,
      submittedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      weakTopics: topics,
      source: { kind: 'SNAPSHOT', eventId: null },
      createdAt: now,
      updatedAt: now,
    };
  });
  for (let i = 0; i < rows.length; i += 1000)
    await db.collection('results').insertMany(rows.slice(i, i + 1000) as never[]);
}

const headers = { 'X-Organization-Id': ORG };

async function apiOnce(): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${BASE}/v1/analytics/weak-topics?classroomId=${CLASSROOM}`, { headers });
  const body = (await res.json()) as { data: { resultCount: number } };
  if (res.status !== 200 || body.data.resultCount !== WEAK_TOPIC_WINDOW) throw new Error(`api answered ${res.status}`);
  return performance.now() - t0;
}

/** The service's query (same filter, sort, limit and projection) and derivation, without the service. */
async function rawOnce(db: Db): Promise<number> {
  const t0 = performance.now();
  const rows = await db
    .collection('results')
    .find({ classroomId: CLASSROOM, organizationId: ORG }, { projection: { weakTopics: 1 } })
    .sort({ submittedAt: -1, _id: 1 })
    .limit(WEAK_TOPIC_WINDOW)
    .toArray();
  const topics = deriveWeakTopics(rows as unknown as Array<{ weakTopics: Array<{ topic: string }> }>);
  JSON.stringify({ items: topics, resultCount: rows.length });
  if (rows.length !== WEAK_TOPIC_WINDOW) throw new Error('raw find returned too few rows');
  return performance.now() - t0;
}

function line(name: string, s: LatencySummary): string {
  return `${name.padEnd(34)} n=${s.count}  p50 ${fmt(s.p50, 2)} ms  p90 ${fmt(s.p90, 2)} ms  p99 ${fmt(s.p99, 2)} ms  max ${fmt(s.max, 2)} ms`;
}

async function main(): Promise<void> {
  const client = await new MongoClient(mongoUri).connect();
  const db = client.db(dbName);
  const stop = await startService();
  try {
    await seed(db);
    for (let i = 0; i < 20; i += 1) await Promise.all([apiOnce(), rawOnce(db)]); // warm-up
    const api: number[] = [];
    const raw: number[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      for (let i = 0; i < PER_ROUND; i += 1) api.push(await apiOnce());
      for (let i = 0; i < PER_ROUND; i += 1) raw.push(await rawOnce(db));
    }
    const a = summarize(api);
    const b = summarize(raw);
    console.log(
      `analytics weak topics over ${WEAK_TOPIC_WINDOW} results (of ${NOISE + 150} stored), ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(line('service GET /v1/analytics/weak-topics', a));
    console.log(line('raw driver find + derivation', b));
    console.log(`ratio service/raw: p50 ${fmt(a.p50 / b.p50, 2)}x  p99 ${fmt(a.p99 / b.p99, 2)}x`);
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
