// Mocha global fixtures: the real local servers start once per test run, not once per file.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { armExitWatchdog } from './exit-watchdog.js';

const script = fileURLToPath(new URL('../../../../scripts/infra.sh', import.meta.url));
// The run's lease on the shared test profile: another run (another clone on this machine) keeps
// the servers up until it gives its own lease back. EDU_KEEP_INFRA=1 takes the manual lease, so
// the servers outlive the run until `scripts/infra.sh down --profile test`.
const lease = process.env.EDU_KEEP_INFRA === '1' ? [] : ['--lease', String(process.pid)];
let leased = false;

function infra(cmd: string): { ok: boolean; out: string } {
  try {
    const out = execFileSync('bash', [script, cmd, '--profile', 'test', ...lease], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return { ok: true, out };
  } catch {
    return { ok: false, out: '' };
  }
}

export function mochaGlobalSetup(): void {
  if (process.env.MONGODB_URI && process.env.KAFKA_BROKERS) return;
  const up = infra('up');
  if (!up.ok) throw new Error('scripts/infra.sh up --profile test failed (see its output above)');
  leased = true;
  for (const line of up.out.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) process.env[`EDU_TEST_${line.slice(0, eq)}`] = line.slice(eq + 1);
  }
}

export function mochaGlobalTeardown(): void {
  // Gives the lease back; the servers stop only if no other run (or a person) still holds one.
  if (leased && process.env.EDU_KEEP_INFRA !== '1') infra('down');
  armExitWatchdog();
}
