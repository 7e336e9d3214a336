import { destination, pino, type Logger } from 'pino';

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
  return pino(options, opts.destination ?? stdoutDestination());
}

/**
 * stdout written in batches: a write per line (pino's default) was the largest single share of
 * the kit's per-request cost. Lines wait until 4 KiB are queued or 200 ms passed, whichever comes
 * first; pino flushes the queue when the process exits. Should stdout stall, lines past 16 MiB
 * queued are dropped rather than holding the event loop or growing memory without bound.
 */
function stdoutDestination(): NodeJS.WritableStream {
  const options = { dest: 1, sync: false, minLength: 4096, periodicFlush: 200, maxLength: 16 * 1024 * 1024 };
  return destination(options as Parameters<typeof destination>[0]) as unknown as NodeJS.WritableStream;
}
