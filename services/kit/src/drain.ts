import type { Request, Response } from 'express';

/**
 * The most a refused request's body is read for (and discarded) so that its answer arrives: past
 * it the body is oversized, and the answer goes out with the connection closed behind it. Above
 * the largest upload limit of any route (50 MB), with room for its form.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and discards the rest of a refused body before answering, so a client still sending sees
 * the answer (a connection closed under a sending client is EPIPE or ECONNRESET there, never the
 * 4xx). Past `limit` bytes in all the body is oversized: the answer goes out at once and the
 * connection is closed behind it. A client that stops sending is the server's timeouts' to end.
 */
export function drainThen(
  req: Request,
  res: Response,
  budget: { limit: number; seen?: number },
  answer: () => void,
): void {
  const { limit, seen = 0 } = budget;
  if (req.complete || req.destroyed || req.socket.destroyed) {
    answer();
    return;
  }
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    answer();
    return;
  }
  let read = seen;
  let done = false;
  const finish = (oversized: boolean) => {
    if (done) return;
    done = true;
    req.off('data', onData);
    if (oversized && !res.headersSent) res.setHeader('Connection', 'close');
    answer();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > limit) finish(true);
  };
  req.on('data', onData);
  req.once('end', () => finish(false));
  req.once('close', () => finish(false));
  req.resume();
}
