import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type Joi from 'joi';
import type { OperationDoc } from './openapi/document.js';
import { onlyMethods } from './routing.js';
import { validate } from './validate.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** No parameters, query or body declared: the handler sees an empty object. */
export type { OperationDoc } from './openapi/document.js';

export type Empty = Record<string, never>;

/** A request whose parts passed the route's joi schemas: `valid` holds what they returned. */
export type ValidRequest<P, Q, B> = Request & { valid: { params: P; query: Q; body: B } };

/**
 * A schema the handler's types come from. An untyped `Joi.object({...})` is `ObjectSchema<any>`,
 * which would make the handler's input unchecked; it does not compile here: declare the schema as
 * `Joi.object<T, true>({...})` so joi checks its members against `T` at compile time.
 */
type Typed<T> = Joi.ObjectSchema<T> & (0 extends 1 & T ? 'declare the schema as Joi.object<T, true>(...)' : unknown);

/**
 * One route, declared once: its method and path, the joi schemas that validate it (and type its
 * handler, and give its OpenAPI parameters and body), what its document says, and its handler.
 * `D` is what the service passes every handler (its dependencies), bound by `routerFor`.
 */
export interface RouteDeclaration<P, Q, B, D> {
  method: Method;
  /** Express syntax: `/v1/users/:userId/profile`. */
  path: string;
  params?: Typed<P>;
  query?: Typed<Q>;
  body?: Typed<B>;
  /** Middleware run before validation (an upload parser, a role check). */
  before?: (deps: D) => RequestHandler[];
  doc: OperationDoc;
  handle(req: ValidRequest<P, Q, B>, res: Response, deps: D, next: NextFunction): unknown;
}

/** A declared route, its input types erased: what routers and the document generator take. */
export interface Route<D> {
  method: Method;
  path: string;
  params?: Joi.ObjectSchema;
  query?: Joi.ObjectSchema;
  body?: Joi.ObjectSchema;
  doc: OperationDoc;
  handlers(deps: D): RequestHandler[];
}

/**
 * The route declarer of a service whose handlers get `D`: `const userRoute = routes<UserDeps>()`,
 * then `userRoute({ method, path, body, doc, handle })`. Each handler's input types are inferred
 * from (and checked against) its schemas; nothing is cast by hand.
 */
export function routes<D>() {
  return <P = Empty, Q = Empty, B = Empty>(decl: RouteDeclaration<P, Q, B, D>): Route<D> => {
    const { method, path, params, query, body, doc } = decl;
    const check = validate({ params, query, body });
    const handlers = (deps: D): RequestHandler[] => [
      ...(decl.before?.(deps) ?? []),
      check,
      // validate() just stored on req.valid what the schemas returned: the types they declare.
      (req, res, next) => decl.handle(req as unknown as ValidRequest<P, Q, B>, res, deps, next),
    ];
    return { method, path, params, query, body, doc, handlers };
  };
}

const isParameter = (segment: string) => segment.startsWith(':') || segment.includes('*');

/**
 * Fixed segments before parameterised ones, position by position (`/v1/items/bulk` before
 * `/v1/items/:id`). Two paths only one request could never both match keep a consistent order
 * (fixed segments compared as text); paths with the same shape keep their declared order. Express
 * tries routes in registration order, so this is what keeps a fixed path from being read as an id.
 */
export function routeOrder(a: { path: string }, b: { path: string }): number {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const diff = compareSegments(as[i] ?? '', bs[i] ?? '');
    if (diff !== 0) return diff;
  }
  return as.length - bs.length;
}

function compareSegments(a: string, b: string): number {
  const pa = isParameter(a);
  const pb = isParameter(b);
  if (pa !== pb) return pa ? 1 : -1;
  if (pa || a === b) return 0;
  return a < b ? -1 : 1;
}

/** Whether a parameterised path would match the fixed `path` (same segments, a parameter anywhere). */
function shadows(pattern: string, path: string): boolean {
  const ps = pattern.split('/');
  const fs = path.split('/');
  if (ps.length !== fs.length || pattern === path) return false;
  return ps.every((segment, i) => isParameter(segment) || segment === fs[i]);
}

/** The methods a path's routes answer, as `Allow` lists them: Express answers HEAD with a GET route. */
function allowed(routes: ReadonlyArray<{ method: Method }>): string[] {
  const methods = routes.map((r) => r.method.toUpperCase());
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

/**
 * The router for a service's declared routes, in `routeOrder`. A fixed path that a parameterised
 * one would also match answers its other methods 405 with `Allow` before the parameterised route
 * can take its segment for an id.
 */
export function routerFor<D>(routes: ReadonlyArray<Route<D>>, deps: D): Router {
  const router = Router();
  const ordered = [...routes].sort(routeOrder);
  ordered.forEach((r, i) => {
    router[r.method](r.path, ...r.handlers(deps));
    const lastOfPath = !ordered.slice(i + 1).some((later) => later.path === r.path);
    if (!lastOfPath || r.path.split('/').some(isParameter)) return;
    if (!ordered.some((other) => shadows(other.path, r.path))) return;
    onlyMethods(router, r.path, allowed(ordered.filter((same) => same.path === r.path)));
  });
  return router;
}
