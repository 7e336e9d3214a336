// Mocha root hooks for the cluster suite. With no KUBECONFIG, bring up the local control plane
// (idempotent; its first build takes about 10 minutes); with no KAFKA_BROKERS, the test profile's
// Kafka. Whatever this run started, it stops at the end (EDU_KEEP_INFRA=1 keeps it), so a CI run
// leaves no servers behind; a cluster or Kafka that was already up is left as it was.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cluster = path.join(root, 'scripts', 'cluster.sh');
const infra = path.join(root, 'scripts', 'infra.sh');
const started: Array<() => void> = [];

function succeeds(file: string, args: string[]): boolean {
  try {
    execFileSync('bash', [file, ...args], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function upCluster(): void {
  const wasUp = succeeds(cluster, ['status']);
  execFileSync('bash', [cluster, 'up'], { stdio: ['ignore', 'ignore', 'inherit'] });
  // The next run starts from an empty etcd, like the test profile's empty Kafka and MongoDB.
  if (!wasUp) started.push(() => execFileSync('bash', [cluster, 'down', '--wipe'], { stdio: 'inherit' }));
}

function upKafka(): void {
  const wasUp = succeeds(infra, ['env', '--profile', 'test']);
  const out = execFileSync('bash', [infra, 'up', '--profile', 'test'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const brokers = /^KAFKA_BROKERS=(.+)$/m.exec(out)?.[1];
  if (!brokers) throw new Error(`scripts/infra.sh printed no KAFKA_BROKERS line:\n${out}`);
  process.env.KAFKA_BROKERS = brokers;
  if (!wasUp) started.push(() => execFileSync('bash', [infra, 'down', '--profile', 'test'], { stdio: 'inherit' }));
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    this.timeout(45 * 60_000);
    if (!process.env.KUBECONFIG) upCluster();
    if (!process.env.KAFKA_BROKERS) upKafka();
  },
  afterAll(this: Mocha.Context): void {
    this.timeout(120_000);
    if (process.env.EDU_KEEP_INFRA === '1') return;
    for (const stop of started.reverse()) stop();
  },
};
