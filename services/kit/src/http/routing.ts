// Reads Express 5's router internals (`router.stack`, `layer.match`, `route._methods()`, `router.params`):
// the public API has no way to ask which methods a path has, and mounting a router nested costs
// ~5% of a trivial request. `router` and `express` are pinned exactly in package.json, and
// test/library-internals.test.ts fails when an update changes what is read here (issue 24).
import type { Express, NextFunction, Request, Response, Router } from 'express';
import { AppError, notFoundHandler } from '../core/index.js';

interface MatchResult {
  path: string;
}

interface LayerLike {
  route?: { _methods(): string[]; methods: Record<string, boolean> };
  handle?: { stack?: unknown };
  match(path: string): MatchResult | false;
}

/**
 * The methods some route of `stack` (and of routers mounted in it) declares for `path`, as the
 * router itself would match them (same path syntax, strictness and case rules). Nested routers
 * are entered with their mount prefix trimmed, as Express does when dispatching.
 */
export function allowedMethods(stack: readonly unknown[], path: string, into = new Set<string>()): Set<string> {
  for (const item of stack) {
    const layer = item as LayerLike;
    const match = safeMatch(layer, path);
    if (!match) continue;
    if (layer.route) {
      for (const m of layer.route._methods()) into.add(m);
    } else if (Array.isArray(layer.handle?.stack)) {
      allowedMethods(layer.handle.stack, path.slice(match.path.length) || '/', into);
    }
  }
  return into;
}

function stackOf(router: unknown): unknown[] {
  return (router as { stack: unknown[] }).stack;
}

function safeMatch(layer: LayerLike, path: string): MatchResult | false {
  try {
    return layer.match(path);
  } catch {
    // A malformed %-escape in the path: the router answered it already; it matches nothing here.
    return false;
  }
}

/**
 * The last handler before the error middleware: a path some route declares with other methods is
 * 405 METHOD_NOT_ALLOWED with `Allow`; a path nobody declared is 404. `others` are routers the
 * app enters by its own dispatch rather than as a mounted layer.
 */
export function unmatchedRoute(app: Express, others: readonly Router[] = []) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const allowed = new Set<string>();
    for (const router of [app.router, ...others]) allowedMethods(stackOf(router), req.path, allowed);
    if (allowed.size === 0) return notFoundHandler(req, res, next);
    refuseMethod(req, res, next, [...allowed].sort());
  };
}

/** OPTIONS: 200 with `Allow` (what Express answers for its own routes); any other method: 405. */
function refuseMethod(req: Request, res: Response, next: NextFunction, methods: string[]): void {
  const allow = methods.join(', ');
  if (req.method === 'OPTIONS') {
    res.setHeader('Allow', allow);
    res.type('text/plain').send(allow);
    return;
  }
  next(
    new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed for ${req.path}`, {
      headers: { Allow: allow },
      details: { allow: methods },
    }),
  );
}

/**
 * Declares that a fixed path has only `methods`: any other method answers 405 with `Allow` here,
 * before a parameterised route registered later (`/v1/things/:id`) takes the segment for an id.
 */
export function onlyMethods(router: Router, path: string, methods: readonly string[]): void {
  router.all(path, (req, res, next) => refuseMethod(req, res, next, [...methods]));
}

interface RouterInternals {
  stack?: Array<{ handle?: { length: number } }>;
  params?: Record<string, unknown>;
}

/**
 * Puts a service router's layers into the app's own router instead of mounting it as one nested
 * router: the nested dispatch (prefix trim, `baseUrl` save and restore, a second `next` loop) was
 * about 5% of a trivial request's cost. Dispatch is the same at the root, so this is done only
 * when nothing could tell the difference: no `router.param` handlers and no error middleware in
 * the router (outer errors would reach it). The layers are taken as declared now.
 */
export function mountRoutes(app: Express, routes: Router): void {
  const inner = routes as unknown as RouterInternals;
  const flat =
    Array.isArray(inner.stack) &&
    Object.keys(inner.params ?? {}).length === 0 &&
    inner.stack.every((layer) => (layer.handle?.length ?? 0) < 4);
  if (!flat) {
    app.use(routes);
    return;
  }
  stackOf(app.router).push(...(inner.stack ?? []));
}
