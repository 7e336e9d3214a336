import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../core/index.js';

/** Why a stream ended; the handler's `signal.reason`. */
export type SseCloseReason = 'client-closed' | 'slow-client' | 'drain' | 'server-closed' | 'error';

export interface SseStream {
  /** Writes one event (`data` as JSON); false when the stream is closed or was just dropped as slow. */
  send(event: string, data: unknown, id?: string): boolean;
  /** Writes a comment line (`: text`), which clients ignore: a heartbeat. */
  comment(text?: string): boolean;
  /** Ends the response; the cleanup runs once, whoever closes. */
  close(): void;
  /** Aborted when the stream closes, with the `SseCloseReason` as its reason. */
  readonly signal: AbortSignal;
  readonly closed: boolean;
  /** Bytes this process holds for the socket right now (Node's buffers, not the kernel's). */
  readonly bufferedBytes: number;
  /** The most `bufferedBytes` ever reached; never above `maxBufferedBytes`. */
  readonly peakBufferedBytes: number;
}

/**
 * Sets up one stream: may throw (an AppError becomes the usual JSON error, since nothing was sent
 * yet), sends its snapshot, subscribes, and returns its cleanup (or uses `stream.signal`).
 */
export type SseHandler = (stream: SseStream, req: Request) => void | (() => void) | Promise<void | (() => void)>;

export interface SseOptions {
  /** The app's registry, so drain can close every open stream. */
  registry?: StreamRegistry;
  /** Heartbeat comment period (default 15 s), under proxies' idle timeouts. */
  heartbeatMs?: number;
  /** A client whose unsent bytes would pass this (default 256 KiB) is dropped. */
  maxBufferedBytes?: number;
  /** Reconnection delay hint sent first (`retry:`), in ms; none when omitted. */
  retryMs?: number;
}

/** Every open event stream of one app; `closeAll()` ends them at the start of drain. */
export class StreamRegistry {
  private readonly open = new Set<SseConnection>();
  private closing = false;

  get size(): number {
    return this.open.size;
  }

  /** True once `closeAll()` ran: new streams are refused with 503. */
  get closed(): boolean {
    return this.closing;
  }

  add(stream: SseConnection): void {
    this.open.add(stream);
  }

  delete(stream: SseConnection): void {
    this.open.delete(stream);
  }

  /** Ends every open stream (reason `drain`) and refuses new ones; returns how many it ended. */
  closeAll(): number {
    this.closing = true;
    const streams = [...this.open];
    for (const stream of streams) stream.end('drain');
    return streams.length;
  }
}

// Chunked framing (hex length, two CRLFs) travels with every write; counted so the bound is exact.
const FRAME_BYTES = 24;

class SseConnection implements SseStream {
  private readonly controller = new AbortController();
  private cleanup?: () => void;
  private timer?: NodeJS.Timeout;
  private opened = false;
  private peak = 0;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
    private readonly cfg: Required<Omit<SseOptions, 'registry' | 'retryMs'>> & SseOptions,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get closed(): boolean {
    return this.controller.signal.aborted;
  }

  get bufferedBytes(): number {
    return this.res.writableLength;
  }

  get peakBufferedBytes(): number {
    return this.peak;
  }

  send(event: string, data: unknown, id?: string): boolean {
    if (/[\r\n]/.test(event) || (id !== undefined && /[\r\n]/.test(id))) {
      throw new Error('sse: event names and ids are single-line');
    }
    const idLine = id === undefined ? '' : `id: ${id}\n`;
    return this.write(`${idLine}event: ${event}\ndata: ${JSON.stringify(data) ?? 'null'}\n\n`);
  }

  comment(text = ''): boolean {
    return this.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  close(): void {
    this.end('server-closed');
  }

  /** Handler returned: run its cleanup now if the stream already closed, and open the stream. */
  started(cleanup: void | (() => void)): void {
    if (typeof cleanup === 'function') {
      if (this.closed) this.runCleanup(cleanup);
      else this.cleanup = cleanup;
    }
    if (!this.closed) this.open();
  }

  /** Handler threw: before anything was sent it is an ordinary error answer. */
  failed(err: unknown, next: NextFunction): void {
    if (this.opened || this.closed) {
      this.req.log?.error({ err }, 'event stream handler failed');
      this.end('error');
      return;
    }
    this.finish('error');
    next(err);
  }

  end(reason: SseCloseReason): void {
    if (this.closed) return;
    this.finish(reason);
    if (reason === 'slow-client') {
      // Ending would queue behind the backlog: drop the connection and its buffers now.
      this.res.destroy();
      return;
    }
    if (!this.opened && !this.res.headersSent) this.res.writeHead(200, HEADERS);
    if (!this.res.writableEnded) this.res.end();
  }

  private finish(reason: SseCloseReason): void {
    clearInterval(this.timer);
    this.cfg.registry?.delete(this);
    this.controller.abort(reason);
    const cleanup = this.cleanup;
    this.cleanup = undefined;
    if (cleanup) this.runCleanup(cleanup);
  }

  private runCleanup(cleanup: () => void): void {
    try {
      cleanup();
    } catch (err) {
      this.req.log?.error({ err }, 'event stream cleanup failed');
    }
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.res.writeHead(200, HEADERS);
    this.res.flushHeaders();
    if (this.cfg.retryMs !== undefined) this.write(`retry: ${Math.trunc(this.cfg.retryMs)}\n\n`);
    this.timer = setInterval(() => this.comment('heartbeat'), this.cfg.heartbeatMs);
    this.timer.unref();
  }

  private write(chunk: string): boolean {
    if (this.closed) return false;
    if (!this.opened) this.open();
    const bytes = Buffer.byteLength(chunk) + FRAME_BYTES;
    // res.write() returning false only says a small buffer is full; the bound here is what a slow
    // client may cost this process before it is dropped (it reconnects and gets a fresh snapshot).
    if (this.res.writableLength + bytes > this.cfg.maxBufferedBytes) {
      this.end('slow-client');
      return false;
    }
    this.res.write(chunk);
    this.peak = Math.max(this.peak, this.res.writableLength);
    return true;
  }
}

const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/**
 * A server-sent-events route. The handler sets up (throwing an AppError gives the normal JSON
 * error), then the stream opens: headers `text/event-stream`, `no-cache`, `X-Accel-Buffering: no`,
 * flushed at once, a heartbeat comment every `heartbeatMs`. The stream closes, and the handler's
 * cleanup runs and its `signal` aborts, when the client disconnects, when the registry drains, when
 * the handler calls `close()`, or when the client reads too slowly: a client whose unsent bytes
 * would pass `maxBufferedBytes` is dropped (socket destroyed), never buffered without bound.
 */
export function sse(handler: SseHandler, opts: SseOptions = {}) {
  const cfg = {
    ...opts,
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    maxBufferedBytes: opts.maxBufferedBytes ?? 256 * 1024,
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (cfg.registry?.closed) {
      next(new AppError('DEPENDENCY_UNAVAILABLE', 'Server is shutting down', { headers: { 'Retry-After': '1' } }));
      return;
    }
    const stream = new SseConnection(req, res, cfg);
    cfg.registry?.add(stream);
    res.once('close', () => stream.end('client-closed'));
    Promise.resolve()
      .then(() => handler(stream, req))
      .then(
        (cleanup) => stream.started(cleanup),
        (err: unknown) => stream.failed(err, next),
      );
  };
}
