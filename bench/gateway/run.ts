// bench/gateway: the price of the gateway hop. The real auth, analytics and gateway processes run
// against the local MongoDB; `GET /api/auth/me` and an analytics read are measured through the
// gateway and directly against the service in the same run, interleaved in rounds so both see the
// same machine load: latency in an open loop at a fixed rate, throughput in a closed loop.
//   node --import tsx bench/gateway/run.ts   (make bench-gateway)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { MongoClient } from 'mongodb';
import { closedLoop, fmt, summarize, type LatencySummary } from '../lib/load.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const ROUNDS = Number(env('BENCH_ROUNDS', '4'));
const RATE = Number(env('BENCH_RATE', '100'));
const SECONDS = Number(env('BENCH_SECONDS', '3'));
const CONCURRENCY = Number(env('BENCH_CONCURRENCY', '16'));
const mongoUri = env('MONGODB_URI', 'mongodb://127.0.0.1:27037/');
// Not 4190: fetch refuses that port (ManageSieve is on its list of bad ports).
const PORTS = { gateway: 4194, auth: 4191, analytics: 4193 };
const url = (svc: keyof typeof PORTS) => `http://127.0.0.1:${PORTS[svc]}`;
const SECRET = 'bench-gateway-secret-'.padEnd(40, 'x');
const INTERNAL = 'bench-gateway-internal-token';
const dbs = [`edu_auth_gwbench_${process.pid}`, `edu_analytics_gwbench_${process.pid}`];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Without KAFKA_BROKERS the services run HTTP and MongoDB only: no relay, no consumer.
const { KAFKA_BROKERS: _unused, ...baseEnv } = process.env;

// BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": where the gateway's time goes, under this load.
const nodeArgs = (svc: keyof typeof PORTS) =>
  svc === 'gateway' ? (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];

async function start(svc: keyof typeof PORTS, extra: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs(svc), '--import', 'tsx', 'services/cli.ts', svc], {
    env: { ...baseEnv, PORT: String(PORTS[svc]), LOG_LEVEL: 'warn', INTERNAL_API_TOKEN: INTERNAL, ...extra },
    stdio: ['ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if ((await fetch(`${url(svc)}/readyz`).catch(() => null))?.ok) {
      PIDS[svc] = child.pid;
      return child;
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${svc} did not start`);
}

async function json(res: Response): Promise<{ data: Record<string, unknown> }> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { data: Record<string, unknown> };
}

/** A teacher through the auth service, and 200 results of its organization in analytics. */
async function seed(): Promise<{ token: string; userId: string; org: string }> {
  const register = await fetch(`${url('auth')}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL },
    body: JSON.stringify({
      email: `bench-${process.pid}@thpt.edu.vn`,
      password: 'Mật-khẩu-2026',
      fullName: 'Cô Giáo',
      role: 'TEACHER',
    }),
  });
  const session = (await json(register)).data as { accessToken: string; user: { id: string } };
  const org = 'local';
  for (let i = 0; i < 200; i += 1) {
    const body = {
      student: { id: `stu-${i % 40}`, fullName: 'Học sinh', accountCode: null },
      classroom: { id: `class-${i % 5}`, name: '12A' },
      exam: { id: `exam-${i % 10}`, title: 'Thi thử', subjectId: 'math', gradeLevel: 12 },
      score: i % 10,
      maxScore: 10,
      scorePercent: (i % 10) * 10,
      correctCount: 5,
      wrongCount: 5,
      questionCount: 10,
      durationSeconds: 600,
      status: 'GRADED',
      submissionSource: 'STUDENT',
      startedAt: null,
      submittedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      weakTopics: [{ topic: 'Hàm số', topicId: null, questionId: 'q1' }],
    };
    await json(
      await fetch(`${url('analytics')}/v1/analytics/results/bench-${i}/snapshot`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL, 'x-organization-id': org },
        body: JSON.stringify(body),
      }),
    );
  }
  return { token: session.accessToken, userId: session.user.id, org };
}

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The processes a request of this target runs through (CPU accounting). */
  via: Array<keyof typeof PIDS>;
}

/** Process ids by role, for the CPU each request costs in the closed loops (Linux /proc only). */
const PIDS: Record<'client' | keyof typeof PORTS, number | undefined> = {
  client: process.pid,
  gateway: undefined,
  auth: undefined,
  analytics: undefined,
};

/** User plus system CPU time of a process in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Closed loop of one target, adding each process's CPU time over it to `cpu`. */
async function closedLoopCpu(t: Target, cpu: Map<string, number>) {
  const roles = ['client', ...t.via] as Array<keyof typeof PIDS>;
  const before = roles.map((r) => cpuMs(PIDS[r]));
  const result = await closedLoop(once(t), CONCURRENCY, SECONDS);
  roles.forEach((r, i) => cpu.set(r, (cpu.get(r) ?? 0) + cpuMs(PIDS[r]) - before[i]!));
  cpu.set('ok', (cpu.get('ok') ?? 0) + result.ok);
  return result;
}

function cpuLine(cpu: Map<string, number>): string {
  const ok = cpu.get('ok') ?? 0;
  const parts = [...cpu].filter(([k]) => k !== 'ok').map(([k, ms]) => `${k} ${fmt((ms / ok) * 1000, 0)}`);
  return `    CPU per request in the closed loops (us): ${parts.join(', ')}`;
}

function targets(s: { token: string; userId: string; org: string }): Record<string, [Target, Target]> {
  const bearer = { authorization: `Bearer ${s.token}` };
  // Directly, a service gets what the gateway would send it: the internal token and, for analytics, the actor.
  const actor = {
    'x-internal-token': INTERNAL,
    'x-user-id': s.userId,
    'x-user-role': 'TEACHER',
    'x-organization-id': s.org,
  };
  const query = '?classroomId=class-1&limit=20';
  return {
    me: [
      {
        name: 'gateway GET /api/auth/me',
        url: `${url('gateway')}/api/auth/me`,
        headers: bearer,
        via: ['gateway', 'auth'],
      },
      {
        name: 'direct  GET /v1/auth/me',
        url: `${url('auth')}/v1/auth/me`,
        headers: { ...bearer, 'x-internal-token': INTERNAL },
        via: ['auth'],
      },
    ],
    analytics: [
      {
        name: 'gateway GET /api/analytics/results',
        url: `${url('gateway')}/api/analytics/results${query}`,
        headers: bearer,
        via: ['gateway', 'analytics'],
      },
      {
        name: 'direct  GET /v1/analytics/results',
        url: `${url('analytics')}/v1/analytics/results${query}`,
        headers: actor,
        via: ['analytics'],
      },
    ],
  };
}

const once = (t: Target) => async (): Promise<boolean> => {
  const res = await fetch(t.url, { headers: t.headers }).catch(() => null);
  if (!res) return false;
  await res.arrayBuffer();
  return res.status === 200;
};

function line(name: string, s: LatencySummary, perSecond: number): string {
  return `${name.padEnd(36)} n=${s.count} err=${s.errors}  p50 ${fmt(s.p50, 2)} ms  p99 ${fmt(s.p99, 2)} ms  throughput ${fmt(perSecond, 0)} req/s`;
}

async function measure(pair: [Target, Target]): Promise<void> {
  const lat: [number[], number[]] = [[], []];
  const errs = [0, 0];
  const tput: [number[], number[]] = [[], []];
  const cpu: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];
  for (let i = 0; i < 50; i += 1) await Promise.all(pair.map((t) => once(t)())); // warm-up
  for (let r = 0; r < ROUNDS; r += 1) {
    // Alternate which goes first, so neither always gets the fresher machine.
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) errs[k]! += await openLoopInto(lat[k]!, once(pair[k]!));
    for (const k of order) tput[k]!.push((await closedLoopCpu(pair[k]!, cpu[k]!)).perSecond);
  }
  const s = lat.map((l, k) => summarize(l, errs[k])) as [LatencySummary, LatencySummary];
  const t = tput.map((x) => x.reduce((a, b) => a + b, 0) / x.length) as [number, number];
  console.log(line(pair[0].name, s[0], t[0]));
  console.log(cpuLine(cpu[0]));
  console.log(line(pair[1].name, s[1], t[1]));
  console.log(cpuLine(cpu[1]));
  console.log(
    `  ratio gateway/direct: p50 ${fmt(s[0].p50 / s[1].p50, 2)}x  p99 ${fmt(s[0].p99 / s[1].p99, 2)}x (goal <= 1.25)  throughput ${fmt(t[0] / t[1], 2)}x (goal >= 0.8)`,
  );
}

/**
 * bench/lib's openLoop, keeping the samples so rounds pool into one distribution: a request every
 * 1/RATE s whether or not the last one finished, latency counted from when it was due.
 */
async function openLoopInto(into: number[], op: () => Promise<boolean>): Promise<number> {
  const total = Math.round(RATE * SECONDS);
  const start = performance.now();
  const inflight: Array<Promise<void>> = [];
  let errors = 0;
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inflight.push(
      op().then((ok) => {
        if (ok) into.push(performance.now() - due);
        else errors += 1;
      }),
    );
  }
  await Promise.all(inflight);
  return errors;
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  try {
    const mongo = { MONGODB_URI: mongoUri };
    children.push(
      await start('auth', { ...mongo, MONGODB_DB: dbs[0]!, AUTH_JWT_SECRET: SECRET, AUTH_BCRYPT_COST: '4' }),
    );
    children.push(await start('analytics', { ...mongo, MONGODB_DB: dbs[1]! }));
    children.push(
      await start('gateway', {
        AUTH_JWT_SECRET: SECRET,
        GATEWAY_RATE_LIMIT_RPS: '0',
        GATEWAY_AUTH_URL: url('auth'),
        GATEWAY_ANALYTICS_URL: url('analytics'),
      }),
    );
    const pairs = targets(await seed());
    console.log(
      `gateway hop: ${ROUNDS} rounds of ${SECONDS} s open loop at ${RATE} req/s and ${SECONDS} s closed loop with ${CONCURRENCY} clients, each side; ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    await measure(pairs.me!);
    await measure(pairs.analytics!);
  } finally {
    for (const c of children.reverse()) c.kill('SIGTERM');
    const client = await new MongoClient(mongoUri).connect();
    for (const db of dbs)
      await client
        .db(db)
        .dropDatabase()
        .catch(() => undefined);
    await client.close();
  }
}

await main();
