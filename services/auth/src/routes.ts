import { Router, type Request } from 'express';
import { AppError, accessTokenOf, bearerToken, input, ok, validate } from '../../kit/src/index.js';
import { adminRoutes } from './admin-routes.js';
import type { AuthDeps } from './domain/deps.js';
import { currentIdentity } from './domain/identity.js';
import { login, type LoginInput } from './domain/login.js';
import { logout, refresh } from './domain/refresh.js';
import { register, type RegisterInput } from './domain/register.js';
import { MSG } from './messages.js';
import { loginBody, logoutBody, refreshBody, registerBody } from './schemas.js';

export function authRoutes(deps: AuthDeps): Router {
  const router = Router();
  router.post('/v1/auth/register', validate({ body: registerBody }), async (req, res) => {
    ok(res, await register(deps, input<RegisterInput>(req, 'body'), clientAddress(req)), 'OK', 201);
  });
  router.post('/v1/auth/login', validate({ body: loginBody }), async (req, res) => {
    ok(res, await login(deps, input<LoginInput>(req, 'body'), clientAddress(req)), MSG.loggedIn);
  });
  router.post('/v1/auth/refresh', validate({ body: refreshBody }), async (req, res) => {
    const token = refreshTokenOf(req);
    if (typeof token !== 'string' || !token)
      throw new AppError('UNAUTHENTICATED', MSG.invalidRefresh, { headers: { 'WWW-Authenticate': 'Bearer' } });
    ok(res, await refresh(deps, token));
  });
  // Logout never refuses a token, whatever its type: the contract answers revoked false instead.
  router.post('/v1/auth/logout', validate({ body: logoutBody }), async (req, res) => {
    ok(res, await logout(deps, refreshTokenOf(req)));
  });
  router.get('/v1/auth/me', async (req, res) => {
    ok(res, await currentIdentity(deps, accessTokenOf(req.headers)));
  });
  router.use(adminRoutes(deps));
  return router;
}

/**
 * The client as Express sees it through `trust proxy` (TRUST_PROXY hops of X-Forwarded-For): the
 * gateway names the one address it vouches for, and only it can reach /v1 (the internal token).
 */
function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The body's token wins; an empty one counts as none, so the Bearer header is read instead. */
function refreshTokenOf(req: Request): unknown {
  const body = input<{ refreshToken?: unknown }>(req, 'body');
  return body.refreshToken === undefined || body.refreshToken === '' ? bearer(req) : body.refreshToken;
}

function bearer(req: Request): string | undefined {
  return bearerToken(req.headers.authorization);
}
