// The gateway's document, generated from its route tables: one operation per table route.
import Joi from 'joi';
import {
  decisionsFrom,
  errorResponses,
  okResponse,
  openApiDocument,
  type DocumentBase,
  type DocumentedRoute,
  type JsonObject,
} from '../../kit/src/http/index.js';
import { envPrefix } from './config.js';
import { SEGMENT, TABLES, type RouteDef, type TableDef } from './tables.js';
import { portOf } from '../../registry.js';

export const SERVICE_NAME = 'gateway';
export const SERVICE_VERSION = '0.1.0';

const CSRF =
  'A state-changing request authenticated by the platform.accessToken cookie that is not same-origin (Sec-Fetch-Site, else Origin or Referer against GATEWAY_ALLOWED_ORIGINS or the Host): FORBIDDEN with error.details.reason CSRF_REJECTED.';
const UNAUTHENTICATED =
  "No access token, or one that is invalid (bad signature, no exp or iat, exp more than GATEWAY_MAX_TOKEN_LIFETIME_SECONDS after iat), expired, revoked ('Access token revoked': its session was logged out or the account disabled) or not type=access; WWW-Authenticate: Bearer. Codes: UNAUTHENTICATED.";
const UNAVAILABLE =
  'The service is unreachable (connection refused, no such host), or no socket of the upstream pool (GATEWAY_MAX_SOCKETS) came free within GATEWAY_QUEUE_TIMEOUT_MS (error.details.reason UPSTREAM_QUEUE_TIMEOUT); Retry-After: 1.';
const REVOCATIONS_UNKNOWN =
  'Also while session revocations cannot be checked past GATEWAY_REVOCATION_FAIL_CLOSED_MS (Retry-After: 5).';
const RATE_LIMITED =
  "Per-client rate limit (RATE_LIMITED), or the client's cap on upstream requests in flight (GATEWAY_MAX_CONCURRENT_PER_CLIENT; error.details.reason CLIENT_CONCURRENCY_LIMIT) or on open event streams (GATEWAY_MAX_STREAMS_PER_CLIENT; CLIENT_STREAM_LIMIT); Retry-After says when. Codes: RATE_LIMITED.";
const BODY_CUT =
  'The request body stopped for GATEWAY_BODY_IDLE_TIMEOUT_MS (error.details.reason BODY_IDLE), or arrived slower than GATEWAY_BODY_TIMEOUT_MS plus a second per GATEWAY_BODY_MIN_BYTES_PER_SECOND bytes (BODY_TOO_SLOW); nothing more is forwarded and the connection is closed behind the answer. A body cut after the answer started has its connection closed. The service may answer the same for an upload. Codes: REQUEST_TIMEOUT.';
const ROLE_SOURCE =
  'The role in the resolved organization (the membership role; a token without memberships: its global role in its default organization)';

const writes = (method: string) => method !== 'GET';

/** Why a table refuses with 403: its roles, the organization it resolves, and (writes) CSRF. */
function forbidden(table: TableDef, method: string): string | undefined {
  const { guard } = table;
  if (guard.identity === 'service') return writes(method) ? `Cross-site write. ${CSRF} Codes: FORBIDDEN.` : undefined;
  const reasons = [
    ...(guard.roles ? [`${ROLE_SOURCE} is not one of ${guard.roles.join(', ')}`] : []),
    'X-Organization-Id names an organization the token has no membership in',
    ...(guard.requireOrganization ? ['or the token names no organization'] : []),
  ];
  const text = `${reasons.join('; ')}. Codes: FORBIDDEN.`;
  return writes(method) ? `${text} ${CSRF}` : text;
}

const STREAM_END =
  'An event stream (text/event-stream) ends with its session: within a sweep (1 s) of the session being revoked at auth (logout, account disabled, a membership removed or its role changed) or of the access token expiring, the gateway writes a last event `event: session-ended` with data `{"reason":"revoked"}` or `{"reason":"expired"}`, ends the answer and closes the stream upstream.';

function responses(table: TableDef, route: RouteDef, service: string): JsonObject {
  const token = table.guard.identity === 'token';
  const refused = forbidden(table, route.method);
  return {
    ...errorResponses({
      ...(token ? { 401: UNAUTHENTICATED } : {}),
      ...(refused ? { 403: refused } : {}),
      ...(writes(route.method) ? { 408: BODY_CUT } : {}),
      404: "The table is switched off, or the service answered 404. Codes: ROUTE_NOT_FOUND (gateway) or the service's.",
      429: RATE_LIMITED,
      502: 'The service broke the exchange. Codes: UPSTREAM_ERROR.',
      503: `${UNAVAILABLE}${token ? ` ${REVOCATIONS_UNKNOWN}` : ''} Codes: DEPENDENCY_UNAVAILABLE.`,
      504: `The service did not start answering within the table's timeout (GATEWAY_${envPrefix(table.name)}_TIMEOUT_MS) after the request was sent. Codes: UPSTREAM_TIMEOUT.`,
    }),
    default: {
      description: `The ${service} service's answer to ${route.method} ${route.target}, streamed as it comes: see services/${service}/openapi.json.${token ? ` ${STREAM_END}` : ''}`,
    },
  };
}

/** A table route's path parameters: one id-like segment each, as the gateway matches them. */
function pathParams(path: string): Joi.ObjectSchema | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  if (names.length === 0) return undefined;
  return Joi.object(Object.fromEntries(names.map((n) => [n, Joi.string().pattern(SEGMENT).required()])));
}

const TOKEN_SECURITY: JsonObject[] = [{ bearer: [] }, { cookie: [] }];

/** Where a route goes, and what the gateway changes on the way (`x-upstream`). */
function upstream(table: TableDef, route: RouteDef): JsonObject {
  const { method, target, dropQuery, ownerQuery, stream } = route;
  return {
    table: table.name,
    service: table.service,
    method,
    path: target,
    ...(dropQuery ? { dropQuery: [...dropQuery] } : {}),
    ...(ownerQuery ? { ownerQuery } : {}),
    ...(stream ? { stream } : {}),
  };
}

/** One documented operation per table route: what it forwards where, and what the gateway itself answers. */
export function tableRoutes(tables: readonly TableDef[] = TABLES): DocumentedRoute[] {
  return tables.flatMap((table) =>
    table.routes.map((route) => ({
      method: route.method.toLowerCase(),
      path: route.path,
      params: pathParams(route.path),
      doc: {
        summary: `${route.method} ${route.target} on the ${table.service} service (table ${table.name})`,
        tags: [table.name],
        responses: responses(table, route, table.service),
        extra: {
          ...(table.guard.identity === 'token' ? { security: TOKEN_SECURITY } : {}),
          'x-upstream': upstream(table, route),
        },
      },
    })),
  );
}

/** What `x-tables` says of each table: its switch, upstream and timeout variables and its guard. */
function tableSummary(table: TableDef): JsonObject {
  const p = envPrefix(table.name);
  const { guard } = table;
  const token = guard.identity === 'token';
  return {
    name: table.name,
    service: table.service,
    switch: `GATEWAY_TABLE_${p}`,
    upstream: `GATEWAY_${p}_URL`,
    timeout: `GATEWAY_${p}_TIMEOUT_MS`,
    identity: token ? 'access token verified by the gateway' : 'credentials passed to the service',
    roles: [...(guard.roles ?? [])],
    requiresOrganization: guard.requireOrganization ?? false,
    ...(guard.scope ? { scope: guard.scope } : {}),
    ...(guard.roles ? { rolesIn: 'the resolved organization (membership role)' } : {}),
  };
}

const BASE: DocumentBase = {
  kit: {
    service: SERVICE_NAME,
    metrics:
      'gateway_request_duration_seconds{table,method,status} for /api (table: one of the tables, legacy or unmapped)',
    readiness: {
      summary: 'Readiness: the process is up and not draining (upstreams are not checked)',
      responses: {
        200: okResponse('Success', {
          type: 'object',
          properties: {
            status: { const: 'ready' },
            checks: { type: 'object', additionalProperties: { type: 'string' } },
          },
        }),
        ...errorResponses({
          503: 'A named check fails, or the process is shutting down; error.details.failing names it. Codes: DEPENDENCY_UNAVAILABLE.',
        }),
      },
    },
  },
  info: {
    ...{
      title: 'edu-platform gateway',
      version: '0.1.0',
      description:
        "The public /api surface: the optional route tables of the three contracts, each forwarded to its owning service with the caller's verified identity as actor headers. Every other /api path goes to the legacy system (GATEWAY_LEGACY_URL) or is 404. Choices the contracts leave open are under x-decisions; x-tables lists each table's switch.",
    },
    version: SERVICE_VERSION,
  },
  servers: [{ url: `http://127.0.0.1:${portOf(SERVICE_NAME)}` }],
  'x-decisions': decisionsFrom(new URL('../decisions.json', import.meta.url)),
  extra: { 'x-tables': TABLES.map(tableSummary) },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'An access token from /api/auth/login (HS256, AUTH_JWT_SECRET, type=access).',
      },
      cookie: {
        type: 'apiKey',
        in: 'cookie',
        name: 'platform.accessToken',
        description:
          'The same access token as a cookie; used when no Authorization: Bearer is sent. State-changing requests authenticated by it must be same-origin (see x-decisions, CSRF).',
      },
    },
  },
};

/** The gateway's OpenAPI document: the kit's paths and every table route. */
export function gatewayDocument(): JsonObject {
  return openApiDocument(BASE, tableRoutes());
}
