// The two API phases: saves and submits at fixed rates (open loop), and the exam-day surge (closed
// loop: each client is one student at a time who starts, saves every answer in turn, submits).
import { openLoop, type LatencySummary } from '../lib/load.js';
import { pool, type AttemptApi } from './api.js';
import { QUESTIONS } from './exam.js';

export interface RatePhase {
  attempts: number;
  save: LatencySummary & { perSecond: number };
  submit: LatencySummary & { perSecond: number };
  /** Answers each attempt carried into the measured saves and submits. */
  savedInPhase: number;
  toppedUp: number;
}

export interface RateOptions {
  saveRate: number;
  submitRate: number;
  seconds: number;
  clients: number;
}

async function timedOpenLoop(op: () => Promise<boolean>, rate: number, seconds: number) {
  const t = performance.now();
  const s = await openLoop(op, rate, seconds);
  return { ...s, perSecond: s.count / ((performance.now() - t) / 1000) };
}

/**
 * One attempt per submit of the submit phase, started through the API first. The saves go round
 * robin over those attempts (each answer once, then again with its version); attempts the save
 * phase did not fill are topped up (closed loop, not timed), so every submit grades 40 answers.
 */
export async function fixedRates(api: AttemptApi, examId: string, o: RateOptions): Promise<RatePhase> {
  const n = Math.max(1, Math.round(o.submitRate * o.seconds));
  const student = (a: number) => `fixed-${a}`;
  const ids = (await pool(n, o.clients, (a) => api.start(examId, student(a)))).map((s) => s.id);
  const versions = ids.map(() => new Array<number>(QUESTIONS).fill(0));
  const saveTo = async (a: number, i: number, seed: number) => {
    const version = versions[a]![i]!;
    versions[a]![i] = version + 1;
    return (await api.save(student(a), ids[a]!, { i, seed, version })).ok;
  };
  let next = 0;
  const save = await timedOpenLoop(
    () => {
      const m = next++;
      return saveTo(m % n, Math.floor(m / n) % QUESTIONS, m);
    },
    o.saveRate,
    o.seconds,
  );
  const missing = versions.flatMap((v, a) => v.flatMap((count, i) => (count === 0 ? [[a, i] as const] : [])));
  await pool(missing.length, o.clients, (m) => saveTo(missing[m]![0], missing[m]![1], m));
  let s = 0;
  const submit = await timedOpenLoop(
    async () => {
      const a = s++;
      return (await api.submit(student(a), ids[a]!)).ok;
    },
    o.submitRate,
    o.seconds,
  );
  return {
    attempts: n,
    save,
    submit,
    savedInPhase: Math.min(QUESTIONS, Math.ceil(save.count / n)),
    toppedUp: missing.length,
  };
}

export interface Surge {
  ids: string[];
  ms: number;
  start: number[];
  save: number[];
  submit: number[];
  errors: number;
}

export async function surge(api: AttemptApi, examId: string, o: { students: number; saves: number; clients: number }) {
  const out: Surge = { ids: new Array<string>(o.students), ms: 0, start: [], save: [], submit: [], errors: 0 };
  const keep = (into: number[], r: { ok: boolean; ms: number }) => (r.ok ? into.push(r.ms) : (out.errors += 1));
  const t0 = performance.now();
  await pool(o.students, o.clients, async (s) => {
    const student = `surge-${s}`;
    const started = await api.start(examId, student);
    out.start.push(started.ms);
    out.ids[s] = started.id;
    const versions = new Array<number>(QUESTIONS).fill(0);
    for (let k = 0; k < o.saves; k++) {
      const i = k % QUESTIONS;
      keep(out.save, await api.save(student, started.id, { i, seed: s + k, version: versions[i]! }));
      versions[i]! += 1;
    }
    keep(out.submit, await api.submit(student, started.id));
  });
  out.ms = performance.now() - t0;
  return out;
}
