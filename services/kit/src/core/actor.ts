import type { NextFunction, Request, Response } from 'express';
import { AppError } from './errors.js';
import { bearerToken, sameSecret } from './secrets.js';

export { sameSecret } from './secrets.js';

export const ROLES = ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export interface Actor {
  userId?: string;
  role?: Role;
  organizationId?: string;
  /**
   * `X-Actor-Scope: self`: the gateway's public "own inbox" routes say the caller acts on its own
   * rows only, whatever its role (an ADMIN token there is not an admin tool).
   */
  scope?: 'self';
}

const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;

/**
 * The caller as a gateway or peer service names it: `X-User-Id` | `X-Actor-Id`,
 * `X-User-Role` | `X-Actor-Role`, `X-Organization-Id`. Malformed values are a 400, not ignored:
 * a caller who sends a role we do not know should hear about it.
 */
export function readActor(req: Request): Actor {
  const actor: Actor = {};
  const userId = header(req, 'x-user-id') ?? header(req, 'x-actor-id');
  const role = header(req, 'x-user-role') ?? header(req, 'x-actor-role');
  const organizationId = header(req, 'x-organization-id');
  if (userId !== undefined) actor.userId = checkId('X-Actor-Id', userId);
  if (organizationId !== undefined) actor.organizationId = checkId('X-Organization-Id', organizationId);
  if (role !== undefined) actor.role = checkRole(role);
  if (header(req, 'x-actor-scope')?.toLowerCase() === 'self') actor.scope = 'self';
  return actor;
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

function checkId(name: string, value: string): string {
  if (!ID_PATTERN.test(value)) {
    throw new AppError('VALIDATION_ERROR', `Invalid ${name} header`, {
      details: [{ path: name, message: 'must be 1-128 characters of [A-Za-z0-9_.:@-]' }],
    });
  }
  return value;
}

function checkRole(value: string): Role {
  const upper = value.toUpperCase();
  if (!(ROLES as readonly string[]).includes(upper)) {
    throw new AppError('VALIDATION_ERROR', 'Invalid X-Actor-Role header', {
      details: [{ path: 'X-Actor-Role', message: `must be one of ${ROLES.join(', ')}` }],
    });
  }
  return upper as Role;
}

/** The credentials a service's routes take, from its config (`guardTokens`). */
export interface GuardTokens {
  /** The platform-wide token every `/v1` route needs in `X-Internal-Token` (unset: development, open). */
  internalToken?: string;
  /** The DOCX workers' narrower token: accepted only on `workerRoutes`. */
  workerToken?: string;
  /** `METHOD /path` pairs (exact path; `:name` matches one segment) where the worker token is accepted. */
  workerRoutes?: readonly string[];
  /** Bearer token `/metrics` needs; unset, the internal token guards it. */
  metricsToken?: string;
}

/** The guard credentials from a service's loaded config. */
export function guardTokens(config: {
  INTERNAL_API_TOKEN?: string;
  WORKER_API_TOKEN?: string;
  METRICS_TOKEN?: string;
}): GuardTokens {
  return {
    internalToken: config.INTERNAL_API_TOKEN,
    workerToken: config.WORKER_API_TOKEN,
    metricsToken: config.METRICS_TOKEN,
  };
}

/**
 * When a token is configured, every guarded route needs `X-Internal-Token` with that value; the
 * worker token passes only on the routes listed for it. A request without the token is refused
 * before any actor header is read, so forged actor headers never count.
 */
export function internalTokenGuard(
  token: string | undefined,
  worker: Pick<GuardTokens, 'workerToken' | 'workerRoutes'> = {},
) {
  const workerRoutes = (worker.workerRoutes ?? []).map(routePattern);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!token) return next();
    const given = header(req, 'x-internal-token');
    if (given !== undefined && sameSecret(given, token)) return next();
    if (given !== undefined && worker.workerToken && sameSecret(given, worker.workerToken)) {
      const line = `${req.method} ${req.baseUrl}${req.path}`;
      if (workerRoutes.some((route) => route.test(line))) {
        res.locals[WORKER_CALL] = true;
        return next();
      }
      next(new AppError('FORBIDDEN', 'The worker credential is not accepted on this route'));
      return;
    }
    next(new AppError('UNAUTHENTICATED', 'Missing or invalid internal token'));
  };
}

const WORKER_CALL = 'workerCredential';

/** True when the request was let in on the DOCX workers' credential (a route may ask more of it: grant.ts). */
export function isWorkerCall(res: Response): boolean {
  return res.locals[WORKER_CALL] === true;
}

/** `POST /v1/exams/:examId/snapshots` → an exact pattern where `:name` is one path segment. */
function routePattern(route: string): RegExp {
  const escaped = route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]\w*/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/**
 * `/metrics` needs `Authorization: Bearer <METRICS_TOKEN>`, or, without a metrics token, the
 * internal token (as Bearer or `X-Internal-Token`); with neither configured (development) it is open.
 */
export function metricsGuard(tokens: GuardTokens) {
  const expected = tokens.metricsToken ?? tokens.internalToken;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!expected) return next();
    const bearer = bearerToken(header(req, 'authorization'));
    const given = bearer ?? (tokens.metricsToken ? undefined : header(req, 'x-internal-token'));
    if (given !== undefined && sameSecret(given, expected)) return next();
    next(
      new AppError('UNAUTHENTICATED', 'Metrics need the metrics token', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      }),
    );
  };
}
