// `make dev` on a fresh machine, as it runs: scripts/infra.sh brings up the dev profile (the
// file-backed MongoDB stand-in with a new data file, or a mongod on PATH, and Kafka) and
// scripts/dev.sh starts every service and both DOCX workers at once against it; every one of them
// must answer /readyz. The first start on a fresh data file is when they race to create the same
// collections (issue 22: a service died with "Document with key 'edu_auth.users' already existed
// in H2Collection(edu_auth.system.namespaces)"), so each round is a private instance with its own
// cache directory (the provisioned jars linked in, read only), its own ports and a fresh file;
// two rounds (the race itself is caught by the racing-creators test below, which failed against the
// unfixed stand-in; a round of every process takes a minute). The user's own dev profile is never
// touched.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { freePorts } from '../kit/test/support/private-kafka.js';
import { DEV_PORT_BASE, devProcesses } from '../registry.js';
import { testMongoUri } from '../kit/test/support/servers.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const realCache = process.env.EDU_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'edu-platform');
/** What dev.sh prints a URL for: every listener of services/registry.ts's dev processes. */
const LISTENERS = devProcesses().flatMap((p) => p.listeners);
const EXPECTED = LISTENERS.map((l) => l.name);
/** dev.sh's ports are EDU_DEV_PORT_BASE + 0..(the highest registry port - DEV_PORT_BASE). */
const PORT_BLOCK = Math.max(...LISTENERS.map((l) => l.port)) - DEV_PORT_BASE + 1;

interface Ran {
  code: number | null;
  out: string;
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const child = spawn('bash', [path.join(repo, 'scripts', script), ...args], {
    cwd: repo,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

function listen(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

/** A base port whose next PORT_BLOCK ports were all free at once (held together, then released). */
async function freeBlock(): Promise<number> {
  for (;;) {
    const base = 20000 + Math.floor(Math.random() * 30000);
    const servers = await Promise.all(Array.from({ length: PORT_BLOCK }, (_, i) => listen(base + i)));
    await Promise.all(servers.map((s) => s && new Promise((r) => s.close(r))));
    if (servers.every(Boolean)) return base;
  }
}

/** A cache directory of its own, with the jars scripts/infra.sh provisioned linked in (read only). */
function privateCache(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edu-dev-start-'));
  const entries = existsSync(realCache) ? readdirSync(realCache) : [];
  for (const entry of entries.filter((e) => /^(kafka|mongo-java-server)-/.test(e))) {
    if (existsSync(path.join(realCache, entry, '.complete')))
      symlinkSync(path.join(realCache, entry), path.join(dir, entry));
  }
  return dir;
}

async function privateEnv(cache: string): Promise<NodeJS.ProcessEnv> {
  const [mongo, kafka, controller] = await freePorts(3);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EDU_CACHE_DIR: cache,
    EDU_MONGO_PORT: String(mongo),
    EDU_KAFKA_PORT: String(kafka),
    EDU_KAFKA_CONTROLLER_PORT: String(controller),
    EDU_DEV_PORT_BASE: String(await freeBlock()),
  };
  // infra.sh passes a given MONGODB_URI through: this instance must start its own servers.
  for (const key of ['MONGODB_URI', 'KAFKA_BROKERS', 'MONGODB_TRANSACTIONS']) delete env[key];
  return env;
}

/** The `name  http://127.0.0.1:port` lines dev.sh printed. */
function printedUrls(out: string): Map<string, string> {
  const urls = new Map<string, string>();
  for (const m of out.matchAll(/^(\S+) +(http:\/\/127\.0\.0\.1:\d+) /gm)) urls.set(m[1]!, m[2]!);
  return urls;
}

async function readyz(url: string): Promise<number> {
  const res = await fetch(`${url}/readyz`);
  await res.body?.cancel();
  return res.status;
}

/** The rejections that are not NamespaceExists (48), as `code message`. */
function unexpected(results: Array<PromiseSettledResult<unknown>>): string[] {
  return results
    .map((r) => (r.status === 'rejected' ? (r.reason as { code?: unknown; message?: string }) : undefined))
    .filter((err) => err !== undefined && err.code !== 48)
    .map((err) => `${String(err?.code)} ${err?.message}`);
}

/**
 * Many clients create one collection at the same moment, half with `create`, half implicitly
 * with `createIndexes`, in fresh databases, round after round. Returns every answer that is
 * neither success nor NamespaceExists (48): what a real MongoDB would never say.
 */
async function racingCreators(uri: string, rounds: number): Promise<string[]> {
  const clients = await Promise.all(
    Array.from({ length: 16 }, () => new MongoClient(uri, { maxPoolSize: 1 }).connect()),
  );
  const odd: string[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const name = `edu_race_${process.pid}_${round}`;
      const creators = clients.map((c, i) =>
        i % 2 ? c.db(name).createCollection('users') : c.db(name).collection('users').createIndex({ email: 1 }),
      );
      odd.push(...unexpected(await Promise.allSettled(creators)));
      await clients[0]!.db(name).dropDatabase();
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  return odd;
}

/** Brings up a private dev profile (own cache, ports and fresh data file), runs `body` with what
 * `infra.sh up` printed and the environment that reaches it, then takes it down and deletes it. */
async function withPrivateDevProfile(body: (infraOut: string, env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
  const cache = privateCache();
  const env = await privateEnv(cache);
  const lease = ['--lease', String(process.pid)];
  try {
    const infra = await run('infra.sh', ['up', '--profile', 'dev', ...lease], env);
    expect(infra.code, `scripts/infra.sh up --profile dev:\n${infra.out}`).to.equal(0);
    await body(infra.out, env);
  } finally {
    await run('infra.sh', ['down', '--profile', 'dev', ...lease, '--force'], env);
    rmSync(cache, { recursive: true, force: true });
  }
}

describe('MongoDB: racing creators of one collection get it or NamespaceExists (48), nothing else', function () {
  this.timeout(5 * 60_000);

  it("the dev profile's server (the H2 file-backed stand-in, or mongod), on a fresh data file", async () => {
    await withPrivateDevProfile(async (infraOut) => {
      const uri = /^MONGODB_URI=(.+)$/m.exec(infraOut)![1]!;
      expect(await racingCreators(uri, 100)).to.deep.equal([]);
    });
  });

  it("the test profile's server (in memory)", async () => {
    expect(await racingCreators(testMongoUri(), 100)).to.deep.equal([]);
  });
});

describe('make dev on a fresh data file: every service and worker, started at once, answers /readyz', function () {
  this.timeout(15 * 60_000);

  for (const round of [1, 2]) {
    it(`round ${round}: a new dev profile instance`, async () => {
      await withPrivateDevProfile(async (_infraOut, env) => {
        try {
          const dev = await run('dev.sh', ['up'], env);
          expect(dev.code, `scripts/dev.sh up:\n${dev.out}`).to.equal(0);
          const urls = printedUrls(dev.out);
          expect([...urls.keys()].sort()).to.deep.equal([...EXPECTED].sort());
          for (const [name, url] of urls) expect(await readyz(url), `${name} ${url}/readyz`).to.equal(200);
        } finally {
          await run('dev.sh', ['down'], env);
        }
      });
    });
  }
});
