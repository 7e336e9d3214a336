import { randomUUID } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import { requestLineWriter, type Logger, AppError } from '../core/index.js';
import type { ReadinessState, ObserveDuration } from '../core/index.js';

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
    log?: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const OWN_LOG = Symbol('kit.requestLog');
const STARTED = Symbol('kit.requestStarted');

type TrackedResponse = Response & { [STARTED]: number; req: Request };

/**
 * Gives every request of `app` a `req.log` child logger bound to its request id, made on first
 * access: most requests never log beyond their request line, and a pino child per request was a
 * measurable share of the kit's per-request cost.
 */
export function installRequestLogger(app: Express, logger: Logger): void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [OWN_LOG]?: Logger }): Logger {
      this[OWN_LOG] ??= logger.child({ reqId: this.id });
      return this[OWN_LOG];
    },
    set(this: Request & { [OWN_LOG]?: Logger }, value: Logger) {
      this[OWN_LOG] = value;
    },
  });
}

export interface RequestContextOptions {
  logger: Logger;
  observe: ObserveDuration;
  readiness: ReadinessState;
}

/**
 * Takes a well-formed `X-Request-Id` or makes one and echoes it; closes the connection after the
 * answer while draining; on finish writes the request line and observes the duration histogram
 * (one clock read and one listener for both). Called first for every request, not a layer of
 * its own: each router layer is a measurable share of a trivial request's cost.
 */
export function requestTracker(opts: RequestContextOptions) {
  const writeLine = requestLineWriter(opts.logger);
  // One listener function for every response (no closure per request): what it needs rides on res.
  function onFinish(this: TrackedResponse): void {
    const req = this.req;
    const ms = performance.now() - this[STARTED];
    const route = routeTemplate(req);
    opts.observe(req.method, route ?? 'unmatched', this.statusCode, ms / 1000);
    // Method, path template and status only: never headers, bodies or query strings (tokens).
    writeLine({ reqId: req.id!, method: req.method, route, status: this.statusCode, ms: Math.round(ms * 10) / 10 });
  }
  return (req: Request, res: Response): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    // While draining, answers close their connection so keep-alive sockets do not hold shutdown up.
    if (opts.readiness.shuttingDown) res.setHeader('Connection', 'close');
    (res as TrackedResponse)[STARTED] = performance.now();
    res.on('finish', onFinish);
  };
}

function routeTemplate(req: Request): string | undefined {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return undefined;
  return req.baseUrl ? `${req.baseUrl}${path}` : path;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether the request carries a body at all (parsers and the 415 check skip the rest). */
export function hasBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** The encodings the JSON parser decodes; a multipart body (an upload) is read as sent, identity only. */
const JSON_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * A body in a Content-Encoding its parser does not decode is a 415 before any byte is read: an
 * unknown or stacked encoding anywhere, and any encoding on a multipart body.
 */
function encodingRefusal(req: Request, multipart: boolean): AppError | undefined {
  const given = req.headers['content-encoding'];
  if (given === undefined) return undefined;
  const encoding = given.trim().toLowerCase() || 'identity';
  if (encoding === 'identity' || (!multipart && JSON_ENCODINGS.has(encoding))) return undefined;
  return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Encoding', {
    details: [
      { path: 'Content-Encoding', message: multipart ? 'must be identity' : 'must be identity, gzip, deflate or br' },
    ],
  });
}

/**
 * A body that is neither JSON nor `multipart/form-data` is a 415, before any parser sees it, and
 * so is one in a Content-Encoding its parser does not decode.
 * Multipart passes through untouched: only routes that declare an upload parse it, and JSON
 * routes refuse it in `validate()`.
 */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
  const multipart = req.is('multipart/form-data') !== false;
  if (req.is('application/json') || req.is('application/*+json') || multipart) {
    next(encodingRefusal(req, multipart));
    return;
  }
  next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
}
