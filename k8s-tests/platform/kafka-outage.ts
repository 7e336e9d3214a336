// A Kafka outage under the release (issue 21): the secure profile's broker, which every pod of the
// release talks to over SASL_SSL, is stopped for a minute. The Services must stay in rotation
// (readiness gates on MongoDB only), writes must succeed (the outbox keeps their events), and the
// events must reach the topic once the broker is back.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { repoRoot } from '../helpers/kube.js';
import { waitFor } from '../helpers/wait.js';
import { INSTANCE, isReady, pods, secureEnv } from './release.js';

/** The components that serve traffic through a Service (the workers read the queue: not in rotation). */
const IN_ROTATION = [
  'auth',
  'user',
  'analytics',
  'notification',
  'question-bank',
  'attempt',
  'document-import',
  'gateway',
];

export interface OutageResult {
  /** Pods of IN_ROTATION seen not Ready while the broker was down, by name. */
  unready: string[];
  /** /readyz answers other than 200 while the broker was down. */
  readyzFailures: string[];
  /** The users registered while the broker was down. */
  userIds: string[];
  /** Their ids found as keys on the user-changed topic after the broker came back. */
  delivered: string[];
}

/**
 * kafka-stop names this process's lease (node-setup.ts took it): the script waits only for other
 * runs sharing the profile, never for the suite itself.
 */
function secureKafka(cmd: 'kafka-stop' | 'kafka-start'): void {
  const lease = cmd === 'kafka-stop' && process.env.EDU_KEEP_INFRA !== '1' ? ['--lease', String(process.pid)] : [];
  execFileSync('bash', [path.join(repoRoot, 'scripts', 'infra.sh'), cmd, '--profile', 'secure', ...lease], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
}

async function readyz(authUrl: string): Promise<{ status: number; kafka: string }> {
  const res = await fetch(`${authUrl}/readyz`, { signal: AbortSignal.timeout(10_000) });
  const body = (await res.json()) as { data?: { checks?: Record<string, string> }; error?: { details?: unknown } };
  return { status: res.status, kafka: body.data?.checks?.kafka ?? JSON.stringify(body) };
}

async function register(authUrl: string, token: string): Promise<string> {
  const res = await fetch(`${authUrl}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Internal-Token': token },
    body: JSON.stringify({
      email: `outage-${randomUUID()}@thpt.edu.vn`,
      password: `Mật-khẩu-${randomUUID()}`,
      fullName: 'Lê Thị Mất Điện',
      role: 'STUDENT',
    }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { data?: { user?: { id?: string } } };
  if (res.status !== 201 || !body.data?.user?.id) throw new Error(`register during the outage: HTTP ${res.status}`);
  return body.data.user.id;
}

/** Samples every in-rotation pod's readiness and auth's /readyz until `ms` have passed. */
async function watchRotation(authUrl: string, ms: number, into: OutageResult): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const p of await pods(INSTANCE)) {
      const component = p.metadata.labels?.['app.kubernetes.io/component'] ?? '';
      if (IN_ROTATION.includes(component) && !isReady(p) && !into.unready.includes(p.metadata.name))
        into.unready.push(p.metadata.name);
    }
    const r = await readyz(authUrl).catch((e: Error) => ({ status: 0, kafka: e.message }));
    if (r.status !== 200) into.readyzFailures.push(`HTTP ${r.status}: ${r.kafka}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** The keys of the records on `topic` (read from the start by a fresh group) once they include every id. */
async function deliveredKeys(topic: string, ids: string[]): Promise<string[]> {
  const kafka = new Kafka({
    clientId: 'node-suite-outage',
    brokers: (secureEnv('KAFKA_BROKERS') ?? '').split(','),
    ssl: { ca: [readFileSync(secureEnv('KAFKA_SSL_CA_FILE') ?? '', 'utf8')] },
    sasl: {
      mechanism: 'scram-sha-512',
      username: secureEnv('KAFKA_SASL_USERNAME') ?? '',
      password: secureEnv('KAFKA_SASL_PASSWORD') ?? '',
    },
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `node-suite-outage-${randomUUID()}` });
  const seen = new Set<string>();
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.add(message.key?.toString() ?? '') });
    await waitFor(`the outage's ${ids.length} events on ${topic}`, async () => ids.every((id) => seen.has(id)), {
      timeoutMs: 180_000,
      intervalMs: 500,
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return ids.filter((id) => seen.has(id));
}

/**
 * Stops the broker, waits until the service reports it down, registers a user, keeps the broker down
 * for `outageMs` while watching rotation, registers another, starts the broker and reads the events.
 */
export async function kafkaOutage(
  authUrl: string,
  token: string,
  topic: string,
  outageMs: number,
): Promise<OutageResult> {
  const result: OutageResult = { unready: [], readyzFailures: [], userIds: [], delivered: [] };
  secureKafka('kafka-stop');
  try {
    await waitFor(
      'auth to report Kafka down in /readyz',
      async () => (await readyz(authUrl)).kafka.startsWith('fail'),
      {
        timeoutMs: 120_000,
        intervalMs: 1000,
      },
    );
    result.userIds.push(await register(authUrl, token));
    await watchRotation(authUrl, outageMs, result);
    result.userIds.push(await register(authUrl, token));
  } finally {
    secureKafka('kafka-start');
  }
  result.delivered = await deliveredKeys(topic, result.userIds);
  return result;
}
