import type { Request, Response } from 'express';

/**
 * The most a refused request's body is read for (and discarded) so that its answer arrives: past
 * it the body is oversized, and the connection is closed behind the answer. Above the largest
 * upload limit of any route (50 MB), with room for its form.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const draining = Symbol('draining');

/**
 * Answers a request whose body was refused before it was read, without cutting off a client that
 * is still sending it (a connection closed under a sending client is EPIPE or ECONNRESET there,
 * never the 4xx): the rest of the body is read and discarded. On a keep-alive connection the
 * answer goes out at once and the body is read behind it, so a client that reads while sending
 * sees it straight away; a client that asked to close the connection (or HTTP/1.0) gets it once
 * its body is in, since Node closes such a connection as soon as the answer is written. Past
 * `limit` bytes in all the body is oversized: a declared one is answered at once with
 * `Connection: close`, a streamed one has its connection closed once the answer is out. A client
 * that stops sending is the server's timeouts' to end. Calling it again for the same request (an
 * upload refusal that reaches the error middleware) only answers.
 */
export function drainThen(
  req: Request,
  res: Response,
  budget: { limit: number; seen?: number },
  answer: () => void,
): void {
  const marked = req as Request & { [draining]?: true };
  if (req.complete || req.destroyed || req.socket.destroyed || marked[draining]) {
    answer();
    return;
  }
  const { limit, seen = 0 } = budget;
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    answer();
    return;
  }
  marked[draining] = true;
  const answerFirst = keepsAlive(req);
  let read = seen;
  let answered = false;
  const answerOnce = () => {
    if (answered) return;
    answered = true;
    answer();
  };
  const stop = () => {
    req.off('data', onData);
    req.off('end', onEnd);
  };
  const onEnd = () => {
    stop();
    answerOnce();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read <= limit) return;
    stop();
    if (!res.headersSent) res.setHeader('Connection', 'close');
    answerOnce();
    if (res.writableFinished) req.socket.destroy();
    else res.once('finish', () => req.socket.destroy());
  };
  // A 'data' listener marks the body as consumed, so Node does not dump it (and drop this
  // listener) when an early answer finishes.
  req.on('data', onData);
  req.once('end', onEnd);
  req.resume();
  if (answerFirst) answerOnce();
}

/** Whether the connection outlives this exchange (HTTP/1.1 without `Connection: close`). */
function keepsAlive(req: Request): boolean {
  const connection = String(req.headers.connection ?? '').toLowerCase();
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return connection.includes('keep-alive');
  return !connection.includes('close');
}
