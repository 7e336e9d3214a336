// bench/document-import: the DOCX import pipeline as deployed, on real processes: uploads through the
// document-import API (multipart, teacher headers) become jobs on Kafka, docx-worker processes parse
// them, completion is read back through the API. Reports jobs/minute with 1 and 2 workers on a
// 120-question exam, twice: uploads arriving while the workers run (the whole pipeline, bounded by
// whichever of API and workers is slower) and a queue filled through the API first, then drained
// (the workers' own rate); upload → job.completed (p50, p99) under a burst of uploads with 2 workers, and,
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
const BASELINE_RUNS = Number(env('BENCH_BASELINE_RUNS', '30'));
const DEADLINE_MS = Number(env('BENCH_DEADLINE_S', '1200')) * 1000;
// Uploads in flight during the throughput phases: enough to keep the queue ahead of the workers.
const UPLOAD_CLIENTS = 4;
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
const brokers = env('KAFKA_BROKERS', '127.0.0.1:19192');

/** The parser alone, in this process, back to back: what one core parses with nothing around it. */
function bareParser(bytes: Uint8Array, runs: number): number[] {
  for (let i = 0; i < 20; i++) parseDocx(bytes);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const found = parseDocx(bytes).questions.length;
    ms.push(performance.now() - t);
    if (found !== QUESTIONS) throw new Error(`bench: the parser found ${found} questions, not ${QUESTIONS}`);
  }
  return ms;
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
  /** From the phase's start (first upload, or the release of a full queue) to the last job.completed. */
  makespanMs: number;
  /** First job.completed → last job.completed (the steady part, without the first job's latency). */
  steadyMs: number;
  done: Finished[];
}

function phaseOf(done: Finished[], from = Math.min(...done.map((j) => j.started))): Phase {
  const ends = done.map((j) => j.completedAt);
  const last = Math.max(...ends);
  return { jobs: done.length, makespanMs: last - from, steadyMs: last - Math.min(...ends), done };
}

interface Throughput {
  /** Uploads through the API while the workers run (the whole pipeline, the API's accept rate included). */
  live: Phase;
  /** The queue filled through the API first, then drained by the warm workers (the workers' own rate). */
  queued: Phase;
}

const uploadAll = (stack: Stack, bytes: Uint8Array, prefix: string, n: number) =>
  pool(n, UPLOAD_CLIENTS, (i) => stack.api.upload(bytes, `${prefix}${i}.docx`));

async function queuedDrain(stack: Stack, bytes: Uint8Array, workers: number): Promise<Phase> {
  const prefix = `q${workers}w-`;
  stack.hold();
  const jobs = await uploadAll(stack, bytes, prefix, JOBS);
  // Every work item is on the topic (the API's outbox relay has published them) before the release.
  await until(`${JOBS} work items on the queue`, async () => (await stack.queueDepth()) === JOBS, {
    ms: DEADLINE_MS,
    watch: stack.children(),
    everyMs: 250,
  });
  const released = Date.now();
  stack.release();
  return phaseOf(await drain(stack, prefix, jobs), released);
}

async function throughput(stack: Stack, bytes: Uint8Array, workers: number): Promise<Throughput> {
  await stack.scaleWorkers(workers);
  // Each worker's first jobs pay for module loading and JIT: run a few through before measuring.
  const warm = workers * stack.concurrency;
  await drain(stack, `warm${workers}-`, await uploadAll(stack, bytes, `warm${workers}-`, warm));
  const prefix = `tp${workers}w-`;
  const live = phaseOf(await drain(stack, prefix, await uploadAll(stack, bytes, prefix, JOBS)));
  return { live, queued: await queuedDrain(stack, bytes, workers) };
}

async function burst(stack: Stack, bytes: Uint8Array): Promise<Phase> {
  const jobs = await Promise.all(Array.from({ length: BURST }, (_, i) => stack.api.upload(bytes, `burst-${i}.docx`)));
  return phaseOf(await drain(stack, 'burst-', jobs));
}

function report(bytes: Uint8Array, stack: Stack, r: Results): void {
  const all = r.baseline.flat();
  // The median run, not the mean: a run the machine's other load preempted says nothing of the parser.
  const bare = 60_000 / summarize(all).p50;
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
    `baseline, native parser alone in-process (no queue, spool or database): median ${r.baseline.map((ms) => fmt(summarize(ms).p50)).join(' / ')} ms/file before / between / after the pipeline phases; median of all ${all.length} runs ${fmt(summarize(all).p50)} ms = ${fmt(bare)} jobs/min on one core`,
  );
  for (const [n, t] of [
    [1, r.one],
    [2, r.two],
  ] as const) {
    const live = perMinute(t.live.jobs, t.live.makespanMs);
    const queued = perMinute(t.queued.jobs, t.queued.makespanMs);
    const accepted = summarize(t.live.done.map((j) => j.accepted - j.started));
    console.log(
      `${n} worker${n > 1 ? 's' : ' '}: uploads while working: ${t.live.jobs} jobs in ${fmt(t.live.makespanMs / 1000)} s = ${fmt(live)} jobs/min (first upload → last job.completed; 202 p50 ${fmt(accepted.p50, 0)} ms with ${UPLOAD_CLIENTS} clients) = ${fmt(live / bare, 2)}x the bare parser`,
    );
    console.log(
      `${n > 1 ? ' ' : ''}          queue filled through the API, then drained: ${t.queued.jobs} jobs in ${fmt(t.queued.makespanMs / 1000)} s = ${fmt(queued)} jobs/min (release → last job.completed), ${fmt(perMinute(t.queued.jobs - 1, t.queued.steadyMs))} between completions = ${fmt(queued / bare, 2)}x the bare parser`,
    );
  }
  const b = r.burst;
  const latency = summarize(b.done.map((j) => (j.completedAt - j.started) / 1000));
  const accepted = summarize(b.done.map((j) => j.accepted - j.started));
  console.log(
    `burst of ${b.jobs} uploads at once, 2 workers: upload → job.completed p50 ${fmt(latency.p50, 2)} s, p99 ${fmt(latency.p99, 2)} s, max ${fmt(latency.max, 2)} s; 202 answered p50 ${fmt(accepted.p50, 0)} ms, p99 ${fmt(accepted.p99, 0)} ms; drained in ${fmt(b.makespanMs / 1000)} s = ${fmt(perMinute(b.jobs, b.makespanMs))} jobs/min (${fmt(perMinute(b.jobs, b.makespanMs) / bare, 2)}x the bare parser)`,
  );
  console.log(
    `uploads answered 503 busy or 429 over a share (the API spools at most UPLOAD_MAX_CONCURRENT = 4 at once, 2 per teacher) and sent again after Retry-After: ${stack.api.busyRetries}`,
  );
  const ratio = (p: Phase) => fmt(perMinute(p.jobs, p.makespanMs) / bare, 2);
  const scale = (one: Phase, two: Phase) => fmt(one.makespanMs / one.jobs / (two.makespanMs / two.jobs), 2);
  console.log(
    `ratios to the bare parser (${fmt(bare)} jobs/min): uploads while working 1 worker ${ratio(r.one.live)}x, 2 workers ${ratio(r.two.live)}x (2/1 = ${scale(r.one.live, r.two.live)}x); queue drained 1 worker ${ratio(r.one.queued)}x, 2 workers ${ratio(r.two.queued)}x (2/1 = ${scale(r.one.queued, r.two.queued)}x)`,
  );
}

interface Results {
  load: string[];
  /** Parse times (ms) before, between and after the pipeline phases. */
  baseline: number[][];
  one: Throughput;
  two: Throughput;
  burst: Phase;
}

const loadAvg = () => os.loadavg().map((x) => x.toFixed(2));

async function main(): Promise<void> {
  const bytes = await makeExam(QUESTIONS);
  const load = loadAvg();
  // Measured before the children start, between the phases and after them, in this same run.
  const baseline = [bareParser(bytes, BASELINE_RUNS)];
  const stack = await startStack(mongoUri, brokers);
  const stop = (signal: NodeJS.Signals) => {
    void stack.teardown().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const one = await throughput(stack, bytes, 1);
    baseline.push(bareParser(bytes, BASELINE_RUNS));
    const two = await throughput(stack, bytes, 2);
    const b = await burst(stack, bytes);
    baseline.push(bareParser(bytes, BASELINE_RUNS));
    report(bytes, stack, { load, baseline, one, two, burst: b });
  } finally {
    await stack.teardown();
  }
}

await main();
