import { destination, pino, symbols, type Logger } from 'pino';

export type { Logger };

/**
 * Paths pino censors in every line. Request bodies are never logged whole, but a stray object
 * carrying one of these keys (a session, a user row, headers) must not leak it either.
 */
export const REDACT_PATHS = [
  'password',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'tokenHash',
  'secret',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.tokenHash',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-internal-token"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-internal-token"]',
  'res.headers["set-cookie"]',
];

export interface LoggerOptions {
  name: string;
  level?: string;
  /** Where lines go; tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

let stampMs = 0;
let stamp = '';

// pino's isoTime formats a new Date per line; a busy service writes several lines per millisecond.
function isoTime(): string {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/** A pino JSON logger with the kit's redaction list. */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: opts.name },
    timestamp: isoTime,
  };
  const logger = pino(options, opts.destination ?? stdoutDestination());
  PLAIN.add(logger);
  return logger;
}

// Loggers made by createLogger: no mixin, hooks or formatters, so their line layout is known.
const PLAIN = new WeakSet<Logger>();

/** The fields of the one line every request writes. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string | undefined;
  status: number;
  ms: number;
}

/**
 * Writes the request line exactly as `logger.info(line, 'request')` would (same keys, order and
 * level check; no redaction: every field is the kit's own), without pino's generic serializer:
 * one template per request instead of a walk over the object. The request id is one the kit
 * made or accepted (letters, digits and `._:-`), the method is a token Node's parser accepted,
 * and routes are JSON-encoded once each. It reads the logger's stream and chindings through
 * `pino.symbols` (non-public state): pino is pinned exactly in package.json, and
 * test/library-internals.test.ts and test/request-line.test.ts fail when an update changes them.
 */
export function requestLineWriter(logger: Logger): (line: RequestLine) => void {
  if (!PLAIN.has(logger)) {
    const plain = logger.child({}, { redact: { paths: [] } });
    return (line) => plain.info(line, 'request');
  }
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[symbols.streamSym] as { write(chunk: string): unknown };
  const chindings = internals[symbols.chindingsSym] as string;
  const routes = new Map<string, string>();
  const routeField = (route: string): string => {
    let field = routes.get(route);
    if (field === undefined) routes.set(route, (field = `,"route":${JSON.stringify(route)}`));
    return field;
  };
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    const route = line.route === undefined ? '' : routeField(line.route);
    stream.write(
      `{"level":30${isoTime()}${chindings},"reqId":"${line.reqId}","method":"${line.method}"${route},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
    );
  };
}

/**
 * stdout written in batches: a write per line (pino's default) was the largest single share of
 * the kit's per-request cost. Lines wait until 3 KiB are queued or 200 ms passed, whichever comes
 * first; pino flushes the queue when the process exits. Should stdout stall, lines past 16 MiB
 * queued are dropped rather than holding the event loop or growing memory without bound.
 */
function stdoutDestination(): NodeJS.WritableStream {
  // Writes of at most PIPE_BUF bytes, whole lines each, reach a pipe atomically: a reader that
  // splits its chunks on newlines never sees half a line.
  const options = {
    dest: 1,
    sync: false,
    minLength: 3072,
    maxWrite: 4096,
    periodicFlush: 200,
    maxLength: 16 * 1024 * 1024,
  };
  return destination(options as Parameters<typeof destination>[0]) as unknown as NodeJS.WritableStream;
}
