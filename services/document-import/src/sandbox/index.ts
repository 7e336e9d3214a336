// The only way the service runs the DOCX parser: in a parse thread (pool.ts), never on an API or worker event loop.
// One shared sandbox per process (parserSandbox()), sized by configureParserSandbox() at start-up; tests make their
// own with createParserSandbox().
import { AppError } from '../../../kit/src/core/index.js';
import type { QasOutput } from '../parser/index.js';
import { DEFAULT_SANDBOX, ParserPool, SandboxBusyError, type SandboxOptions, type SandboxStats } from './pool.js';

export { DEFAULT_SANDBOX, type SandboxOptions, type SandboxStats } from './pool.js';

export const PARSER_BUSY = 'DOCX_PARSER_BUSY';

export interface ParserSandboxOptions extends SandboxOptions {
  /** Retry-After of the 503 a full queue answers */
  retryAfterSeconds: number;
}

export interface ParserSandbox {
  /** parseDocx in a parse thread: its output, or its DocxError (DOCX_TOO_COMPLEX, DOCX_PARSE_TIMEOUT besides the
   * parser's own codes); a full queue is AppError DOCX_PARSER_BUSY (503, Retry-After) */
  parse(bytes: Uint8Array, opts?: { documentId?: string }): Promise<QasOutput>;
  /** the package checks of the upload precheck (readDocxPackage) in a parse thread: resolves, or the same errors */
  precheck(bytes: Uint8Array): Promise<void>;
  stats(): SandboxStats;
  close(): Promise<void>;
}

function busy(retryAfterSeconds: number, err: SandboxBusyError): AppError {
  return new AppError(PARSER_BUSY, 'The DOCX parser is busy; retry later', {
    status: 503,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    details: { queued: err.queued },
    cause: err,
  });
}

export function createParserSandbox(options: Partial<ParserSandboxOptions> = {}): ParserSandbox {
  const { retryAfterSeconds = 5, ...pool } = options;
  const threads = new ParserPool({ ...DEFAULT_SANDBOX, ...pool });
  const run = async (kind: 'parse' | 'precheck', bytes: Uint8Array, documentId?: string) => {
    try {
      return await threads.run(kind, bytes, documentId);
    } catch (err) {
      throw err instanceof SandboxBusyError ? busy(retryAfterSeconds, err) : err;
    }
  };
  return {
    parse: async (bytes, opts = {}) => (await run('parse', bytes, opts.documentId)) as QasOutput,
    precheck: async (bytes) => {
      await run('precheck', bytes);
    },
    stats: () => threads.stats(),
    close: () => threads.close(),
  };
}

let shared: ParserSandbox | null = null;

/** The process's sandbox, with the defaults unless configureParserSandbox() ran first. */
export function parserSandbox(): ParserSandbox {
  return (shared ??= createParserSandbox());
}

let sharedOptions = '';

/**
 * Sizes the process's sandbox (main, from config). The same size again keeps the running one (two
 * services in one process, as tests start them, must not end each other's parses); another size
 * replaces it and closes the old one.
 */
export function configureParserSandbox(options: Partial<ParserSandboxOptions>): ParserSandbox {
  const key = JSON.stringify(options);
  if (shared && key === sharedOptions) return shared;
  const before = shared;
  shared = createParserSandbox(options);
  sharedOptions = key;
  if (before) void before.close();
  return shared;
}

export async function closeParserSandbox(): Promise<void> {
  const before = shared;
  shared = null;
  await before?.close();
}
