// Streams one request to an upstream and its answer back: no body is ever buffered.
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { AppError } from '../../kit/src/index.js';
import { responseHeaders } from './identity.js';

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

/**
 * Pipes `req` to the upstream and the upstream's answer to `res`, chunk by chunk (uploads and
 * server-sent events pass as they come). Failures before the answer starts go to `fail` (the
 * error envelope); after it, the client connection is cut, since a status was already sent.
 * Resolves with the status sent when the exchange ends.
 */
export function forward(req: IncomingMessage, res: ServerResponse, fwd: ForwardRequest, fail: (e: AppError) => void) {
  const { base, agent, timeoutMs } = fwd.upstream;
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
  let timer: NodeJS.Timeout | undefined;
  let answered = false;
  let failed = false;
  const abort = (err: AppError) => {
    clearTimeout(timer);
    if (failed || answered) return;
    failed = true;
    req.unpipe(up);
    up.destroy();
    fail(err);
  };
  up.on('finish', () => {
    timer = setTimeout(
      () =>
        abort(new AppError('UPSTREAM_TIMEOUT', `The service behind this route did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  up.on('response', (upRes) => {
    clearTimeout(timer);
    if (failed) return upRes.resume();
    answered = true;
    res.writeHead(upRes.statusCode ?? 502, responseHeaders(upRes.headers));
    // A stream's headers go out now (an event stream's first bytes may be minutes away); a body of
    // known length follows at once, and its headers ride in the same write.
    if (upRes.headers['content-length'] === undefined) res.flushHeaders();
    upRes.pipe(res);
    upRes.on('error', () => res.destroy());
    upRes.on('aborted', () => res.destroy());
  });
  up.on('error', (err: NodeJS.ErrnoException) => {
    // After the answer started, a request-side error (the service closed early, e.g. after a 413) is not the answer's.
    if (answered) return req.unpipe(up);
    abort(classifyUpstreamError(err));
  });
  // The client went away (or the answer ended): nothing more to send or receive upstream.
  res.on('close', () => {
    clearTimeout(timer);
    if (!res.writableFinished) up.destroy();
  });
  // Without a body (most GETs) there is nothing to pipe: the request goes out in one write.
  if (hasBody(req)) req.pipe(up);
  else up.end();
}

/** A request body is announced by Content-Length (non-zero) or Transfer-Encoding (RFC 9112 §6.3). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
