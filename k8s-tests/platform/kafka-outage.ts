// A Kafka outage under the release (issue 21): the broker every pod of the release talks to is
// stopped for a minute: on the local node the secure profile's (SASL_SSL, outside the cluster), on
// kind the chart's in-cluster Kafka (its StatefulSet scaled to 0 and back; its log is on a volume).
// The Services must stay in rotation (readiness gates on MongoDB only), writes must succeed (the
// outbox keeps their events), and the events must reach the topic once the broker is back.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs';
import { kubectl } from '../helpers/cluster.js';
import { repoRoot } from '../helpers/kube.js';
import { SERVICES } from '../../services/registry.js';
import { forward, type PortForward } from '../helpers/port-forward.js';
import { waitFor } from '../helpers/wait.js';
import { INSTANCE, NAMESPACE, RELEASE, isReady, ns, pods, secureEnv } from './release.js';

/** The components that serve traffic through a Service (the workers read the queue: not in rotation). */
const IN_ROTATION = SERVICES.map((s) => s.name);

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

/** Where the broker is and how to stop it, start it and read a topic from the test process. */
export interface Broker {
  stop(): Promise<void>;
  start(): Promise<void>;
  /** A kafkajs client's connection settings, and what to close once read. */
  client(): Promise<{
    config: Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl' | 'socketFactory'>;
    close(): Promise<void>;
  }>;
}

/**
 * The secure profile's broker on this machine. kafka-stop names this process's lease (node-setup.ts
 * took it): the script waits only for other runs sharing the profile, never for the suite itself.
 */
export function secureBroker(): Broker {
  const script = (cmd: 'kafka-stop' | 'kafka-start') => {
    const lease = cmd === 'kafka-stop' && process.env.EDU_KEEP_INFRA !== '1' ? ['--lease', String(process.pid)] : [];
    execFileSync('bash', [path.join(repoRoot, 'scripts', 'infra.sh'), cmd, '--profile', 'secure', ...lease], {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
  };
  return {
    stop: async () => script('kafka-stop'),
    start: async () => script('kafka-start'),
    client: async () => ({
      config: {
        brokers: (secureEnv('KAFKA_BROKERS') ?? '').split(','),
        ssl: { ca: [readFileSync(secureEnv('KAFKA_SSL_CA_FILE') ?? '', 'utf8')] },
        sasl: {
          mechanism: 'scram-sha-512',
          username: secureEnv('KAFKA_SASL_USERNAME') ?? '',
          password: secureEnv('KAFKA_SASL_PASSWORD') ?? '',
        },
      },
      close: async () => undefined,
    }),
  };
}

/**
 * The chart's in-cluster Kafka (kind): its StatefulSet scaled to 0 until the pod is gone, then back
 * to 1 until it is Ready. Read through a port-forward to the pod: every connection kafkajs opens,
 * whatever host the broker advertises (its in-cluster name), goes to the one forwarded broker.
 */
export function inClusterBroker(): Broker {
  const sts = `statefulset/${RELEASE}-kafka`;
  const pod = `${RELEASE}-kafka-0`;
  return {
    async stop() {
      await kubectl(ns(['scale', sts, '--replicas=0']));
      await kubectl(ns(['wait', '--for=delete', `pod/${pod}`, '--timeout=300s']), { timeoutMs: 310_000 });
    },
    async start() {
      await kubectl(ns(['scale', sts, '--replicas=1']));
      await kubectl(ns(['rollout', 'status', sts, '--timeout=600s']), { timeoutMs: 610_000 });
      await kubectl(ns(['wait', '--for=condition=Ready', `pod/${pod}`, '--timeout=300s']), { timeoutMs: 310_000 });
    },
    async client() {
      const pf: PortForward = await forward({ namespace: NAMESPACE, resource: `pod/${pod}`, remotePort: 9092 });
      return {
        config: {
          brokers: [`127.0.0.1:${pf.port}`],
          socketFactory: ({ onConnect }) => net.connect({ host: '127.0.0.1', port: pf.port }, onConnect),
        },
        close: () => pf.stop(),
      };
    },
  };
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
async function deliveredKeys(broker: Broker, topic: string, ids: string[]): Promise<string[]> {
  const { config, close } = await broker.client();
  const kafka = new Kafka({ clientId: 'node-suite-outage', ...config, logLevel: logLevel.NOTHING });
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
    await close();
  }
  return ids.filter((id) => seen.has(id));
}

/**
 * Stops the broker, waits until the service reports it down, registers a user, keeps the broker down
 * for `outageMs` while watching rotation, registers another, starts the broker and reads the events.
 */
export async function kafkaOutage(
  broker: Broker,
  auth: { url: string; token: string },
  topic: string,
  outageMs: number,
): Promise<OutageResult> {
  const result: OutageResult = { unready: [], readyzFailures: [], userIds: [], delivered: [] };
  await broker.stop();
  try {
    await waitFor(
      'auth to report Kafka down in /readyz',
      async () => (await readyz(auth.url)).kafka.startsWith('fail'),
      {
        timeoutMs: 120_000,
        intervalMs: 1000,
      },
    );
    result.userIds.push(await register(auth.url, auth.token));
    await watchRotation(auth.url, outageMs, result);
    result.userIds.push(await register(auth.url, auth.token));
  } finally {
    await broker.start();
  }
  result.delivered = await deliveredKeys(broker, topic, result.userIds);
  return result;
}
