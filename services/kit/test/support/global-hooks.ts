// Mocha global fixtures: the real local servers start once per test run, not once per file.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../../scripts/infra.sh', import.meta.url));
let startedHere = false;

function infra(cmd: string): { ok: boolean; out: string } {
  try {
    const out = execFileSync('bash', [script, cmd, '--profile', 'test'], {
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
  startedHere = !infra('env').ok;
  const up = infra('up');
  if (!up.ok) throw new Error('scripts/infra.sh up --profile test failed (see its output above)');
  for (const line of up.out.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) process.env[`EDU_TEST_${line.slice(0, eq)}`] = line.slice(eq + 1);
  }
}

export function mochaGlobalTeardown(): void {
  // Leave servers that were already running (a developer's `make infra-up`) as they were.
  if (startedHere && process.env.EDU_KEEP_INFRA !== '1') infra('down');
}
