// The secure profile's env lines for the operator's tests. The operator may not import from
// services/ beyond a few kit modules (lint), the kit's test helper included, so this runs the same
// `scripts/infra.sh up --profile secure` under this process's lease and gives it back at exit.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/infra.sh', import.meta.url));
const lease = process.env.EDU_KEEP_INFRA === '1' ? [] : ['--lease', String(process.pid)];
let started: Promise<Record<string, string>> | undefined;

function release(): void {
  if (lease.length === 0) return;
  try {
    execFileSync('bash', [script, 'down', '--profile', 'secure', ...lease], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // Best effort at exit: the lease of a dead pid is reaped by the next up.
  }
}

/** KAFKA_BROKERS, KAFKA_SSL, KAFKA_SSL_CA_FILE, KAFKA_SASL_* ... of the secure profile. */
export function secureKafkaEnv(): Promise<Record<string, string>> {
  started ??= new Promise((resolve, reject) => {
    const child = spawn('bash', [script, 'up', '--profile', 'secure', ...lease], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`scripts/infra.sh up --profile secure failed (exit ${code})`));
      process.once('exit', release);
      const env: Record<string, string> = {};
      for (const line of out.split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
      }
      resolve(env);
    });
  });
  return started;
}
