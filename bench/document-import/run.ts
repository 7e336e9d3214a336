// bench/document-import: the DOCX import pipeline as deployed, on real processes: uploads through the
// document-import API (multipart, teacher headers) become jobs on Kafka, docx-worker processes parse
// them, completion is read back through the API. Reports jobs/minute with 1 and 2 workers on a
// 120-question exam, upload → job.completed (p50, p99) under a burst of uploads with 2 workers, and,
// in the same run, the native parser alone in this process (no queue, spool or database) as the
// baseline the pipeline is compared with. The machine is noisy and small: read the ratios.
//   node --import tsx bench/document-import/run.ts   (make bench-document-import)
//   BENCH_JOBS=6 BENCH_BURST=8 ... for a quick run
import os from 'node:os';
import { parseDocx } from '../../services/document-import/src/parser/index.js';
import { makeExam } from '../docx-parse/make-exam.js';
import { fmt, summarize } from '../lib/load.js';
import { pool, type Finished, type Submitted } from './api.js';
import { until } from './procs.js';
import { startStack, type Stack } from './stack.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const JOBS = Number(env('BENCH_JOBS', '30'));
const BURST = Number(env('BENCH_BURST', '50'));
const QUESTIONS = Number(env('BENCH_QUESTIONS', '120'));
const BASELINE_RUNS = Number(env('BENCH_BASELINE_RUNS', '20'));
const DEADLINE_MS = Number(env('BENCH_DEADLINE_S', '1200')) * 1000;
// Uploads in flight during the throughput phases: enough to keep the queue ahead of the workers.
const UPLOAD_CLIENTS = 4;
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const brokers = env('KAFKA_BROKERS', '127.0.0.1:19192');

interface Baseline {
  runs: number;
  totalMs: number;
  medianMs: number;
  questions: number;
}

/** The parser alone, in this process, back to back: what one core parses with nothing around it. */
function bareParser(bytes: Uint8Array, runs: number): Baseline {
  for (let i = 0; i < 10; i++) parseDocx(bytes);
  const ms: number[] = [];
  let questions = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    questions = parseDocx(bytes).questions.length;
    ms.push(performance.now() - t);
  }
  return { runs, totalMs: ms.reduce((a, b) => a + b, 0), medianMs: summarize(ms).p50, questions };
}

const perMinute = (jobs: number, ms: number) => (jobs * 60_000) / ms;

/** Waits until every job of `prefix` is COMPLETED (none FAILED), then reads each one's detail. */
async function drain(stack: Stack, prefix: string, jobs: Submitted[]): Promise<Finished[]> {
  await until(
    `${jobs.length} ${prefix} jobs COMPLETED`,
    async () => {
      if ((await stack.api.count('FAILED', prefix)) > 0) throw new Error(`bench: a ${prefix} job FAILED`);
      return (await stack.api.count('COMPLETED', prefix)) === jobs.length;
    },
    { ms: DEADLINE_MS, watch: stack.children(), everyMs: 250 },
  );
  const done: Finished[] = [];
  for (const job of jobs) done.push(await stack.api.finished(job));
  const wrong = done.find((j) => j.questions !== QUESTIONS);
  if (wrong) throw new Error(`bench: job ${wrong.id} found ${wrong.questions} questions, not ${QUESTIONS}`);
  return done;
}

interface Phase {
  jobs: number;
  /** First upload started → last job.completed. */
  makespanMs: number;
  /** First job.completed → last job.completed (the steady part, without the first job's latency). */
  steadyMs: number;
  done: Finished[];
}

function phaseOf(done: Finished[]): Phase {
  const first = Math.min(...done.map((j) => j.started));
  const ends = done.map((j) => j.completedAt);
  const last = Math.max(...ends);
  return { jobs: done.length, makespanMs: last - first, steadyMs: last - Math.min(...ends), done };
}

async function throughput(stack: Stack, bytes: Uint8Array, workers: number): Promise<Phase> {
  await stack.scaleWorkers(workers);
  // Each worker's first jobs pay for module loading and JIT: run a few through before measuring.
  const warm = `warm${workers}-`;
  const warmJobs = workers * stack.concurrency;
  await drain(stack, warm, await pool(warmJobs, warmJobs, (i) => stack.api.upload(bytes, `${warm}${i}.docx`)));
  const prefix = `tp${workers}w-`;
  const jobs = await pool(JOBS, UPLOAD_CLIENTS, (i) => stack.api.upload(bytes, `${prefix}${i}.docx`));
  return phaseOf(await drain(stack, prefix, jobs));
}

async function burst(stack: Stack, bytes: Uint8Array): Promise<Phase> {
  const jobs = await Promise.all(Array.from({ length: BURST }, (_, i) => stack.api.upload(bytes, `burst-${i}.docx`)));
  return phaseOf(await drain(stack, 'burst-', jobs));
}

function report(bytes: Uint8Array, stack: Stack, r: Results): void {
  const base: Baseline = {
    runs: r.before.runs + r.after.runs,
    totalMs: r.before.totalMs + r.after.totalMs,
    medianMs: (r.before.medianMs + r.after.medianMs) / 2,
    questions: r.before.questions,
  };
  const bare = perMinute(base.runs, base.totalMs);
  const cpus = os.cpus();
  console.log(
    `document-import benchmark on ${cpus.length} x ${cpus[0]?.model ?? 'cpu'}, node ${process.version}, load average ${r.load.join(' ')} at the start, ${loadAvg().join(' ')} at the end`,
  );
  console.log(
    `file: ${QUESTIONS}-question exam (pictures, equations), ${(bytes.length / 1024).toFixed(0)} KiB; every job read back COMPLETED with ${QUESTIONS} questions`,
  );
  console.log(
    `pipeline: 1 document-import API process + docx-worker processes (concurrency ${stack.concurrency} each, ${process.env.BENCH_WORKER_CONCURRENCY ? 'BENCH_WORKER_CONCURRENCY' : 'the default: no *_WORKER_CONCURRENCY set'}), native parser, no document service (media not materialized), directory spool`,
  );
  console.log(
    `baseline, native parser alone in-process (no queue, spool or database): ${fmt(r.before.medianMs)} ms/file median before, ${fmt(r.after.medianMs)} ms after; ${base.runs} runs = ${fmt(bare)} jobs/min on one core`,
  );
  for (const [n, p] of [
    [1, r.one],
    [2, r.two],
  ] as const) {
    const rate = perMinute(p.jobs, p.makespanMs);
    console.log(
      `${n} worker${n > 1 ? 's' : ' '}: ${p.jobs} jobs (${UPLOAD_CLIENTS} uploading clients) in ${fmt(p.makespanMs / 1000)} s = ${fmt(rate)} jobs/min (first upload → last job.completed), ${fmt(perMinute(p.jobs - 1, p.steadyMs))} jobs/min between completions; ${fmt(rate / bare, 2)}x the bare parser`,
    );
  }
  const b = r.burst;
  const latency = summarize(b.done.map((j) => (j.completedAt - j.started) / 1000));
  const accepted = summarize(b.done.map((j) => j.accepted - j.started));
  console.log(
    `burst of ${b.jobs} uploads at once, 2 workers: upload → job.completed p50 ${fmt(latency.p50, 2)} s, p99 ${fmt(latency.p99, 2)} s, max ${fmt(latency.max, 2)} s; 202 answered p50 ${fmt(accepted.p50, 0)} ms, p99 ${fmt(accepted.p99, 0)} ms; drained in ${fmt(b.makespanMs / 1000)} s = ${fmt(perMinute(b.jobs, b.makespanMs))} jobs/min (${fmt(perMinute(b.jobs, b.makespanMs) / bare, 2)}x the bare parser)`,
  );
  console.log(
    `ratios to the bare parser: 1 worker ${fmt(perMinute(r.one.jobs, r.one.makespanMs) / bare, 2)}x, 2 workers ${fmt(perMinute(r.two.jobs, r.two.makespanMs) / bare, 2)}x, 2 workers / 1 worker ${fmt(r.one.makespanMs / r.one.jobs / (r.two.makespanMs / r.two.jobs), 2)}x`,
  );
}

interface Results {
  load: string[];
  before: Baseline;
  after: Baseline;
  one: Phase;
  two: Phase;
  burst: Phase;
}

const loadAvg = () => os.loadavg().map((x) => x.toFixed(2));

async function main(): Promise<void> {
  const bytes = await makeExam(QUESTIONS);
  const load = loadAvg();
  // Measured before the children start and again after the pipeline ran, in this same run.
  const before = bareParser(bytes, BASELINE_RUNS);
  if (before.questions !== QUESTIONS) throw new Error(`bench: the parser found ${before.questions} questions`);
  const stack = await startStack(mongoUri, brokers);
  const stop = (signal: NodeJS.Signals) => {
    void stack.teardown().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const one = await throughput(stack, bytes, 1);
    const two = await throughput(stack, bytes, 2);
    const b = await burst(stack, bytes);
    const after = bareParser(bytes, BASELINE_RUNS);
    report(bytes, stack, { load, before, after, one, two, burst: b });
  } finally {
    await stack.teardown();
  }
}

await main();
