// The platform as production runs it (NODE_ENV=production, its own secrets, the gateway in front
// with one trusted proxy hop), as real processes on loopback, with a "legacy" upstream that
// records what reached it. The security suite attacks this stack over HTTP.
import { randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  testDbName,
  testKafkaBrokers,
  testMongoTransactions,
  testMongoUri,
} from '../../services/kit/test/support/servers.js';
import { launch, type ServiceProcess } from './processes.js';

export interface Secrets {
  jwt: string;
  internal: string;
  worker: string;
  metrics: string;
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface Stack {
  secrets: Secrets;
  gateway: string;
  services: Record<ServiceName, string>;
  /** Requests the legacy upstream received, in order. */
  legacy: Received[];
  /** Process ids by name (services, `docx-worker`, `gateway`), for measurements. */
  pids: Record<string, number>;
  /** Environment every service process got (for a test that starts one more). */
  baseEnv: Record<string, string>;
  close(): Promise<void>;
}

export const SERVICE_NAMES = [
  'auth',
  'user',
  'analytics',
  'notification',
  'question-bank',
  'attempt',
  'document-import',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const secret = () => randomBytes(24).toString('base64url');

/** An HTTP server that answers 200 and keeps what it was sent. */
async function legacyRecorder(received: Received[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"legacy":true}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

function commonEnv(secrets: Secrets, file: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    MONGODB_URI: testMongoUri(),
    ...(testMongoTransactions() === true ? {} : { MONGODB_REQUIRE_TRANSACTIONS: 'false' }),
    INTERNAL_API_TOKEN: secrets.internal,
    WORKER_API_TOKEN: secrets.worker,
    METRICS_TOKEN: secrets.metrics,
    AUTH_JWT_SECRET: secrets.jwt,
    AUTH_BCRYPT_COST: '4',
    AUTH_TOKEN_BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    SECURITY_SUITE_FILE: file,
  };
}

function serviceEnv(
  name: ServiceName,
  base: Record<string, string>,
  extra: Record<string, string>,
): Record<string, string> {
  return { ...base, MONGODB_DB: testDbName(name.replace('-', '_'), base.SECURITY_SUITE_FILE ?? 'security'), ...extra };
}

/** Starts every service, one DOCX worker (on the worker token only) and the gateway. */
export async function startStack(file: string): Promise<Stack> {
  const secrets: Secrets = { jwt: secret(), internal: secret(), worker: secret(), metrics: secret() };
  const base = commonEnv(secrets, file);
  const legacy: Received[] = [];
  const recorder = await legacyRecorder(legacy);
  const spool = await mkdtemp(join(tmpdir(), 'security-spool-'));
  const tag = randomUUID().slice(0, 8);
  const kafka = testKafkaBrokers().join(',');
  const started: ServiceProcess[] = [];
  const close = async () => {
    await Promise.all(started.map((p) => p.stop()));
    await recorder.close();
    await rm(spool, { recursive: true, force: true });
  };
  try {
    const simple = SERVICE_NAMES.filter((n) => n !== 'document-import');
    // As the chart runs them: auth trusts one hop (the gateway's X-Forwarded-For) for the client address.
    const extra = (n: ServiceName): Record<string, string> =>
      n === 'auth' ? { TRUST_PROXY: '1' } : { ANALYTICS_CONSUMER: 'off' };
    const procs = await Promise.all(simple.map((n) => launch(n, n, serviceEnv(n, base, extra(n)))));
    started.push(...procs);
    const url = (n: ServiceName) => procs.find((p) => p.name === n)?.url ?? '';
    const importEnv = serviceEnv('document-import', base, {
      KAFKA_BROKERS: kafka,
      QUESTION_BANK_URL: url('question-bank'),
      DOCX_IMPORT_PAYLOAD_DIR: spool,
      DOCX_IMPORT_TOPIC: `docx-import.jobs.s-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.s-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-s-${tag}`,
      OUTBOX_PUBLISHER: 'kafka',
    });
    const importer = await launch('document-import', 'document-import', importEnv);
    started.push(importer);
    const { INTERNAL_API_TOKEN: _internal, ...workerEnv } = importEnv;
    started.push(await launch('docx-worker', 'docx-worker', workerEnv));
    const services = { ...Object.fromEntries(procs.map((p) => [p.name, p.url])), 'document-import': importer.url };
    const gateway = await launch('gateway', 'gateway', {
      ...base,
      GATEWAY_TRUST_PROXY: '1',
      GATEWAY_LEGACY_URL: recorder.url,
      GATEWAY_TABLE_AUTH: 'on',
      GATEWAY_TABLE_ANALYTICS: 'on',
      GATEWAY_TABLE_NOTIFICATIONS: 'on',
      GATEWAY_TABLE_PARENT_ALERTS: 'on',
      GATEWAY_TABLE_DOCUMENT_IMPORT: 'on',
      GATEWAY_AUTH_URL: url('auth'),
      GATEWAY_ANALYTICS_URL: url('analytics'),
      GATEWAY_NOTIFICATIONS_URL: url('notification'),
      GATEWAY_PARENT_ALERTS_URL: url('notification'),
      GATEWAY_DOCUMENT_IMPORT_URL: importer.url,
    });
    started.push(gateway);
    return {
      secrets,
      gateway: gateway.url,
      services: services as Record<ServiceName, string>,
      legacy,
      pids: Object.fromEntries(started.map((p) => [p.name, p.child.pid ?? 0])),
      baseEnv: base,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
