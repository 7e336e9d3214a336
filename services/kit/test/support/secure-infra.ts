// The secure local profile (scripts/infra.sh --profile secure): a Kafka with SASL_SSL listeners and a
// TLS proxy in front of a MongoDB stand-in, with a CA the script generates. Started once per test
// process on a lease of this process (another run on the machine keeps it up until it lets go too),
// and given back when the process exits. EDU_KEEP_INFRA=1 takes the manual lease instead, so the
// servers outlive the run until `scripts/infra.sh down --profile secure`.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../../scripts/infra.sh', import.meta.url));
const keep = process.env.EDU_KEEP_INFRA === '1';
const lease = keep ? [] : ['--lease', String(process.pid)];

let started: Promise<Record<string, string>> | undefined;
let leased = false;

/** Runs scripts/infra.sh with the secure profile; resolves with its stdout (stderr goes to ours). */
function infra(cmd: string, args: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, cmd, '--profile', 'secure', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`scripts/infra.sh ${cmd} --profile secure failed (exit ${code}; its output is above)`)),
    );
  });
}

/** `KEY=value` lines (split at the first '=') into a record; other lines are ignored. */
export function parseEnvLines(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

function release(): void {
  if (!leased || keep) return;
  leased = false;
  try {
    // Synchronous: this runs in the 'exit' handler. The servers stop only if no one else holds a lease.
    execFileSync('bash', [script, 'down', '--profile', 'secure', ...lease], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // Reported on stderr by the script; a stale lease is dropped by the next run anyway.
  }
}

/**
 * Starts (or reuses) the secure profile under a lease of this process and resolves with its env
 * lines (KAFKA_BROKERS, KAFKA_SSL_CA_FILE, KAFKA_SASL_*, MONGODB_URI, MONGODB_TLS_CA_FILE,
 * SECURE_MONGODB_MTLS_URI, SECURE_CLIENT_CERT_FILE, ...). Every call in the process shares one start.
 */
export function startSecureInfra(): Promise<Record<string, string>> {
  started ??= infra('up', lease).then(
    (out) => {
      if (!leased) process.once('exit', release);
      leased = true;
      return parseEnvLines(out);
    },
    (err: unknown) => {
      started = undefined;
      throw err;
    },
  );
  return started;
}

/**
 * Stops only the secure profile's Kafka broker (clean shutdown; ports and data are kept). Waits
 * first until no other run on this machine holds a lease on the profile, so an outage never
 * hits a run that did not ask for it; meanwhile their `up` waits for startSecureKafka().
 */
export async function stopSecureKafka(): Promise<void> {
  await infra('kafka-stop', lease);
}

/** Starts the secure profile's Kafka broker again on the same ports with the same data; resolves when a SASL_SSL round trip answers. */
export async function startSecureKafka(): Promise<void> {
  await infra('kafka-start');
}
