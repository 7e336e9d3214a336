// The one lifecycle of every process of the platform (services, gateway, peers, DOCX worker,
// operator, Kafka CLI): config, logger, start, optional HTTP, signals, closers, exit code. Free of
// express, mongoose and kafkajs, so the operator may use it.
import type { Server } from 'node:http';
import type Joi from 'joi';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logging.js';
import { onStopSignal, runClosers, serve, type RunningServer, type ServeOptions } from './server.js';

/** What a process's `start` gets. */
export interface ProcessContext<C> {
  config: Readonly<C>;
  logger: Logger;
  /**
   * Run once, in this order, when the process stops (after its HTTP server drained), or when its
   * start fails part-way: `start` pushes a closer as soon as it opened what the closer closes.
   */
  closers: Array<() => Promise<unknown>>;
  /** Aborted by SIGTERM/SIGINT: a process with `done` (a command) ends its work when told. */
  stopSignal: AbortSignal;
}

/** The HTTP a process serves: the kit's serve (readiness, SHUTDOWN_DELAY_MS, grace, before-drain hooks). */
export type ProcessHttp = Omit<ServeOptions, 'logger' | 'closers' | 'handleSignals'> & {
  /** The start's last step, once listening (a line naming the port); a throw is a start failure. */
  listening?: (port: number) => void | Promise<void>;
};

/** What `start` returns: what the process serves, and for a command, its own end. */
export interface ProcessStart {
  http?: ProcessHttp;
  /**
   * A command's work: resolves with the exit code (the closers run, then the process exits with
   * it); a rejection is one line on stderr and exit 1. A signal only aborts `stopSignal`.
   */
  done?: Promise<number>;
}

/** A process: its config schema, extra config checks, and its start. */
export interface ProcessDefinition<C, S extends ProcessStart> {
  /** The logger's name. */
  name: string;
  configSchema: Joi.ObjectSchema<C>;
  /** Checks across variables the schema cannot express; throw ConfigError to refuse. */
  checkConfig?: (config: Readonly<C>) => void;
  /** The log level when the config has no LOG_LEVEL (default info). */
  logLevel?: string;
  /** Where log lines go when the options name nowhere else (default stdout; a CLI says stderr). */
  logDestination?: NodeJS.WritableStream;
  start(ctx: ProcessContext<C>): Promise<S>;
}

/** How startProcess runs in-process (tests); runProcess uses the defaults. */
export interface ProcessOptions {
  /** Where config is read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where log lines go (default the definition's, else stdout); tests pass a LogCapture. */
  logDestination?: NodeJS.WritableStream;
  /** Whether SIGTERM/SIGINT stop the process and exit 0 (default true; tests in-process say false). */
  handleSignals?: boolean;
}

/** A started process. */
export interface RunningProcess<C, S> {
  config: Readonly<C>;
  logger: Logger;
  started: S;
  /** The HTTP server, when the process serves one. */
  server?: Server;
  port?: number;
  /** Stops once (later calls get the same promise): readiness fails, HTTP drains, the closers run. */
  shutdown(reason: string): Promise<void>;
}

/**
 * A process's whole `main`. A bad config value exits 1 with one line naming it; any other start
 * failure runs the closers opened so far and exits 1 with one `startup failed:` line. Then
 * SIGTERM/SIGINT stop it (readiness fails, HTTP drains, closers in order) and it exits 0; a
 * command (`done`) exits with its own code once its work ended and the closers ran.
 */
export function runProcess<C, S extends ProcessStart>(def: ProcessDefinition<C, S>): void {
  startProcess(def).then(
    (running) => {
      if (running.started.done) void finishCommand(running, running.started.done);
    },
    (err: unknown) => exitOnStartFailure(err),
  );
}

async function finishCommand<C, S>(running: RunningProcess<C, S>, done: Promise<number>): Promise<void> {
  const code = await done.catch((err: unknown) => {
    process.stderr.write(`${message(err)}\n`);
    return 1;
  });
  await running.shutdown('done');
  process.exit(code);
}

function exitOnStartFailure(err: unknown): void {
  process.stderr.write(err instanceof ConfigError ? `${err.message}\n` : `startup failed: ${message(err)}\n`);
  process.exit(1);
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** runProcess without the exits: config, logger, start, HTTP; returns the running process. */
export async function startProcess<C, S extends ProcessStart>(
  def: ProcessDefinition<C, S>,
  opts: ProcessOptions = {},
): Promise<RunningProcess<C, S>> {
  const config = loadConfig(def.configSchema, opts.env);
  def.checkConfig?.(config);
  const level = (config as { LOG_LEVEL?: string }).LOG_LEVEL ?? def.logLevel ?? 'info';
  const logger = createLogger({ name: def.name, level, destination: opts.logDestination ?? def.logDestination });
  const aborter = new AbortController();
  const ctx: ProcessContext<C> = { config, logger, closers: [], stopSignal: aborter.signal };
  let started: S;
  try {
    started = await def.start(ctx);
  } catch (err) {
    await runClosers(ctx.closers, logger);
    throw err;
  }
  // Marked handled here; runProcess (or the test) reads the outcome.
  started.done?.catch(() => undefined);
  const stop = onSignal(opts, aborter, started);
  if (!started.http) {
    const shutdown = once((reason) => {
      stop.release();
      logger.info({ reason }, 'shutting down');
      return runClosers(ctx.closers, logger);
    });
    stop.bind(shutdown);
    return { config, logger, started, shutdown };
  }
  return startHttp({ config, logger, started, http: started.http, closers: ctx.closers }, stop);
}

interface SignalBinding {
  /** Names what a signal stops (the process's shutdown). */
  bind(shutdown: (reason: string) => Promise<void>): void;
  /** Removes the handlers (the stop began some other way). */
  release(): void;
}

// A signal aborts `stopSignal`; a process without `done` then shuts down and exits 0 (at once, or
// as soon as its shutdown is bound when the signal came while its server was still starting).
function onSignal(opts: ProcessOptions, aborter: AbortController, started: ProcessStart): SignalBinding {
  let requested: NodeJS.Signals | undefined;
  let shutdown: ((reason: string) => Promise<void>) | undefined;
  const stop = () => {
    if (requested && shutdown && !started.done) void shutdown(requested).then(() => process.exit(0));
  };
  const binding: SignalBinding = {
    bind(s) {
      shutdown = s;
      stop();
    },
    release: () => undefined,
  };
  if (opts.handleSignals === false) return binding;
  binding.release = onStopSignal((signal) => {
    requested = signal;
    aborter.abort(signal);
    stop();
  });
  return binding;
}

interface HttpParts<C, S> {
  config: Readonly<C>;
  logger: Logger;
  started: S;
  http: ProcessHttp;
  closers: Array<() => Promise<unknown>>;
}

async function startHttp<C, S>(parts: HttpParts<C, S>, signals: SignalBinding): Promise<RunningProcess<C, S>> {
  const { listening, ...serveOpts } = parts.http;
  const { logger, closers } = parts;
  let running: RunningServer;
  try {
    running = await serve({ ...serveOpts, logger, closers, handleSignals: false });
  } catch (err) {
    await runClosers(closers, logger);
    throw err;
  }
  const shutdown = (reason: string) => {
    signals.release();
    return running.shutdown(reason);
  };
  signals.bind(shutdown);
  try {
    await listening?.(running.port);
  } catch (err) {
    await shutdown('start failed');
    throw err;
  }
  return { ...parts, server: running.server, port: running.port, shutdown };
}

function once(work: (reason: string) => Promise<void>): (reason: string) => Promise<void> {
  let result: Promise<void> | undefined;
  return (reason) => (result ??= work(reason));
}
