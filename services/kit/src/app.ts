import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { Registry } from 'prom-client';
import { errorMiddleware, notFoundHandler } from './errors.js';
import { readinessHandler, type HealthChecks, type ReadinessState } from './health.js';
import type { Logger } from './logging.js';
import { httpMetricsMiddleware } from './metrics.js';
import { internalTokenGuard } from './actor.js';
import { requestContext, requireJsonBody } from './request-context.js';

export interface AppOptions {
  name: string;
  version: string;
  /** The service's `/v1` routes; mounted after the kit's own. */
  routes: Router;
  checks: HealthChecks;
  logger: Logger;
  metrics: Registry;
  openapi: object;
  internalToken?: string;
  /** Largest JSON body accepted; larger is 413. */
  bodyLimit?: string;
  /** Express `trust proxy` setting: hops in front of the service whose X-Forwarded-For is trusted. */
  trustProxy?: number | boolean;
  readiness?: ReadinessState;
}

/**
 * Builds the Express app a service runs: health, readiness, metrics, `/v1`, the OpenAPI document,
 * JSON parsing with limits, the internal-token guard, and the one error model. Does no I/O.
 */
export function createApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  app.set('json spaces', 0);
  const readiness = opts.readiness ?? { shuttingDown: false };

  app.use(requestContext(opts.logger));
  // While draining, answers close their connection so keep-alive sockets do not hold shutdown up.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (readiness.shuttingDown) res.setHeader('Connection', 'close');
    next();
  });
  app.use(httpMetricsMiddleware(opts.metrics));
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ success: true, data: { status: 'alive' }, message: 'OK' });
  });
  app.get('/readyz', readinessHandler(opts.checks, readiness));
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', opts.metrics.contentType);
    res.send(await opts.metrics.metrics());
  });
  app.get('/v1', (_req: Request, res: Response) => {
    res.json({ success: true, data: { service: opts.name, version: opts.version }, message: 'OK' });
  });
  app.get('/v1/openapi.json', (_req: Request, res: Response) => {
    res.json(opts.openapi);
  });

  app.use(requireJsonBody);
  app.use(
    express.json({ limit: opts.bodyLimit ?? '100kb', strict: true, type: ['application/json', 'application/*+json'] }),
  );
  app.use('/v1', internalTokenGuard(opts.internalToken));
  app.use(opts.routes);
  app.use(notFoundHandler);
  app.use(errorMiddleware(opts.logger));
  return app;
}
