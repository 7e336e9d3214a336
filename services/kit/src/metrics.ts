import type { NextFunction, Request, Response } from 'express';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A registry per app (not prom-client's global one), so several apps can live in one test process. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * Observes `http_request_duration_seconds` labelled by the matched route template (never the raw
 * URL: ids would explode the label set) and status code.
 */
export function httpMetricsMiddleware(registry: Registry) {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = histogram.startTimer();
    res.on('finish', () => {
      stop({ method: req.method, route: routeTemplate(req), status: String(res.statusCode) });
    });
    next();
  };
}

function routeTemplate(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return 'unmatched';
}
