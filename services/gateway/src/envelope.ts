// The gateway's own refusals on the plain node:http path: the same envelope, status table and
// logging as the kit's errorMiddleware, without Express's response methods.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusFor, toAppError, type Logger } from '../../kit/src/core/index.js';

/**
 * `{ success: false, message, error: { code, details? } }` with the error's status and headers.
 * 5xx are logged with their cause, 4xx at debug. Once an answer has started no envelope can
 * follow, so the connection is cut (as Express does), and the client sees a truncated answer.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, log: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const appErr = toAppError(err);
  const status = statusFor(appErr);
  if (status >= 500) log.error({ err: appErr.cause ?? appErr, code: appErr.code }, 'request failed');
  else log.debug({ code: appErr.code, status }, 'request rejected');
  const error: { code: string; details?: unknown } = { code: appErr.code };
  if (appErr.details !== undefined) error.details = appErr.details;
  const body = JSON.stringify({ success: false, message: appErr.message, error });
  res.statusCode = status;
  for (const [name, value] of Object.entries(appErr.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The client's address as Express computes `req.ip` under a numeric `trust proxy`: the socket's
 * peer, or, behind `hops` trusted proxies, the address that many entries back in X-Forwarded-For
 * (the furthest one given when the list is shorter).
 */
export function clientAddress(req: IncomingMessage, hops: number): string | undefined {
  const peer = req.socket.remoteAddress;
  const forwarded = req.headers['x-forwarded-for'];
  if (hops <= 0 || typeof forwarded !== 'string') return peer;
  const chain = forwarded
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  const all = [peer, ...chain];
  return all[Math.min(hops, all.length - 1)];
}
