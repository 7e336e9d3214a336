// bench/auth: login and refresh throughput at the bcrypt cost in use, and me / refresh p99 at a
// fixed request rate, against the real auth service process and the local MongoDB. Baselines in
// the same run: bare bcrypt compares per second (the ceiling for login) and /healthz p99 at the
// same rate as me (the HTTP floor), so the figures read as ratios on a noisy machine.
//   node --import tsx bench/auth/run.ts   (make bench-auth)
import { spawn } from 'node:child_process';
import os from 'node:os';
import bcrypt from 'bcrypt';
import { closedLoop, fmt, openLoop, summarize } from '../lib/load.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const COST = Number(env('AUTH_BCRYPT_COST', '12'));
const TOKEN_COST = Number(env('AUTH_TOKEN_BCRYPT_COST', '10'));
const SECONDS = Number(env('BENCH_SECONDS', '10'));
const RATE = Number(env('BENCH_RATE', '50'));
// Each rotation chain must have at most one refresh in flight (a second use is a replay), so the
// fixed rate stays well below chains / latency.
const REFRESH_RATE = Number(env('BENCH_REFRESH_RATE', '4'));
const PORT = 4091;
const BASE = `http://127.0.0.1:${PORT}`;

async function startService(): Promise<() => void> {
  const mongo = process.env.MONGODB_URI ?? process.env.EDU_TEST_MONGODB_URI ?? 'mongodb://127.0.0.1:27037/';
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/cli.ts', 'auth'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      MONGODB_URI: mongo,
      MONGODB_DB: `edu_auth_bench_${process.pid}`,
      LOG_LEVEL: 'warn',
      AUTH_BCRYPT_COST: String(COST),
      AUTH_TOKEN_BCRYPT_COST: String(TOKEN_COST),
      // The benchmark logs in thousands of times from one address; throttling is not what it measures.
      AUTH_LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      AUTH_HASH_QUEUE: '10000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i += 1) {
    if ((await fetch(`${BASE}/readyz`).catch(() => null))?.ok) return () => child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('auth service did not start');
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function bcryptCeiling(seconds: number): Promise<number> {
  const hash = await bcrypt.hash('benchmark-password', COST);
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  return (await closedLoop(async () => bcrypt.compare('benchmark-password', hash), threads, seconds)).perSecond;
}

async function main(): Promise<void> {
  const stop = await startService();
  try {
    const users = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const u = { email: `bench${i}.${process.pid}@bench.vn`, password: 'Benchmark-pass-1', fullName: 'Bench User' };
        const res = await post('/v1/auth/register', u);
        return { ...u, session: ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data };
      }),
    );
    const ceiling = await bcryptCeiling(Math.min(5, SECONDS));
    const login = await closedLoop(
      async (w) =>
        (
          await post('/v1/auth/login', {
            email: users[w % users.length]!.email,
            password: users[w % users.length]!.password,
          })
        ).ok,
      8,
      SECONDS,
    );
    // Each worker follows its own rotation chain: a refresh token works once.
    const chains = users.map((u) => u.session.refreshToken);
    const refresh = await closedLoop(
      async (w) => {
        const res = await post('/v1/auth/refresh', { refreshToken: chains[w] });
        if (!res.ok) return false;
        chains[w] = ((await res.json()) as { data: { refreshToken: string } }).data.refreshToken;
        return true;
      },
      users.length,
      SECONDS,
    );
    const access = users[0]!.session.accessToken;
    const healthz = await openLoop(async () => (await fetch(`${BASE}/healthz`)).ok, RATE, SECONDS);
    const me = await openLoop(
      async () => (await fetch(`${BASE}/v1/auth/me`, { headers: { authorization: `Bearer ${access}` } })).ok,
      RATE,
      SECONDS,
    );
    let next = 0;
    const pool = chains.slice();
    const refreshP = await openLoop(
      async () => {
        const w = next++ % pool.length;
        const res = await post('/v1/auth/refresh', { refreshToken: pool[w] });
        if (res.ok) pool[w] = ((await res.json()) as { data: { refreshToken: string } }).data.refreshToken;
        return res.ok;
      },
      REFRESH_RATE,
      SECONDS,
    );
    const timing = await failureTiming(users);
    console.log(
      `auth benchmark on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, bcrypt cost ${COST} (passwords) / ${TOKEN_COST} (refresh digests), ${SECONDS}s per phase`,
    );
    console.log(
      `baseline bare bcrypt.compare (cost ${COST}, ${process.env.UV_THREADPOOL_SIZE ?? 4} threads): ${fmt(ceiling)} /s`,
    );
    console.log(
      `login   throughput: ${fmt(login.perSecond)} /s (8 clients, ${login.errors} errors) = ${fmt(login.perSecond / ceiling, 2)}x the bcrypt ceiling`,
    );
    console.log(
      `refresh throughput: ${fmt(refresh.perSecond)} /s (${users.length} rotation chains, ${refresh.errors} errors)`,
    );
    console.log(`baseline /healthz @ ${RATE}/s: p50 ${fmt(healthz.p50, 2)} ms, p99 ${fmt(healthz.p99, 2)} ms`);
    console.log(
      `me      @ ${RATE}/s: p50 ${fmt(me.p50, 2)} ms, p99 ${fmt(me.p99, 2)} ms (${me.errors} errors) = ${fmt(me.p99 / healthz.p99, 2)}x healthz p99`,
    );
    console.log(
      `refresh @ ${REFRESH_RATE}/s: p50 ${fmt(refreshP.p50, 2)} ms, p99 ${fmt(refreshP.p99, 2)} ms (${refreshP.errors} errors)`,
    );
    console.log(
      `failed login, unknown email: mean ${fmt(timing.unknown.mean)} ms, p90 ${fmt(timing.unknown.p90)} ms; wrong password: mean ${fmt(timing.wrong.mean)} ms, p90 ${fmt(timing.wrong.p90)} ms; ratio ${fmt(timing.unknown.mean / timing.wrong.mean, 2)}`,
    );
  } finally {
    stop();
  }
}

/** Sequential failures, alternating, so both kinds see the same machine state. */
async function failureTiming(users: Array<{ email: string }>) {
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < 40; i += 1) {
    const t0 = performance.now();
    await post('/v1/auth/login', { email: `nobody${i}@bench.vn`, password: 'wrong-password' });
    unknown.push(performance.now() - t0);
    const t1 = performance.now();
    // Spread over accounts so the per-account throttle (5 failures) never answers first.
    await post('/v1/auth/login', { email: users[i % users.length]!.email, password: 'wrong-password' });
    wrong.push(performance.now() - t1);
    if (i % 4 === 3)
      await Promise.all(users.map((u) => post('/v1/auth/login', { email: u.email, password: 'Benchmark-pass-1' })));
  }
  return { unknown: summarize(unknown), wrong: summarize(wrong) };
}

await main();
