// Mocha root hooks for the cluster suite. With no KUBECONFIG, bring up the local control plane
// (idempotent; its first build takes about 10 minutes); with no KAFKA_BROKERS or MONGODB_URI, the
// test profile's Kafka and MongoDB (the document-import flow runs the real service and workers).
// Each is taken with a lease on this process and given back at the end (EDU_KEEP_INFRA=1 keeps
// them): the servers stop only when no other run (another clone) or person still holds one, so a
// CI run leaves no servers behind and never stops another run's.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { armExitWatchdog } from '../../services/kit/test/support/exit-watchdog.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cluster = path.join(root, 'scripts', 'cluster.sh');
const infra = path.join(root, 'scripts', 'infra.sh');
const started: Array<() => void> = [];
// EDU_KEEP_INFRA=1 takes the manual lease instead, which only `down` by hand gives back.
const lease = process.env.EDU_KEEP_INFRA === '1' ? [] : ['--lease', String(process.pid)];

function upCluster(): void {
  execFileSync('bash', [cluster, 'up', ...lease], { stdio: ['ignore', 'ignore', 'inherit'] });
  // The last user's down starts the next run from an empty etcd, like the test profile's servers.
  started.push(() => execFileSync('bash', [cluster, 'down', '--wipe', ...lease], { stdio: 'inherit' }));
}

function upKafka(): void {
  const out = execFileSync('bash', [infra, 'up', '--profile', 'test', ...lease], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const brokers = /^KAFKA_BROKERS=(.+)$/m.exec(out)?.[1];
  const mongoUri = /^MONGODB_URI=(.+)$/m.exec(out)?.[1];
  if (!brokers || !mongoUri) throw new Error(`scripts/infra.sh printed no KAFKA_BROKERS or MONGODB_URI line:\n${out}`);
  process.env.KAFKA_BROKERS ??= brokers;
  process.env.MONGODB_URI ??= mongoUri;
  started.push(() => execFileSync('bash', [infra, 'down', '--profile', 'test', ...lease], { stdio: 'inherit' }));
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    this.timeout(45 * 60_000);
    if (!process.env.KUBECONFIG) upCluster();
    if (!process.env.KAFKA_BROKERS || !process.env.MONGODB_URI) upKafka();
  },
  afterAll(this: Mocha.Context): void {
    this.timeout(120_000);
    // Armed once the teardown is done: its synchronous stops would otherwise eat the grace.
    if (process.env.EDU_KEEP_INFRA !== '1') for (const stop of started.reverse()) stop();
    armExitWatchdog();
  },
};
