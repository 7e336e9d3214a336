// bench/kit: the kit's per-request cost. The same trivial route served by bare Express and by
// createApp (request id, request log line, duration histogram, error model), each in its own
// child process of the same kind, loaded in turn by one closed-loop generator over keep-alive
// connections. Rounds alternate A/B/A/B so machine noise hits both alike; the ratios reported are
// medians of the per-pair ratios. Beside req/s it reports the server's CPU time per request, which
// a shared machine disturbs far less than throughput.
//   node --import tsx bench/kit/run.ts   (make bench-kit)
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { closedLoop, fmt } from '../lib/load.js';
import { RawConnection } from './raw-client.js';

const env = (k: string, d: string) => Number(process.env[k] ?? d);
const ROUNDS = env('BENCH_ROUNDS', '16');
const SECONDS = env('BENCH_SECONDS', '1');
const CONNECTIONS = env('BENCH_CONNECTIONS', '32');
const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));

interface Target {
  name: string;
  child: ChildProcess;
  connections: RawConnection[];
}

interface Round {
  perSecond: number;
  cpuMicrosPerRequest: number;
}

async function start(name: 'bare' | 'kit'): Promise<Target> {
  const child = fork(serverScript, [name], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
    // The kit's request lines go to stdout; /dev/null still pays pino's write, like a real sink.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
  const connections = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => RawConnection.open(port, '/v1/ping')),
  );
  return { name, child, connections };
}

function cpuMicros(t: Target): Promise<number> {
  return new Promise((resolve) => {
    t.child.once('message', (m) => resolve((m as { cpuMicros: number }).cpuMicros));
    t.child.send('cpu');
  });
}

async function round(t: Target, seconds: number): Promise<Round> {
  const cpuBefore = await cpuMicros(t);
  const r = await closedLoop((w) => t.connections[w]!.get(), t.connections.length, seconds);
  const cpu = (await cpuMicros(t)) - cpuBefore;
  if (r.errors > 0) throw new Error(`${t.name}: ${r.errors} failed requests`);
  return { perSecond: r.perSecond, cpuMicrosPerRequest: cpu / r.ok };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** One A/B pair, the side that goes first alternating so a drift in load favours neither. */
async function pair(bare: Target, kit: Target, i: number): Promise<{ bare: Round; kit: Round }> {
  if (i % 2 === 0) {
    const b = await round(bare, SECONDS);
    return { bare: b, kit: await round(kit, SECONDS) };
  }
  const k = await round(kit, SECONDS);
  return { bare: await round(bare, SECONDS), kit: k };
}

async function main(): Promise<void> {
  const bare = await start('bare');
  const kit = await start('kit');
  try {
    // Warm-up: JIT both paths before anything counts.
    await round(bare, 1);
    await round(kit, 1);
    const pairs: Array<{ bare: Round; kit: Round }> = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      const p = await pair(bare, kit, i);
      pairs.push(p);
      console.log(
        `round ${i + 1}: bare ${fmt(p.bare.perSecond, 0)} req/s (${fmt(p.bare.cpuMicrosPerRequest)} µs CPU/req), kit ${fmt(p.kit.perSecond, 0)} req/s (${fmt(p.kit.cpuMicrosPerRequest)} µs CPU/req), ratio ${fmt(p.kit.perSecond / p.bare.perSecond, 3)}`,
      );
    }
    const ratios = pairs.map((p) => p.kit.perSecond / p.bare.perSecond);
    const cpuRatios = pairs.map((p) => p.bare.cpuMicrosPerRequest / p.kit.cpuMicrosPerRequest);
    console.log(
      `kit benchmark on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}, ${CONNECTIONS} keep-alive connections, ${ROUNDS} x ${SECONDS}s rounds per side`,
    );
    console.log(
      `bare express: median ${fmt(median(pairs.map((p) => p.bare.perSecond)), 0)} req/s, ${fmt(median(pairs.map((p) => p.bare.cpuMicrosPerRequest)))} µs CPU/req`,
    );
    console.log(
      `createApp:    median ${fmt(median(pairs.map((p) => p.kit.perSecond)), 0)} req/s, ${fmt(median(pairs.map((p) => p.kit.cpuMicrosPerRequest)))} µs CPU/req`,
    );
    console.log(
      `ratio createApp / bare express: throughput median ${fmt(median(ratios), 3)} (min ${fmt(Math.min(...ratios), 3)}, max ${fmt(Math.max(...ratios), 3)}); CPU per request (bare / kit) median ${fmt(median(cpuRatios), 3)}`,
    );
  } finally {
    for (const t of [bare, kit]) {
      t.connections.forEach((c) => c.close());
      t.child.disconnect();
    }
  }
}

await main();
