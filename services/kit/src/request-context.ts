import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logging.js';
import { AppError } from './errors.js';

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
    log?: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes a well-formed `X-Request-Id` or makes one, echoes it, and gives the request a child logger. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    req.log = logger.child({ reqId: id });
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (req.route as { path?: string } | undefined)?.path;
      // Method, path template and status only: never headers, bodies or query strings (tokens).
      req.log?.info(
        {
          method: req.method,
          route: route ? `${req.baseUrl}${route}` : undefined,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A body that is not JSON is a 415, before any parser sees it. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!BODY_METHODS.has(req.method) || !hasBody) return next();
  if (req.is('application/json') || req.is('application/*+json')) return next();
  next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
}
