// Streams one request to an upstream and its answer back: no body is ever buffered.
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { AppError } from '../../kit/src/core/index.js';
import { responseHeaders } from './headers.js';

export interface Upstream {
  base: URL;
  agent: http.Agent;
  /** Time the upstream gets to start answering once the whole request body is sent. */
  timeoutMs: number;
}

export interface ForwardRequest {
  upstream: Upstream;
  /** Path and query below the upstream's base URL. */
  path: string;
  headers: OutgoingHttpHeaders;
  /** Longest wait for a socket of the pool (past GATEWAY_MAX_SOCKETS the agent queues silently): 503 after it. */
  queueTimeoutMs?: number;
  /**
   * Checked when the answer's headers arrive, before anything is sent: an error refuses the answer (an event stream
   * past the client's cap). `cut` ends the answer later from the gateway's side: `last` is written to the client,
   * then its answer ends and the upstream request is destroyed (a stream whose session ended, streams.ts).
   */
  admitAnswer?: (upRes: IncomingMessage, cut: (last: string) => void) => AppError | undefined;
  /**
   * Aborted (with the AppError to answer) when the client's body is cut for its pace (body.ts):
   * before the answer the exchange fails with that error; after it, the upstream request ends.
   */
  signal?: AbortSignal;
  /** Bytes of a body still arriving after the answer that are read and dropped; past them the connection is closed. */
  drainLimitBytes?: number;
}

/** A keep-alive pool per upstream, so a request does not pay a TCP handshake. */
export function upstreamAgent(base: URL, maxSockets: number): http.Agent {
  const Agent = base.protocol === 'https:' ? https.Agent : http.Agent;
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: Math.min(maxSockets, 64), scheduling: 'lifo' });
}

/** Connection refused or no such host: the service is not there (503); anything else broken is 502. */
export function classifyUpstreamError(err: NodeJS.ErrnoException): AppError {
  const code = err.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) {
    return new AppError('DEPENDENCY_UNAVAILABLE', 'The service behind this route is unavailable', {
      headers: { 'Retry-After': '1' },
    });
  }
  return new AppError('UPSTREAM_ERROR', 'The service behind this route failed to answer', { details: { code } });
}

function joinPath(base: URL, path: string): string {
  const prefix = base.pathname.endsWith('/') ? base.pathname.slice(0, -1) : base.pathname;
  return `${prefix}${path}`;
}

export function queueTimeout(ms: number): AppError {
  return new AppError('DEPENDENCY_UNAVAILABLE', 'The service behind this route is busy; retry later', {
    headers: { 'Retry-After': '1' },
    details: { reason: 'UPSTREAM_QUEUE_TIMEOUT', waitedMs: ms },
  });
}

/**
 * Pipes `req` to the upstream and the upstream's answer to `res`, chunk by chunk (uploads and
 * server-sent events pass as they come). Failures before the answer starts go to `fail` (the
 * error envelope); after it, the client connection is cut, since a status was already sent.
 */
export function forward(req: IncomingMessage, res: ServerResponse, fwd: ForwardRequest, fail: (e: AppError) => void) {
  const { base, agent } = fwd.upstream;
  const client = base.protocol === 'https:' ? https : http;
  const up = client.request({
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port,
    method: req.method,
    path: joinPath(base, fwd.path),
    headers: fwd.headers,
    agent,
  });
  const timers: { queue?: NodeJS.Timeout; answer?: NodeJS.Timeout } = {};
  const stopTimers = () => {
    clearTimeout(timers.queue);
    clearTimeout(timers.answer);
  };
  const state = { answered: false, failed: false, cut: false };
  const abort = (err: AppError) => {
    stopTimers();
    if (state.failed || state.answered) return;
    state.failed = true;
    req.unpipe(up);
    // The rest of the body is read and dropped, so the body ends and the client gets the answer.
    req.resume();
    up.destroy();
    fail(err);
  };
  watchTimes(up, fwd, timers, abort);
  fwd.signal?.addEventListener(
    'abort',
    () => {
      if (!state.answered) return abort(fwd.signal?.reason as AppError);
      req.unpipe(up);
      up.destroy();
    },
    { once: true },
  );
  up.on('response', (upRes) => {
    stopTimers();
    if (state.failed) return upRes.resume();
    const cut = (last: string) => {
      if (state.cut || res.writableEnded) return;
      state.cut = true;
      upRes.unpipe(res);
      up.destroy();
      res.end(last);
    };
    const refused = fwd.admitAnswer?.(upRes, cut);
    if (refused) return abort(refused);
    state.answered = true;
    answer(upRes, res, state);
    // The answer came before the whole body was sent (a refusal, typically: 415, 401, 413).
    if (!up.writableEnded) stopBody(req, res, { up, upRes, drainLimitBytes: fwd.drainLimitBytes });
  });
  up.on('error', (err: NodeJS.ErrnoException) => {
    // After the answer started, a request-side error (the service closed early, e.g. after a 413) is not the answer's.
    if (state.answered) return req.unpipe(up);
    abort(classifyUpstreamError(err));
  });
  // The client went away (or the answer ended): nothing more to send or receive upstream.
  res.on('close', () => {
    stopTimers();
    if (!res.writableFinished) up.destroy();
  });
  // Without a body (most GETs) there is nothing to pipe: the request goes out in one write.
  if (hasBody(req)) req.pipe(up);
  else up.end();
}

/**
 * The upstream answered while the client is still sending: a refusal (a status of 300 or more)
 * needs nothing more of the body, and no answer needs it once the answer has ended. What the client
 * still sends is then read and dropped, so it gets the answer while sending (as the services'
 * drainThen does), up to `drainLimitBytes` (past them its connection is closed behind the answer);
 * the upstream request ends without the rest and its socket is destroyed, never pooled: a pooled
 * socket would wait for a body that may never end (issue 33: 256 unfinished bodies held every
 * socket of auth's pool).
 */
function stopBody(
  req: IncomingMessage,
  res: ServerResponse,
  exchange: { up: http.ClientRequest; upRes: IncomingMessage; drainLimitBytes?: number },
): void {
  const { up, upRes, drainLimitBytes } = exchange;
  let dropping = false;
  const drop = () => {
    if (dropping) return;
    dropping = true;
    req.unpipe(up);
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (drainLimitBytes === undefined || dropped <= drainLimitBytes) return;
      req.off('data', onData);
      if (res.writableFinished) req.socket.destroy();
      else res.once('finish', () => req.socket.destroy());
    };
    req.on('data', onData);
    req.resume();
  };
  const end = () => {
    if (up.writableEnded || up.destroyed) return;
    drop();
    up.destroy();
  };
  if ((upRes.statusCode ?? 0) >= 300) drop();
  upRes.once('end', end);
  upRes.once('close', end);
}

/** The wait for a pooled socket (queue timeout) and, once the request is sent, for the answer's headers. */
function watchTimes(
  up: http.ClientRequest,
  fwd: ForwardRequest,
  timers: { queue?: NodeJS.Timeout; answer?: NodeJS.Timeout },
  abort: (err: AppError) => void,
): void {
  const { queueTimeoutMs } = fwd;
  if (queueTimeoutMs !== undefined && queueTimeoutMs > 0) {
    timers.queue = setTimeout(() => abort(queueTimeout(queueTimeoutMs)), queueTimeoutMs);
    up.once('socket', () => clearTimeout(timers.queue));
  }
  const { timeoutMs } = fwd.upstream;
  up.on('finish', () => {
    timers.answer = setTimeout(
      () =>
        abort(new AppError('UPSTREAM_TIMEOUT', `The service behind this route did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
}

function answer(upRes: IncomingMessage, res: ServerResponse, state: { cut: boolean }): void {
  res.writeHead(upRes.statusCode ?? 502, responseHeaders(upRes.headers));
  // A stream's headers go out now (an event stream's first bytes may be minutes away); a body of
  // known length follows at once, and its headers ride in the same write.
  if (upRes.headers['content-length'] === undefined) res.flushHeaders();
  upRes.pipe(res);
  // An answer the gateway cut (its last bytes still going out) is not torn down by the upstream's end.
  const broken = () => {
    if (!state.cut) res.destroy();
  };
  upRes.on('error', broken);
  upRes.on('aborted', broken);
}

/** A request body is announced by Content-Length (non-zero) or Transfer-Encoding (RFC 9112 §6.3). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
