import { readFileSync } from 'node:fs';
import express, { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import type { Registry } from 'prom-client';
import {
  errorMiddleware,
  readinessHandler,
  type HealthChecks,
  type ReadinessState,
  httpDurationObserver,
  internalTokenGuard,
  metricsGuard,
  type GuardTokens,
} from '../core/index.js';
import type { Logger } from '../core/index.js';
import { hasBody, installRequestLogger, requestTracker, requireJsonBody } from './request-context.js';
import { mountRoutes, unmatchedRoute } from './routing.js';

export interface AppOptions {
  name: string;
  version: string;
  /** The service's `/v1` routes, run after the kit's own; taken as declared when createApp runs. */
  routes: Router;
  checks: HealthChecks;
  logger: Logger;
  metrics: Registry;
  openapi: object;
  internalToken?: string;
  /** The DOCX workers' narrower credential, accepted only on `workerRoutes`. */
  workerToken?: string;
  /** `METHOD /v1/path` pairs (exact) where the worker token is accepted. */
  workerRoutes?: readonly string[];
  /** Bearer token for `/metrics` (unset: the internal token guards it). */
  metricsToken?: string;
  /** Largest JSON body accepted; larger is 413. */
  bodyLimit?: string;
  /** Express `trust proxy` setting: hops in front of the service whose X-Forwarded-For is trusted. */
  trustProxy?: number | boolean;
  readiness?: ReadinessState;
}

/** What a service's `buildApp` takes beside its dependencies (the service definition supplies it). */
export interface ServiceAppOptions extends GuardTokens {
  metrics: Registry;
  checks: HealthChecks;
  readiness?: ReadinessState;
}

/** What is particular to one service's app; `serviceApp` adds the shared options. */
export interface ServiceAppParts {
  name: string;
  version: string;
  routes: Router;
  logger: Logger;
  /** The service's one OpenAPI document: generated from its routes, or a file beside its code read once here. */
  openapi: object | URL;
  bodyLimit: string;
  /** `METHOD /v1/path` pairs where the DOCX workers' token is accepted (none by default). */
  workerRoutes?: readonly string[];
}

/** A service's `createApp`: its own parts plus the options its service definition supplies. */
export function serviceApp(parts: ServiceAppParts, opts: ServiceAppOptions): Express {
  const { openapi, ...rest } = parts;
  return createApp({
    ...rest,
    openapi: openapi instanceof URL ? readOpenApi(openapi) : openapi,
    checks: opts.checks,
    metrics: opts.metrics,
    internalToken: opts.internalToken,
    workerToken: opts.workerToken,
    metricsToken: opts.metricsToken,
    readiness: opts.readiness,
  });
}

/** A service's one OpenAPI document, read from a file beside its code and served as is. */
export function readOpenApi(url: URL): object {
  return JSON.parse(readFileSync(url, 'utf8')) as object;
}

/**
 * Builds the Express app a service runs: health, readiness, metrics, `/v1`, the OpenAPI document,
 * JSON parsing with limits, the internal-token guard, 405 with `Allow` for a method a path does
 * not have, and the one error model. Does no I/O.
 */
export function createApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  app.set('json spaces', 0);
  const readiness = opts.readiness ?? { shuttingDown: false };
  const kit = kitRoutes(opts, readiness);

  installRequestLogger(app, opts.logger);
  app.use(
    front({
      track: requestTracker({ logger: opts.logger, observe: httpDurationObserver(opts.metrics), readiness }),
      kit,
      parseJson: express.json({
        limit: opts.bodyLimit ?? '100kb',
        strict: true,
        type: ['application/json', 'application/*+json'],
      }),
    }),
  );
  if (opts.internalToken) app.use('/v1', internalTokenGuard(opts.internalToken, opts));
  mountRoutes(app, opts.routes);
  app.use(unmatchedRoute(app, [kit]));
  app.use(errorMiddleware(opts.logger));
  return app;
}

const KIT_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/v1', '/v1/openapi.json']);
const MAX_KIT_PATH = '/v1/openapi.json/'.length;
const NEEDS_FOLDING = /[A-Z]|.\/$/;

/** The kit's own routes: open (before the internal-token guard), GET only. */
function kitRoutes(opts: AppOptions, readiness: ReadinessState): Router {
  const kit = Router();
  kit.get('/healthz', (_req: Request, res: Response) => {
    res.json({ success: true, data: { status: 'alive' }, message: 'OK' });
  });
  kit.get('/readyz', readinessHandler(opts.checks, readiness));
  kit.get('/metrics', metricsGuard(opts), async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', opts.metrics.contentType);
    res.send(await opts.metrics.metrics());
  });
  kit.get('/v1', (_req: Request, res: Response) => {
    res.json({ success: true, data: { service: opts.name, version: opts.version }, message: 'OK' });
  });
  kit.get('/v1/openapi.json', (_req: Request, res: Response) => {
    res.json(opts.openapi);
  });
  return kit;
}

interface FrontParts {
  track: (req: Request, res: Response) => void;
  kit: Router;
  parseJson: (req: Request, res: Response, next: NextFunction) => void;
}

/**
 * What every request passes first, as one layer: the request id, line and histogram; the kit's
 * routes; then, for a request with a body, the 415 check and the JSON parser. The kit's router is
 * entered only for its few paths (service requests would otherwise pay a match against each);
 * the lookup folds case and one trailing slash as Express's matching does, and another method on
 * those paths falls through to the 405.
 */
function front(parts: FrontParts) {
  return (req: Request, res: Response, next: NextFunction): void => {
    parts.track(req, res);
    if ((req.method === 'GET' || req.method === 'HEAD') && isKitPath(req.path)) {
      void parts.kit(req, res, next);
      return;
    }
    if (!hasBody(req)) return next();
    requireJsonBody(req, res, (err?: unknown) => {
      if (err) next(err);
      else parts.parseJson(req, res, next);
    });
  };
}

function isKitPath(path: string): boolean {
  if (KIT_PATHS.has(path)) return true;
  return (
    path.length <= MAX_KIT_PATH && NEEDS_FOLDING.test(path) && KIT_PATHS.has(path.replace(/\/$/, '').toLowerCase())
  );
}
