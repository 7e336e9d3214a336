import type { Request } from 'express';
import { AppError, accessTokenOf, bearerToken } from '../../kit/src/core/index.js';
import { errorResponses, ok, okResponse, routes, type JsonObject, type Route } from '../../kit/src/http/index.js';
import { adminRoutes } from './admin-routes.js';
import type { AuthDeps } from './domain/deps.js';
import { currentIdentity } from './domain/identity.js';
import { login } from './domain/login.js';
import { logout, refresh } from './domain/refresh.js';
import { register } from './domain/register.js';
import { MSG } from './messages.js';
import {
  authorizationHeader,
  BODY_ERRORS,
  INTERNAL_TOKEN_MISSING,
  messageResponse,
  SERVER_ERRORS,
  SESSION,
  USER,
} from './responses.js';
import { loginBody, logoutBody, refreshBody, registerBody } from './schemas.js';

const route = routes<AuthDeps>();

/** A public JSON route's shared failures: validation, the body parser's and the service's own. */
const ERRORS = {
  400: 'Malformed JSON, wrong types, unknown fields; details name every field. Codes: VALIDATION_ERROR.',
  ...BODY_ERRORS,
  ...SERVER_ERRORS,
};

/** Logout's answer. */
const REVOKED: JsonObject = {
  type: 'object',
  required: ['revoked'],
  additionalProperties: false,
  properties: {
    revoked: {
      type: 'boolean',
      description: 'false when the token is missing, invalid, already revoked or does not match the stored hash',
    },
  },
};

/** Identities and sessions: the routes a user's client reaches through the gateway. */
const sessionRoutes: ReadonlyArray<Route<AuthDeps>> = [
  route({
    method: 'post',
    path: '/v1/auth/register',
    body: registerBody,
    doc: {
      summary: 'Register a native identity and start a session',
      operationId: 'register',
      responses: {
        201: okResponse(
          'Identity, its own new organization (the default membership), a session and the refresh-token hash created',
          SESSION,
        ),
        ...errorResponses({
          ...ERRORS,
          401: INTERNAL_TOKEN_MISSING,
          409: 'Email or non-empty phone already registered. Codes: EMAIL_TAKEN, PHONE_TAKEN.',
          429: "More than AUTH_REGISTER_MAX_PER_ADDRESS registrations from this client address in the current window (checked before any hashing; Retry-After gives the seconds to the window's end), or hashing capacity saturated (Retry-After: 1). Codes: RATE_LIMITED.",
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await register(deps, req.valid.body, clientAddress(req)), 'OK', 201);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/login',
    body: loginBody,
    doc: {
      summary: 'Log in by email and password',
      operationId: 'login',
      responses: {
        200: messageResponse('Success', SESSION, MSG.loggedIn),
        ...errorResponses({
          ...ERRORS,
          401: 'Unknown email or wrong password (indistinguishable), or a missing internal token. Codes: UNAUTHENTICATED.',
          403: 'The account is not ACTIVE. Codes: FORBIDDEN.',
          429: 'This account from this client address, this client address, or (from an address the account never logged in from) this account is in backoff after its free failures (Retry-After gives the seconds to wait), or hashing capacity saturated (Retry-After: 1). Codes: RATE_LIMITED.',
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await login(deps, req.valid.body, clientAddress(req)), MSG.loggedIn);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/refresh',
    body: refreshBody,
    doc: {
      summary: 'Exchange a refresh token for a new session (rotation)',
      operationId: 'refresh',
      parameters: [
        authorizationHeader(
          '`Bearer <REFRESH_TOKEN>`; read only when the body has no (or an empty) refreshToken, so the body wins when both are given. Any other value counts as no token (401).',
        ),
      ],
      responses: {
        200: okResponse('New session; the presented token is consumed', SESSION),
        ...errorResponses({
          ...ERRORS,
          401: 'Missing, empty, overlong, forged, expired, wrong-type, unknown, revoked, replayed or hash-mismatching token, or one rotated moments ago by a concurrent request (the session stays valid). Codes: UNAUTHENTICATED.',
          429: 'Hashing capacity saturated. Codes: RATE_LIMITED.',
        }),
      },
      bodyRequired: false,
    },
    handle: async (req, res, deps) => {
      const token = refreshTokenOf(req.valid.body.refreshToken, req);
      if (typeof token !== 'string' || !token)
        throw new AppError('UNAUTHENTICATED', MSG.invalidRefresh, { headers: { 'WWW-Authenticate': 'Bearer' } });
      ok(res, await refresh(deps, token));
    },
  }),
  // Logout never refuses a token, whatever its type: the contract answers revoked false instead.
  route({
    method: 'post',
    path: '/v1/auth/logout',
    body: logoutBody,
    doc: {
      summary: 'Revoke a refresh token and its session',
      operationId: 'logout',
      parameters: [
        authorizationHeader(
          '`Bearer <REFRESH_TOKEN>`; read when the body has no (or an empty) refreshToken. Any other value counts as no token (`revoked: false`).',
        ),
      ],
      responses: {
        200: okResponse('Success', REVOKED),
        ...errorResponses({
          ...ERRORS,
          400: 'A body that is not a JSON object, or has fields other than refreshToken. The token itself is never a reason for 400. Codes: VALIDATION_ERROR.',
          401: INTERNAL_TOKEN_MISSING,
          429: 'Hashing capacity saturated (the stored-hash check is a bcrypt compare); Retry-After: 1. Codes: RATE_LIMITED.',
        }),
      },
      bodyRequired: false,
    },
    handle: async (req, res, deps) => {
      ok(res, await logout(deps, refreshTokenOf(req.valid.body.refreshToken, req)));
    },
  }),
  route({
    method: 'get',
    path: '/v1/auth/me',
    doc: {
      summary: 'The identity behind an access token',
      operationId: 'me',
      parameters: [
        authorizationHeader('`Bearer <ACCESS_TOKEN>`'),
        {
          name: 'platform.accessToken',
          in: 'cookie',
          required: false,
          schema: { type: 'string' },
          description: 'The access token, when no Authorization header is sent',
        },
      ],
      responses: {
        200: okResponse('Success', USER),
        ...errorResponses({
          401: 'Missing, forged, expired or wrong-type token, a token without exp or sid, missing required claims, a session (sid) that was logged out or revoked, or an account no longer ACTIVE (WWW-Authenticate: Bearer), or a missing internal token. Codes: UNAUTHENTICATED.',
          ...SERVER_ERRORS,
        }),
      },
    },
    handle: async (req, res, deps) => {
      ok(res, await currentIdentity(deps, accessTokenOf(req.headers)));
    },
  }),
];

/** The auth service's routes, declared once: validation, handler types and the document come from here. */
export const authRoutes: ReadonlyArray<Route<AuthDeps>> = [...sessionRoutes, ...adminRoutes];

/**
 * The client as Express sees it through `trust proxy` (TRUST_PROXY hops of X-Forwarded-For): the
 * gateway names the one address it vouches for, and only it can reach /v1 (the internal token).
 */
function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The body's token wins; an empty one counts as none, so the Bearer header is read instead. */
function refreshTokenOf(fromBody: unknown, req: Request): unknown {
  return fromBody === undefined || fromBody === '' ? bearerToken(req.headers.authorization) : fromBody;
}
