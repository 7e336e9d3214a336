// The readiness probe of scripts/infra.sh (run_probe): probes the servers named by PROBE_*
// variables until each answers or PROBE_TIMEOUT_MS passes, with the drivers the project itself
// uses. Prints one line per server: "<name> ok [transactions=true|false]" or "<name> fail <reason>".
// mongo: a real wire-protocol round trip (ping + isMaster/hello); with PROBE_MONGO_RS_PORT it first
// initiates the single-node replica set rs0 and waits for it to become primary.
// kafka: a real Metadata round trip through kafkajs (describeCluster + listTopics).
// mtls: the mongo round trip through a second TLS route that requires a client certificate.
// A pid given in PROBE_*_PID that exits ends that server's wait early.
//   PROBE_TIMEOUT_MS=... PROBE_MONGO_URI=... node --import tsx scripts/lib/probe.ts
import { readFileSync } from 'node:fs';
import type { SASLOptions } from 'kafkajs';
import type { Db, MongoClientOptions } from 'mongodb';
import { withTimeout } from '../../services/kit/src/core/timing.js';

/** What one probe of a server found beyond "it answers". */
interface Answer {
  extra?: string;
}
type Result = ({ ok: true } & Answer) | { ok: false; why: string };
interface Tls {
  tls?: true;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

const env = process.env;
const timeoutMs = Number(env.PROBE_TIMEOUT_MS);
const deadline = Date.now() + timeoutMs;
const MONGO_TIMEOUTS = { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000, socketTimeoutMS: 3000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readEnvFile = (name: string): Buffer | undefined => {
  const file = env[name];
  return file ? readFileSync(file) : undefined;
};

/** TLS options from <PREFIX>_CA / _CERT / _KEY (file paths); none set: no TLS. */
function tlsOptions(prefix: string): Tls {
  const [ca, cert, key] = ['CA', 'CERT', 'KEY'].map((k) => readEnvFile(`${prefix}_${k}`));
  if (!ca && !cert) return {};
  return { tls: true, ...(ca && { ca }), ...(cert && { cert, key }) };
}

/** Whether the process runs (a zombie does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Probes with `once` until it answers, the deadline passes or process `pid` (0: none) exits. */
async function waitFor(pid: number, once: () => Promise<Answer>): Promise<Result> {
  let last = 'none yet';
  while (Date.now() < deadline) {
    if (pid && !alive(pid)) return { ok: false, why: `process ${pid} exited (last probe error: ${last})` };
    try {
      return { ok: true, ...(await withTimeout(once(), 5000, 'probe timed out after 5000 ms')) };
    } catch (e) {
      last = (e instanceof Error && e.message) || String(e);
    }
    await sleep(150);
  }
  return { ok: false, why: `not ready after ${timeoutMs / 1000} s (last error: ${last})` };
}

/** replSetInitiate of rs0 on this one member; 23 AlreadyInitialized: a previous attempt got there. */
async function initiate(admin: Db, port: string): Promise<void> {
  try {
    await admin.command({ replSetInitiate: { _id: 'rs0', members: [{ _id: 0, host: `127.0.0.1:${port}` }] } });
  } catch (e) {
    if ((e as { code?: unknown }).code !== 23) throw e;
  }
}

/**
 * A fresh `mongod --replSet rs0` answers but has no config until replSetInitiate; talk to it
 * directly (no replicaSet= option, which would not match an uninitialised node).
 */
async function ensurePrimary(port: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const direct = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, MONGO_TIMEOUTS);
  try {
    const admin = direct.db('admin');
    let hello = await admin.command({ hello: 1 });
    if (!hello.setName) {
      await initiate(admin, port);
      hello = await admin.command({ hello: 1 });
    }
    if (!hello.isWritablePrimary) throw new Error('replica set rs0 has no primary yet');
  } finally {
    await direct.close().catch(() => undefined);
  }
}

async function mongoOnce(): Promise<Answer> {
  if (env.PROBE_MONGO_RS_PORT) await ensurePrimary(env.PROBE_MONGO_RS_PORT);
  return mongoOnceAt(env.PROBE_MONGO_URI ?? '', tlsOptions('PROBE_MONGO'));
}

/** ping, then whether the server offers transactions (sessions, and a replica set or mongos). */
async function mongoOnceAt(uri: string, tls: Tls): Promise<Answer> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri, { ...MONGO_TIMEOUTS, ...tls } as MongoClientOptions);
  try {
    const admin = client.db('admin');
    await admin.command({ ping: 1 });
    // isMaster first: mongo-java-server has no `hello` (and logs a stack trace for it);
    // mongod still answers isMaster, `hello` is only the fallback for servers that dropped it.
    const hello = await admin.command({ isMaster: 1 }).catch(() => admin.command({ hello: 1 }));
    const tx = hello.logicalSessionTimeoutMinutes != null && (Boolean(hello.setName) || hello.msg === 'isdbgrid');
    return { extra: `transactions=${tx}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * SASL_SSL: PROBE_KAFKA_CA (file), PROBE_KAFKA_SASL_MECHANISM, _USERNAME, _PASSWORD_FILE (the
 * password never goes on a command line).
 */
function kafkaSecurity(): { ssl?: Omit<Tls, 'tls'>; sasl?: SASLOptions } {
  const { tls, ...ssl } = tlsOptions('PROBE_KAFKA');
  const mechanism = env.PROBE_KAFKA_SASL_MECHANISM;
  const password = readEnvFile('PROBE_KAFKA_SASL_PASSWORD_FILE')?.toString('utf8').trim() ?? '';
  return {
    ...(tls && { ssl }),
    ...(mechanism && {
      sasl: { mechanism, username: env.PROBE_KAFKA_SASL_USERNAME ?? '', password } as SASLOptions,
    }),
  };
}

async function kafkaOnce(): Promise<Answer> {
  const { Kafka, logLevel } = await import('kafkajs');
  const admin = new Kafka({
    clientId: 'edu-infra-probe',
    brokers: [env.PROBE_KAFKA_BROKERS ?? ''],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 3000,
    retry: { retries: 0 },
    ...kafkaSecurity(),
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (!cluster.brokers.length) throw new Error('metadata lists no broker yet');
    await admin.listTopics();
    // With PROBE_KAFKA_GROUPS: ready only once the group coordinator answers (a fresh broker makes
    // __consumer_offsets on the first FindCoordinator and answers COORDINATOR_NOT_AVAILABLE until then).
    if (env.PROBE_KAFKA_GROUPS) await admin.describeGroups(['edu-infra-probe']);
    return {};
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** The servers the environment names: name, the pid whose exit ends the wait, one probe. */
function checks(): Array<[string, number, () => Promise<Answer>]> {
  const mongoPid = Number(env.PROBE_MONGO_PID || 0);
  const found: Array<[string, number, () => Promise<Answer>]> = [];
  if (env.PROBE_MONGO_URI) found.push(['mongo', mongoPid, mongoOnce]);
  if (env.PROBE_KAFKA_BROKERS) found.push(['kafka', Number(env.PROBE_KAFKA_PID || 0), kafkaOnce]);
  const mtlsUri = env.PROBE_MTLS_URI;
  if (mtlsUri) found.push(['mtls', mongoPid, () => mongoOnceAt(mtlsUri, tlsOptions('PROBE_MTLS'))]);
  return found;
}

async function main(): Promise<void> {
  const servers = checks();
  const results = await Promise.all(servers.map(([, pid, once]) => waitFor(pid, once)));
  servers.forEach(([name], i) => {
    const r = results[i]!;
    console.log(r.ok ? `${name} ok${r.extra ? ` ${r.extra}` : ''}` : `${name} fail ${r.why}`);
  });
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(2);
});
