import { pino, type Logger } from 'pino';

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

/** A pino JSON logger with the kit's redaction list. */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: opts.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
