// bench/attempt: the attempt service as deployed (its own process, `services/cli.ts attempt`, the
// local MongoDB, the outbox relay publishing attempt.graded.v1 to Kafka), driven through its HTTP
// API by students (X-User-Id, X-User-Role STUDENT) over attempts started with a 40-question exam
// snapshot. Reports answer-save and submit latency at fixed rates (open loop), the completion time
// of an exam-day surge (students × saves, closed loop, bounded clients), and in the same run the
// baseline: the same number of the service's answer writes into the same attempt documents with
// the bare `mongodb` driver at the same concurrency (the goal: save throughput at least 0.5 of it).
//   node --import tsx bench/attempt/run.ts   (make bench-attempt)
//   BENCH_STUDENTS=40 BENCH_SAVES=10 BENCH_SECONDS=5 ... for a quick run
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { MongoClient, type Db } from 'mongodb';
import { freePort, startChild, stopAll, until } from '../document-import/procs.js';
import { fmt, summarize, type LatencySummary } from '../lib/load.js';
import { AttemptApi } from './api.js';
import { QUESTIONS } from './exam.js';
import { fixedRates, surge, type RatePhase, type Surge } from './phases.js';
import { rawSaves, type RawResult } from './raw.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const STUDENTS = Number(env('BENCH_STUDENTS', '500'));
const SAVES = Number(env('BENCH_SAVES', '40'));
const SECONDS = Number(env('BENCH_SECONDS', '20'));
const CLIENTS = Number(env('BENCH_CLIENTS', '50'));
// Fixed rates a busy 2-core machine serves without a queue (the surge measures the capacity): the
// latencies are then service times, not waiting.
const SAVE_RATE = Number(env('BENCH_SAVE_RATE', '40'));
const SUBMIT_RATE = Number(env('BENCH_SUBMIT_RATE', '4'));
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const brokers = env('KAFKA_BROKERS', '127.0.0.1:19192');
const dbName = `edu_attempt_bench_${process.pid}`;
const loadAvg = () => os.loadavg().map((x) => x.toFixed(2));

async function startService(port: number) {
  const child = startChild('attempt service', 'attempt', {
    NODE_ENV: 'development',
    PORT: String(port),
    MONGODB_URI: mongoUri,
    MONGODB_DB: dbName,
    KAFKA_BROKERS: brokers,
    OUTBOX_PUBLISHER: 'kafka',
    LOG_LEVEL: 'warn',
  });
  const ready = async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true;
  await until('the attempt service /readyz', ready, { ms: 180_000, watch: [child] });
  return `http://127.0.0.1:${port}`;
}

/** What the phase wrote, read back: every attempt GRADED, `answered` answers saved, at least `saves` saves in all. */
async function verify(db: Db, examId: string, want: { attempts: number; answered: number; saves: number }) {
  const { attempts, answered, saves } = want;
  const docs = await db
    .collection<{ status: string; answers: Array<{ serverVersion: number }> }>('attempts')
    .find({ examId }, { projection: { status: 1, 'answers.serverVersion': 1 } })
    .toArray();
  const bad = docs.filter((d) => {
    const versions = d.answers.map((a) => a.serverVersion);
    const total = versions.reduce((x, y) => x + y, 0);
    return d.status !== 'GRADED' || versions.filter((v) => v > 0).length !== answered || total < saves;
  });
  if (docs.length !== attempts || bad.length > 0) {
    throw new Error(`bench: ${examId}: ${docs.length} of ${attempts} attempts, ${bad.length} not as saved`);
  }
}

const lat = (s: LatencySummary) =>
  `p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 0)} ms (${s.count} ok, ${s.errors} errors)`;

function report(r: { load: string[]; fixed: RatePhase; surge: Surge; raw: RawResult; firstError: string | null }) {
  const cpus = os.cpus();
  const { fixed, surge: s, raw } = r;
  console.log(
    `attempt benchmark on ${cpus.length} x ${cpus[0]?.model ?? 'cpu'}, node ${process.version}, load average ${r.load.join(' ')} at the start, ${loadAvg().join(' ')} at the end`,
  );
  console.log(
    `service: 1 attempt process (LOG_LEVEL warn, outbox relay to Kafka, sweeper on), local MongoDB; exam: ${QUESTIONS} questions (28 single, 4 multiple, 4 true/false groups, 4 short numeric)`,
  );
  console.log(`fixed rate (open loop, latency from when each request was due), ${SECONDS} s each:`);
  console.log(
    `  answer save @ ${SAVE_RATE}/s over ${fixed.attempts} attempts: ${fmt(fixed.save.perSecond)} /s completed, ${lat(fixed.save)}`,
  );
  console.log(
    `  submit      @ ${SUBMIT_RATE}/s, one per attempt, each grading ${QUESTIONS} answers: ${fmt(fixed.submit.perSecond)} /s completed, ${lat(fixed.submit)}`,
  );
  console.log(
    `    (saves spread round robin, up to ${fixed.savedInPhase} per attempt; ${fixed.toppedUp} more saved untimed before the submits so every attempt had ${QUESTIONS} answers)`,
  );
  const saves = s.save.length;
  const apiRate = saves / (s.ms / 1000);
  const rawRate = raw.updates / (raw.ms / 1000);
  console.log(
    `exam surge (closed loop, ${CLIENTS} clients): ${STUDENTS} students each start, save ${SAVES} answers, submit:`,
  );
  console.log(
    `  completed in ${fmt(s.ms / 1000, 2)} s: ${saves} saves = ${fmt(apiRate)} saves/s over the whole surge (its starts and submits included), ${s.errors} errors`,
  );
  console.log(`  save   ${lat(summarize(s.save))}`);
  console.log(`  start  ${lat(summarize(s.start))}`);
  console.log(`  submit ${lat(summarize(s.submit))}`);
  console.log(
    `raw driver baseline: ${raw.updates} conditional updateOne of the service's answer write into the same ${STUDENTS} documents, ${CLIENTS} clients: ${fmt(raw.ms / 1000, 2)} s = ${fmt(rawRate)} updates/s, ${lat(summarize(raw.latencies, raw.errors))}`,
  );
  console.log(`save throughput: ${fmt(apiRate / rawRate, 2)}x the raw driver (goal: at least 0.5)`);
  if (r.firstError) console.log(`first refused request: ${r.firstError}`);
}

async function main(): Promise<void> {
  const client = await MongoClient.connect(mongoUri);
  const db = client.db(dbName);
  const cleanup = async () => {
    await stopAll();
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  try {
    const load = loadAvg();
    const api = new AttemptApi(await startService(await freePort()));
    const fixedExam = `exam-fixed-${randomUUID()}`;
    const opts = { saveRate: SAVE_RATE, submitRate: SUBMIT_RATE, seconds: SECONDS, clients: CLIENTS };
    const fixed = await fixedRates(api, fixedExam, opts);
    await verify(db, fixedExam, { attempts: fixed.attempts, answered: QUESTIONS, saves: 0 });
    const surgeExam = `exam-surge-${randomUUID()}`;
    const s = await surge(api, surgeExam, { students: STUDENTS, saves: SAVES, clients: CLIENTS });
    await verify(db, surgeExam, { attempts: STUDENTS, answered: Math.min(SAVES, QUESTIONS), saves: SAVES });
    const raw = await rawSaves(db, s.ids, SAVES, CLIENTS);
    report({ load, fixed, surge: s, raw, firstError: api.firstError });
  } finally {
    await cleanup();
  }
}

await main();
