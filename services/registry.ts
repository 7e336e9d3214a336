// The platform's one list of its services and the other programs the CLI starts. Everything that
// names them reads it: the CLI (services/cli.ts), `make dev` (scripts/dev.sh), the fuzzing
// (scripts/schemathesis.sh), the gateway's development upstreams, the tests, and a test that holds
// it against the chart's values. Bash reads it through the printer at the bottom:
//   node --import tsx services/registry.ts --print names|fuzz|fuzz-with|dev|dev-env [--base N]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One of the platform's HTTP services: what runs it, where it listens and what it owns. */
export interface ServiceEntry {
  /** The name the CLI, the chart's component label and the logs use. */
  readonly name: string;
  /** Its package folder under services/. */
  readonly folder: string;
  /** Its main module, relative to services/ (the CLI imports it). */
  readonly main: string;
  /**
   * Its port: its config's PORT default (portOf), the chart's default, and `make dev`'s with the
   * default base (DEV_PORT_BASE).
   */
  readonly port: number;
  /** The MongoDB database it owns (the chart's default); none for the stateless gateway. */
  readonly database?: string;
  /** Whether it serves /v1/openapi.json (and is therefore fuzzed by scripts/schemathesis.sh). */
  readonly openapi: boolean;
  /**
   * Environment its fuzzed process gets beyond PORT, MONGODB_URI, MONGODB_DB and KAFKA_BROKERS;
   * `{run}` stands for the fuzzing run's id (topics and groups of its own).
   */
  readonly fuzzEnv: Readonly<Record<string, string>>;
  /**
   * Commands (COMMANDS) its fuzzed process calls: each started as its own process beside it, its
   * listeners on free ports, and the service given their DEV_URLS variables.
   */
  readonly fuzzWith: readonly string[];
  /** Its entry in charts/edu-platform/values.yaml, as a dotted path. */
  readonly chartKey: string;
}

/** Where a make dev process listens: the name make dev prints, the env var that sets the port, the port. */
export interface Listener {
  readonly name: string;
  readonly env: string;
  readonly port: number;
}

/** One process `make dev` starts for a command that is not a service (peers, DOCX workers). */
export interface DevInstance {
  /** Process name: its pidfile and log under make dev's run directory. */
  readonly name: string;
  /** Where it listens, its own name first, at the default ports. */
  readonly listeners: readonly Listener[];
  /** Further environment (a worker's health-only process serves no API: PORT=0). */
  readonly env: Readonly<Record<string, string>>;
}

/** A CLI command beside the services, and the processes `make dev` runs of it. */
export interface CommandEntry {
  readonly name: string;
  /** Its main module, relative to services/. */
  readonly main: string;
  /**
   * `before`: started ahead of the services (stand-ins of systems they call), stopped after them;
   * `after`: started after them (they call the services), stopped first.
   */
  readonly devPhase?: 'before' | 'after';
  /** What make dev runs of it (none: not run by make dev). */
  readonly dev: readonly DevInstance[];
  /** Whether its processes serve /v1/openapi.json (else only their probes). */
  readonly openapi: boolean;
  /** `internal`: the internal API token; `worker`: only the DOCX workers' narrower token. */
  readonly credential: 'internal' | 'worker';
}

/** make dev's ports are these defaults moved by EDU_DEV_PORT_BASE - DEV_PORT_BASE. */
export const DEV_PORT_BASE = 4000;

const LOCAL_UPSTREAM = 'http://127.0.0.1:9';

/** Freezes a value and everything it holds: the registry is read everywhere and changed nowhere. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function service(
  name: string,
  port: number,
  database: string | undefined,
  fuzzEnv: Record<string, string> = {},
): ServiceEntry {
  const entry: ServiceEntry = {
    name,
    folder: `services/${name}`,
    main: `./${name}/src/main.js`,
    port,
    openapi: true,
    fuzzEnv,
    fuzzWith: [],
    chartKey: name === 'gateway' ? 'gateway' : `services.${name}`,
    ...(database === undefined ? {} : { database }),
  };
  return entry;
}

/**
 * The HTTP services, in make dev's start order. bcrypt at cost 4 when fuzzed: the fuzzer registers
 * and logs in hundreds of times; the gateway's upstreams point at a closed port.
 */
export const SERVICES: readonly ServiceEntry[] = deepFreeze([
  service('auth', 4001, 'edu_auth', { AUTH_BCRYPT_COST: '4', AUTH_TOKEN_BCRYPT_COST: '4' }),
  service('user', 4002, 'edu_users', { USER_EVENTS_GROUP: 'user-st-{run}' }),
  service('analytics', 4003, 'edu_analytics', { ANALYTICS_CONSUMER: 'off' }),
  service('notification', 4004, 'edu_notifications', { NOTIFICATION_CONSUMER: 'none' }),
  service('question-bank', 4005, 'edu_question_bank'),
  service('attempt', 4006, 'edu_attempts', { ATTEMPT_SWEEP_INTERVAL_MS: '0' }),
  {
    ...service('document-import', 4007, 'edu_document_import', {
      DOCX_IMPORT_TOPIC: 'docx-import.jobs.st-{run}',
      DOCX_IMPORT_EVENTS_TOPIC: 'docx-import.job-events.st-{run}',
      DOCX_IMPORT_CONSUMER_GROUP: 'docx-parser-st-{run}',
      DOCX_IMPORT_SSE_HEARTBEAT_MS: '1000',
    }),
    fuzzWith: ['peers'],
  },
  service('gateway', 4000, undefined, {
    GATEWAY_RATE_LIMIT_RPS: '0',
    GATEWAY_AUTH_URL: LOCAL_UPSTREAM,
    GATEWAY_ANALYTICS_URL: LOCAL_UPSTREAM,
    GATEWAY_NOTIFICATIONS_URL: LOCAL_UPSTREAM,
    GATEWAY_PARENT_ALERTS_URL: LOCAL_UPSTREAM,
    GATEWAY_DOCUMENT_IMPORT_URL: LOCAL_UPSTREAM,
  }),
]);

function worker(n: number, port: number): DevInstance {
  return {
    name: `docx-worker-${n}`,
    listeners: [{ name: `docx-worker-${n}`, env: 'WORKER_HEALTH_PORT', port }],
    env: { PORT: '0' },
  };
}

/**
 * The CLI's other commands. `peers` is the local stand-in for the document and exam services
 * outside the platform; the DOCX parser workers serve only their probes (/healthz, /readyz).
 */
export const COMMANDS: readonly CommandEntry[] = deepFreeze<CommandEntry[]>([
  { name: 'docx-parse', main: './document-import/src/parse-cli.js', openapi: false, dev: [], credential: 'internal' },
  {
    name: 'peers',
    main: './peers/src/main.js',
    devPhase: 'before',
    openapi: true,
    credential: 'internal',
    dev: [
      {
        name: 'peers',
        listeners: [
          { name: 'peers', env: 'DOCUMENT_SERVICE_PORT', port: 4008 },
          { name: 'exam-peer', env: 'EXAM_SERVICE_PORT', port: 4009 },
        ],
        env: {},
      },
    ],
  },
  {
    name: 'docx-worker',
    main: './document-import/src/worker/main.js',
    devPhase: 'after',
    openapi: false,
    credential: 'worker',
    dev: [worker(1, 4011), worker(2, 4012)],
  },
]);

/** Under make dev, the URL every process gets in each of these variables is that listener's. */
export const DEV_URLS: Readonly<Record<string, string>> = Object.freeze({
  DOCUMENT_SERVICE_URL: 'peers',
  EXAM_SERVICE_URL: 'exam-peer',
  QUESTION_BANK_URL: 'question-bank',
});

/**
 * `PORT_VAR=URL_VAR` for each listener of a command's processes: the port it is started on, and the
 * DEV_URLS variable that points a caller at it. Throws for a command not in COMMANDS or a listener
 * that no DEV_URLS variable names (nothing could call it).
 */
export function peerVariables(command: string): string[] {
  const entry = COMMANDS.find((c) => c.name === command);
  if (!entry) throw new Error(`no command named ${command} in services/registry.ts`);
  const urlVars = new Map(Object.entries(DEV_URLS).map(([urlVar, listener]) => [listener, urlVar]));
  return entry.dev
    .flatMap((d) => d.listeners)
    .map((l) => {
      const urlVar = urlVars.get(l.name);
      if (!urlVar) throw new Error(`${command}: no DEV_URLS variable points at its listener ${l.name}`);
      return `${l.env}=${urlVar}`;
    });
}

/** The service of that name; throws for a name not in SERVICES (a typo in a caller). */
export function serviceNamed(name: string): ServiceEntry {
  const found = SERVICES.find((s) => s.name === name);
  if (!found) throw new Error(`no service named ${name} in services/registry.ts`);
  return found;
}

/**
 * The default port of a service or of a command's listener (`peers`, `exam-peer`): each config's
 * port default reads it here, so a port is stated once. Throws for a name that is neither.
 */
export function portOf(name: string): number {
  const listeners = COMMANDS.flatMap((c) => c.dev).flatMap((d) => d.listeners);
  const port = SERVICES.find((s) => s.name === name)?.port ?? listeners.find((l) => l.name === name)?.port;
  if (port === undefined) throw new Error(`no service or listener named ${name} in services/registry.ts`);
  return port;
}

/** The module the CLI imports for a service or command name, relative to services/; undefined if none. */
export function mainOf(name: string): string | undefined {
  return (SERVICES.find((s) => s.name === name) ?? COMMANDS.find((c) => c.name === name))?.main;
}

/** http://127.0.0.1:<port> of a service under make dev with the default port base. */
export function devUrl(name: string): string {
  return `http://127.0.0.1:${serviceNamed(name).port}`;
}

/** One process make dev starts, with its ports moved to the run's base. */
export interface DevProcess {
  readonly name: string;
  readonly command: string;
  readonly credential: 'internal' | 'worker';
  /** Whether it serves /v1/openapi.json (else only its probes). */
  readonly openapi: boolean;
  readonly listeners: readonly Listener[];
  readonly env: Readonly<Record<string, string>>;
}

function commandProcesses(phase: 'before' | 'after', shift: number): DevProcess[] {
  return COMMANDS.filter((c) => c.devPhase === phase).flatMap((c) =>
    c.dev.map((d) => ({
      name: d.name,
      command: c.name,
      credential: c.credential,
      openapi: c.openapi,
      listeners: d.listeners.map((l) => ({ ...l, port: l.port + shift })),
      env: d.env,
    })),
  );
}

/** Every process make dev runs, in start order (stopped in reverse), for ports based at `base`. */
export function devProcesses(base = DEV_PORT_BASE): DevProcess[] {
  const shift = base - DEV_PORT_BASE;
  const services = SERVICES.map((s): DevProcess => ({
    name: s.name,
    command: s.name,
    credential: 'internal',
    openapi: s.openapi,
    listeners: [{ name: s.name, env: 'PORT', port: s.port + shift }],
    env: {},
  }));
  return [...commandProcesses('before', shift), ...services, ...commandProcesses('after', shift)];
}

/** The DEV_URLS variables with the URLs of their listeners for ports based at `base`. */
export function devUrls(base = DEV_PORT_BASE): Record<string, string> {
  const ports = new Map(devProcesses(base).flatMap((p) => p.listeners.map((l) => [l.name, l.port] as const)));
  return Object.fromEntries(
    Object.entries(DEV_URLS).map(([key, listener]) => [key, `http://127.0.0.1:${ports.get(listener)}`]),
  );
}

const env = (vars: Readonly<Record<string, string>>): string[] => Object.entries(vars).map(([k, v]) => `${k}=${v}`);

/**
 * The lines bash reads, one record a line, words separated by spaces (no value holds a space):
 * - `names`: the service names;
 * - `fuzz`: `name VAR=value...` for each service with an OpenAPI document;
 * - `fuzz-with`: `name command PORT_VAR=URL_VAR...` for each command a fuzzed service calls (peerVariables);
 * - `dev`: `name command credential openapi|probes listener=port,... VAR=value...` (ports moved to `base`);
 * - `dev-env`: `VAR=url` for DEV_URLS.
 */
export function printLines(what: string, base = DEV_PORT_BASE): string[] {
  switch (what) {
    case 'names':
      return SERVICES.map((s) => s.name);
    case 'fuzz':
      return SERVICES.filter((s) => s.openapi).map((s) => [s.name, ...env(s.fuzzEnv)].join(' '));
    case 'fuzz-with':
      return SERVICES.flatMap((s) => s.fuzzWith.map((c) => [s.name, c, ...peerVariables(c)].join(' ')));
    case 'dev':
      return devProcesses(base).map((p) =>
        [
          p.name,
          p.command,
          p.credential,
          p.openapi ? 'openapi' : 'probes',
          p.listeners.map((l) => `${l.name}=${l.port}`).join(','),
          ...p.listeners.map((l) => `${l.env}=${l.port}`),
          ...env(p.env),
        ].join(' '),
      );
    case 'dev-env':
      return env(devUrls(base));
    default:
      throw new Error(`--print takes names, fuzz, fuzz-with, dev or dev-env (got ${what})`);
  }
}

function printMain(argv: readonly string[]): void {
  const [flag, what, baseFlag, base] = argv;
  if (flag !== '--print' || what === undefined || (baseFlag !== undefined && baseFlag !== '--base')) {
    process.stderr.write('usage: registry.ts --print names|fuzz|fuzz-with|dev|dev-env [--base N]\n');
    process.exit(2);
  }
  const portBase = base === undefined ? DEV_PORT_BASE : Number(base);
  if (!Number.isInteger(portBase) || portBase < 1) throw new Error(`--base takes a port number (got ${base})`);
  const lines = printLines(what, portBase);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  printMain(process.argv.slice(2));
