// bench/kafka-secure: what TLS + SASL (SCRAM-SHA-512) costs the platform's Kafka clients. The same
// kit bus publishes and consumes through the test profile's plaintext broker (the baseline) and the
// secure profile's SASL_SSL broker (scripts/infra.sh --profile secure), in one run on one machine:
//   - end-to-end latency: bus.publish of one 1 KB event at a fixed rate until a subscription of
//     the same process receives it (p50/p99);
//   - throughput: batches of 500 1 KB events published back to back (events/s);
//   - connect: a fresh bus's first publish (TCP + TLS handshake + SASL exchange + metadata).
// Ratios secure/plain are what to read: the machine is shared and noisy.
//   make bench-kafka-secure
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLogger, kafkaBusOptions, kafkaConfig, loadConfig } from '../../services/kit/src/core/index.js';
import { createKafkaBus, type EventBus } from '../../services/kit/src/bus/index.js';
import Joi from 'joi';
import { openLoop, type LatencySummary } from '../lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');
const RATE = Number(process.env.BENCH_RATE ?? '200');
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? '8');
const BATCH = 500;
const PAYLOAD = 'x'.repeat(1024);
const script = fileURLToPath(new URL('../../scripts/infra.sh', import.meta.url));
const logger = createLogger({ name: 'bench-kafka-secure', level: 'silent' });

function profileEnv(profile: 'test' | 'secure'): Record<string, string> {
  const out = execFileSync('bash', [script, 'up', '--profile', profile, '--lease', String(process.pid)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const env: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

function release(profile: 'test' | 'secure'): void {
  execFileSync('bash', [script, 'down', '--profile', profile, '--lease', String(process.pid)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A kit bus from a profile's env lines, exactly as a service builds its own. */
function busFor(env: Record<string, string>, clientId: string): EventBus {
  const config = loadConfig(Joi.object(kafkaConfig), env);
  return createKafkaBus(kafkaBusOptions(config, clientId, logger));
}

interface Figures {
  connectMs: number;
  latency: LatencySummary;
  eventsPerSecond: number;
}

async function measure(env: Record<string, string>, label: string): Promise<Figures> {
  const topic = `bench-kafka-secure.${label}.${randomUUID()}`;
  const t0 = performance.now();
  const bus = busFor(env, `bench-${label}`);
  await bus.ensureTopics([{ name: topic, partitions: 3 }]);
  await bus.publish(topic, [{ key: 'warm-up', value: null }]);
  const connectMs = performance.now() - t0;
  const pending = new Map<string, () => void>();
  const sub = await bus.subscribe({
    topic,
    groupId: `bench-${randomUUID()}`,
    deadLetterTopic: false,
    concurrency: 3,
    handle: async (m) => pending.get(m.key ?? '')?.(),
  });
  try {
    // Until the group has its partitions, a first publish would wait for the join, not the broker.
    await settle(bus, topic, pending);
    const latency = await openLoop(
      async () => {
        const key = randomUUID();
        const arrived = new Promise<void>((resolve) => pending.set(key, resolve));
        await bus.publish(topic, [{ key, value: PAYLOAD }]);
        await arrived;
        pending.delete(key);
        return true;
      },
      RATE,
      SECONDS,
    );
    const eventsPerSecond = await throughput(bus, topic);
    return { connectMs, latency, eventsPerSecond };
  } finally {
    await sub.stop();
    await bus.close();
  }
}

async function settle(bus: EventBus, topic: string, pending: Map<string, () => void>): Promise<void> {
  for (;;) {
    const key = randomUUID();
    const arrived = new Promise<boolean>((resolve) => pending.set(key, () => resolve(true)));
    await bus.publish(topic, [{ key, value: PAYLOAD }]);
    const ok = await Promise.race([arrived, new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    pending.delete(key);
    if (ok) return;
  }
}

async function throughput(bus: EventBus, topic: string): Promise<number> {
  const batch = Array.from({ length: BATCH }, (_, i) => ({ key: `k${i % 50}`, value: PAYLOAD }));
  const until = performance.now() + THROUGHPUT_SECONDS * 1000;
  const started = performance.now();
  let sent = 0;
  while (performance.now() < until) {
    await bus.publish(topic, batch);
    sent += BATCH;
  }
  return sent / ((performance.now() - started) / 1000);
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

async function main(): Promise<void> {
  const plainEnv = { KAFKA_BROKERS: profileEnv('test').KAFKA_BROKERS ?? '' };
  const secureEnv = profileEnv('secure');
  try {
    // Interleaved twice, so a load spike on the machine hits both sides alike.
    const runs: Record<'plain' | 'secure', Figures[]> = { plain: [], secure: [] };
    for (let round = 0; round < 2; round += 1) {
      runs.plain.push(await measure(plainEnv, 'plain'));
      runs.secure.push(await measure(secureEnv, 'secure'));
    }
    const best = (f: Figures[]) => ({
      connectMs: Math.min(...f.map((x) => x.connectMs)),
      p50: Math.min(...f.map((x) => x.latency.p50)),
      p99: Math.min(...f.map((x) => x.latency.p99)),
      eventsPerSecond: Math.max(...f.map((x) => x.eventsPerSecond)),
      errors: f.reduce((n, x) => n + x.latency.errors, 0),
    });
    const p = best(runs.plain);
    const s = best(runs.secure);
    console.log(
      `kafka through the kit bus, ${RATE} events/s for ${SECONDS} s, 1 KB events, best of 2 interleaved rounds`,
    );
    console.log(`                      plaintext   SASL_SSL (SCRAM-SHA-512)   ratio secure/plain`);
    console.log(
      `first publish (ms)    ${fmt(p.connectMs).padStart(9)}   ${fmt(s.connectMs).padStart(24)}   ${fmt(s.connectMs / p.connectMs)}`,
    );
    console.log(`end-to-end p50 (ms)   ${fmt(p.p50).padStart(9)}   ${fmt(s.p50).padStart(24)}   ${fmt(s.p50 / p.p50)}`);
    console.log(`end-to-end p99 (ms)   ${fmt(p.p99).padStart(9)}   ${fmt(s.p99).padStart(24)}   ${fmt(s.p99 / p.p99)}`);
    console.log(
      `throughput (events/s) ${fmt(p.eventsPerSecond).padStart(9)}   ${fmt(s.eventsPerSecond).padStart(24)}   ${fmt(s.eventsPerSecond / p.eventsPerSecond)}`,
    );
    console.log(`errors: plain ${p.errors}, secure ${s.errors}`);
  } finally {
    release('secure');
    release('test');
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
