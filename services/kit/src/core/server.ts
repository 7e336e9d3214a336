import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReadinessState } from './health.js';
import type { Logger } from './logging.js';

export interface ServeOptions {
  /** What answers requests: an Express app, or a listener of its own (the gateway's). */
  app: RequestListener;
  port: number;
  host?: string;
  logger: Logger;
  readiness: ReadinessState;
  /** How long in-flight requests get to finish after SIGTERM before connections are cut. */
  graceMs: number;
  /**
   * How long the server keeps accepting after SIGTERM, with readiness failing and every response
   * closing its connection, before it stops accepting: in Kubernetes the endpoint removal reaches
   * kube-proxy and the load balancers after the pod got SIGTERM, and a request routed in that
   * window must still be answered (default 0: stop at once).
   */
  delayMs?: number;
  /**
   * Run at the start of drain, once readiness fails and the server stops accepting: what would
   * hold a response open (server-sent-event streams: `StreamRegistry.closeAll`) ends here.
   */
  beforeDrain?: Array<() => void | Promise<void>>;
  /** Closed in order after the HTTP server drained (workers, then Kafka, then MongoDB, say). */
  closers: Array<() => Promise<unknown>>;
  /** Whether SIGTERM/SIGINT start the shutdown and exit 0 (default true; tests in-process say false). */
  handleSignals?: boolean;
}

export interface RunningServer {
  server: Server;
  port: number;
  shutdown(reason: string): Promise<void>;
}

/** Listens, and on SIGTERM/SIGINT: fail readiness, stop accepting, drain, close dependencies. */
export async function serve(opts: ServeOptions): Promise<RunningServer> {
  const server = createServer(opts.app).listen(opts.port, opts.host ?? '0.0.0.0');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  let release = () => {};
  const shutdown = (reason: string): Promise<void> => {
    release();
    closing ??= drain(server, opts, reason);
    return closing;
  };
  if (opts.handleSignals !== false)
    release = onStopSignal((signal) => void shutdown(signal).then(() => process.exit(0)));
  return { server, port, shutdown };
}

/**
 * Calls `stop` on the first SIGTERM or SIGINT; returns the function that removes the handlers
 * (call it when the stop begins: a second signal during the drain then gets Node's default, and
 * the process ends at once).
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    release();
    stop(signal);
  };
  const release = () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
  return release;
}

/** Readiness fails at once; for `delayMs` the server still answers, each response ending its connection. */
async function leaveEndpoints(server: Server, opts: ServeOptions): Promise<void> {
  opts.readiness.shuttingDown = true;
  if (!opts.delayMs) return;
  const closeAfter = (_req: unknown, res: { setHeader(name: string, value: string): unknown }) =>
    res.setHeader('Connection', 'close');
  server.prependListener('request', closeAfter);
  await new Promise((resolve) => setTimeout(resolve, opts.delayMs));
}

async function drain(server: Server, opts: ServeOptions, reason: string): Promise<void> {
  opts.logger.info({ reason, delayMs: opts.delayMs ?? 0 }, 'shutting down: draining requests');
  await leaveEndpoints(server, opts);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive socket becomes idle when its last response ends; close it then, not at its timeout.
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), opts.graceMs);
  for (const hook of opts.beforeDrain ?? []) {
    await Promise.resolve()
      .then(hook)
      .catch((err: unknown) => opts.logger.warn({ err }, 'error in a before-drain hook'));
  }
  await closed;
  clearInterval(sweeper);
  clearTimeout(timer);
  await runClosers(opts.closers, opts.logger);
}

/** Runs each closer in order, a failing one logged and passed over, then logs that the shutdown is complete. */
export async function runClosers(closers: ReadonlyArray<() => Promise<unknown>>, logger: Logger): Promise<void> {
  for (const close of closers) {
    await close().catch((err: unknown) => logger.warn({ err }, 'error while closing a dependency'));
  }
  logger.info('shutdown complete');
}
