// bench/question-bank/deletion: permanent deletion of BENCH_QUESTIONS (default 10,000) archived
// questions by a job of the real question-bank process (tombstone per question through the outbox,
// versions and read-model rows removed, progress written per batch of 100), beside a raw-driver
// baseline in the same run: deleteMany of the same number of question rows and their versions.
//   node --import tsx bench/question-bank/deletion.ts     (BENCH_QUESTIONS=1000 for a quick run)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { MongoClient, type Db } from 'mongodb';
import { timeOrderedIds } from '../../services/kit/src/core/index.js';
import { newQuestionRow, versionOf } from '../../services/question-bank/src/domain/questions/rows.js';
import type { Writer } from '../../services/question-bank/src/domain/questions/scope.js';
import { fmt } from '../lib/load.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const TOTAL = Number(env('BENCH_QUESTIONS', '10000'));
const PORT = Number(env('BENCH_PORT', '4096'));
const BASE = `http://127.0.0.1:${PORT}`;
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const brokers = env('KAFKA_BROKERS', '127.0.0.1:19192');
const dbName = `edu_qb_delbench_${process.pid}`;
const JOB: Writer = { userId: 't-bench', role: 'TEACHER', organizationId: 'org-bench' };
const RAW: Writer = { userId: 't-raw', role: 'TEACHER', organizationId: 'org-raw' };
const HEADERS = {
  'content-type': 'application/json',
  'X-User-Id': JOB.userId,
  'X-User-Role': JOB.role,
  'X-Organization-Id': JOB.organizationId,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newId = timeOrderedIds();

async function startService(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/question-bank/src/main.ts'], {
    env: { ...process.env, PORT: String(PORT), MONGODB_URI: mongoUri, MONGODB_DB: dbName, KAFKA_BROKERS: brokers },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('question-bank service did not start');
}

/** Archived questions in the service's shapes (rows.ts), their versions, a usage row for every third. */
async function seedArchived(db: Db, w: Writer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count;) {
    const n = Math.min(1000, count - done);
    const now = new Date();
    const rows = Array.from({ length: n }, (_, k) =>
      newQuestionRow({ content: `Câu ${done + k}: x + 1 = 2`, status: 'ARCHIVED' }, w, { newId, now }),
    );
    await db.collection('question_versions').insertMany(rows.map((r) => versionOf(r, w, now)) as never[]);
    await db.collection('questions').insertMany(rows as never[]);
    const usage = rows.filter((_, k) => k % 3 === 0).map((r) => ({ _id: r._id, organizationId: w.organizationId }));
    await db
      .collection('usage_counts')
      .insertMany(usage.map((u) => ({ ...u, examItems: 1, attemptItems: 2, answers: 3 })) as never[]);
    ids.push(...rows.map((r) => r._id));
    done += n;
  }
  return ids;
}

interface JobSnapshot {
  id: string;
  status: string;
  deletedCount: number;
  currentBatch: number;
}

async function runJob(): Promise<{ seconds: number; job: JobSnapshot }> {
  const t0 = performance.now();
  const res = await fetch(`${BASE}/v1/questions/permanent-delete/jobs`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ mode: 'all' }),
  });
  if (res.status !== 202) throw new Error(`job create: ${res.status} ${await res.text()}`);
  const { id } = ((await res.json()) as { data: JobSnapshot }).data;
  for (;;) {
    const job = (
      (await (await fetch(`${BASE}/v1/questions/permanent-delete/jobs/${id}`, { headers: HEADERS })).json()) as {
        data: JobSnapshot;
      }
    ).data;
    if (!['pending', 'running'].includes(job.status)) return { seconds: (performance.now() - t0) / 1000, job };
    await sleep(100);
  }
}

/** The baseline: the same row counts removed with the bare driver (no tombstones, no scope, no progress). */
async function rawDelete(db: Db, ids: string[]): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    await db.collection('questions').deleteMany({ _id: { $in: chunk } } as never);
    await db.collection('question_versions').deleteMany({ questionId: { $in: chunk } });
    await db.collection('usage_counts').deleteMany({ _id: { $in: chunk } } as never);
  }
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const stop = await startService();
  const client = await MongoClient.connect(mongoUri);
  const db = client.db(dbName);
  try {
    const load0 = os.loadavg().map((x) => x.toFixed(2));
    const jobIds = await seedArchived(db, JOB, TOTAL);
    const { seconds, job } = await runJob();
    const left = await db.collection('questions').countDocuments({ _id: { $in: jobIds }, removedAt: null } as never);
    if (job.status !== 'completed' || job.deletedCount !== TOTAL || left !== 0)
      throw new Error(`job ended ${job.status} with ${job.deletedCount} deleted, ${left} left`);
    // Seeded after the job, so the job does not pay for the baseline's rows and vice versa.
    const rawIds = await seedArchived(db, RAW, TOTAL);
    const rawSeconds = await rawDelete(db, rawIds);
    const load1 = os.loadavg().map((x) => x.toFixed(2));
    console.log(
      `question-bank permanent deletion on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${load0.join(' ')} -> ${load1.join(' ')}`,
    );
    console.log(
      `  job (mode all, ${job.currentBatch} batches of 100): ${TOTAL} questions in ${fmt(seconds, 2)} s = ${fmt(TOTAL / seconds)} questions/s`,
    );
    console.log(
      `  raw driver deleteMany (rows + versions + usage, chunks of 1000): ${TOTAL} in ${fmt(rawSeconds, 2)} s = ${fmt(TOTAL / rawSeconds)} questions/s`,
    );
    console.log(`  ratio: the job runs at ${fmt(rawSeconds / seconds, 3)}x the raw baseline's rate`);
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    stop();
  }
}

await main();
