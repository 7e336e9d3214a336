// The gateway's document, generated from its route tables: one operation per table route.
import Joi from 'joi';
import {
  errorResponses,
  okResponse,
  openApiDocument,
  type DocumentBase,
  type DocumentedRoute,
  type JsonObject,
} from '../../kit/src/index.js';
import { envPrefix } from './config.js';
import { SEGMENT, TABLES, type RouteDef, type TableDef } from './tables.js';

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

function responses(table: TableDef, route: RouteDef, service: string): JsonObject {
  const token = table.guard.identity === 'token';
  const refused = forbidden(table, route.method);
  return {
    ...errorResponses({
      ...(token ? { 401: UNAUTHENTICATED } : {}),
      ...(refused ? { 403: refused } : {}),
      404: "The table is switched off, or the service answered 404. Codes: ROUTE_NOT_FOUND (gateway) or the service's.",
      429: RATE_LIMITED,
      502: 'The service broke the exchange. Codes: UPSTREAM_ERROR.',
      503: `${UNAVAILABLE}${token ? ` ${REVOCATIONS_UNKNOWN}` : ''} Codes: DEPENDENCY_UNAVAILABLE.`,
      504: `The service did not start answering within the table's timeout (GATEWAY_${envPrefix(table.name)}_TIMEOUT_MS) after the request was sent. Codes: UPSTREAM_TIMEOUT.`,
    }),
    default: {
      description: `The ${service} service's answer to ${route.method} ${route.target}, streamed as it comes: see services/${service}/openapi.json.`,
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
  servers: [{ url: 'http://127.0.0.1:4000' }],
  'x-decisions': [
    "Switches: each table is GATEWAY_TABLE_<NAME>=on|off (AUTH, ANALYTICS, NOTIFICATIONS, PARENT_ALERTS, DOCUMENT_IMPORT). Unset means off when NODE_ENV=production (the contracts' 'non-default') and on otherwise, so make dev serves every table. A switched-off table's paths are unmapped: legacy when GATEWAY_LEGACY_URL is set, else 404 ROUTE_NOT_FOUND.",
    'Matching: method and path together; the first route that matches wins (fixed paths precede parameterised ones). Paths are case-sensitive, one trailing slash is ignored, HEAD matches a GET route. A path parameter is one segment of [A-Za-z0-9_.:@~-] (1-200), never . or ..; anything else is unmapped. Another method on a mapped path is unmapped too, since the contracts leave every sibling route with the legacy system: it goes to legacy when GATEWAY_LEGACY_URL is set; without one it is 405 METHOD_NOT_ALLOWED with Allow listing the methods the switched-on tables map for that path (HEAD with GET), as the services answer.',
    "Identity: the access token is read from Authorization: Bearer, else from the platform.accessToken cookie (a value wrapped in double quotes, which RFC 6265 allows, is read without them, and then percent-decoded; the auth service reads the cookie by the same rule, the kit's access-token module, so a quoted cookie is accepted by both), and verified with AUTH_JWT_SECRET exactly as the auth service signs it: HS256 only, signature, type=access, non-empty sub, role (one of STUDENT, TEACHER, PARENT, ADMIN) and fullName, and exp and iat both present: a token without exp (one that would never expire) or without iat is invalid, and so is one whose exp lies more than GATEWAY_MAX_TOKEN_LIFETIME_SECONDS (86400; auth issues 900) after its iat or after now. A sid claim, when present, must be an id. Missing: 401 UNAUTHENTICATED 'An access token is required'; invalid, expired ('Access token expired'), revoked ('Access token revoked') or type=refresh: 401 with WWW-Authenticate error=\"invalid_token\". Refresh tokens are never accepted as identity.",
    "Organization rule and role per organization: a token with a memberships claim ([{organizationId, role}], as auth issues it) acts only in organizations it has a membership in, and the role the gateway checks (table guards) and forwards (X-User-Role, X-Actor-Role) is the membership's role there, not the global role claim: a global TEACHER who is a STUDENT in the requested organization is a STUDENT there (analytics: 403), and a global STUDENT who is a TEACHER there is a TEACHER there. Without X-Organization-Id the request acts in the token's defaultOrganizationId when the token has a membership there; otherwise in no organization, with the global role (tables that need an organization then answer 403; the own inbox and parent alerts need none and show only the caller's own rows). A membership entry without a valid organizationId and role grants nothing. A token without a memberships claim (issued before auth added it) keeps the old rule only for its defaultOrganizationId: it acts there with its global role, and nowhere else. A request naming any organization the token has no membership in (or, for a token without the claim, any but its default) is 403 FORBIDDEN 'Not a member of the requested organization' rather than silently moved to the default one, so a client never writes where it did not mean to. Tables that need an organization (analytics, document import) answer 403 when the request resolves to none.",
    "Headers toward a service and toward the legacy system: header names are compared as any hop may fold them (lower case, every run of characters other than letters and digits as one '-', and also with no separators at all, so X_User_Id, x.user.id and XUserId are X-User-Id). Every client header whose name so folds to a name only the gateway sets is removed, toward the services and toward the legacy system alike: X-User-*, X-Actor-* (X-Actor-Scope included), X-Organization-*, X-Internal-*, X-Request-Id, X-Forwarded-*, Forwarded, X-Real-IP, X-Client-IP, True-Client-IP, X-Cluster-Client-IP, CF-Connecting-IP, Fastly-Client-IP, X-Original-Forwarded-For (a harmless custom header that folds to one of these prefixes is dropped too). Hop-by-hop headers (Connection and those it lists, Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade, Proxy-*, Expect, Host) are not forwarded. For token tables the gateway sets X-User-Id, X-User-Role, X-Actor-Id, X-Actor-Role (both spellings the services read; the role is the one in the resolved organization) and X-Organization-Id, and drops Authorization and Cookie (the services get headers, not credentials). The auth table keeps Authorization and Cookie, which the auth service reads itself for me, refresh and logout, and injects no actor. X-Internal-Token (INTERNAL_API_TOKEN) is added toward every platform service, never toward the legacy system. X-Forwarded-For is set to exactly one address, the client address the gateway resolved (the socket peer, or with GATEWAY_TRUST_PROXY=n the address n hops back in the X-Forwarded-For its trusted proxies wrote), never the chain the client sent: the auth service trusts exactly one hop, so its throttles key on the real client.",
    'Request ids: a well-formed client X-Request-Id ([A-Za-z0-9._:-]{1,128}) is kept, otherwise a UUID is made; it goes to the service and back to the client.',
    "Roles (checked against the role in the resolved organization, see the organization rule): analytics needs ADMIN or TEACHER and an organization (contract). Parent alerts need PARENT (contract). The inbox and preferences need any valid token and no organization (contract). Document import is not given roles by the contract; the gateway asks ADMIN or TEACHER (an import is a teacher's tool) and an organization (the service requires X-Organization-Id).",
    "Own inbox: the notifications and parentAlerts tables are the caller's own inbox, for every role: the gateway sends X-Actor-Scope: self on them (the notification service then treats an ADMIN as a plain owner), and, as a second line, GET /api/notifications loses any userId and organizationId the client put in its query (every spelling, userId[] included) and gets userId=<the caller's id> instead, and GET /api/parent/alerts loses userId and organizationId. An ADMIN token therefore never lists other users' notifications through the gateway; the admin inbox stays legacy, as the contract says.",
    "Public paths the contracts do not spell: the inbox under /api/notifications (list, read-all, delete-all, preferences, {id}, {id}/read, {id}/delete) with /api/alerts/preferences as the contract's alias; parent alerts under /api/parent/alerts; document import under /api/exam-import: teacher-library (GET lists; POST uploads a DOCX into it, mapped to /v1/import/docx/qas/jobs, the upload job, since the contract's fast-job create takes a storage key rather than bytes), docx-fast-jobs, docx-fast-jobs/{id}/temp-draft, .../assets/{assetId}/content, docx-fast-jobs/{id}/reprocess, jobs/{id}, jobs/{id}/status, jobs/{id}/review (PATCH), jobs/{id}/approve, plus /api/imports/{id}/status and /api/exam-import/algorithm-jobs/events (the jobs event stream), as named by the contract.",
    'Streaming: request and response bodies are piped chunk by chunk through node:http with a keep-alive pool per upstream (GATEWAY_MAX_SOCKETS, 256); nothing is buffered or parsed, so a 50 MB upload is bounded only by the service (413 at 50 MB + 1) and a server-sent-event stream stays open with its heartbeats. Response headers are flushed at once. A client that disconnects closes the upstream request; an upstream that breaks mid-answer cuts the client connection (the status was already sent). The wait for a pooled socket is bounded by GATEWAY_QUEUE_TIMEOUT_MS, and open event streams by GATEWAY_MAX_STREAMS_PER_CLIENT (see Fairness per client).',
    "Timeouts per table (GATEWAY_<TABLE>_TIMEOUT_MS; 10 s, document import 60 s, legacy GATEWAY_LEGACY_TIMEOUT_MS 30 s) count from the moment the request body is fully sent until the service's response headers: slow uploads are not cut, and an event stream, once its headers arrived, has no limit. Past it: 504 UPSTREAM_TIMEOUT.",
    "Upstream failures: connection refused, no such host, host or network unreachable: 503 DEPENDENCY_UNAVAILABLE with Retry-After: 1; a reset, hang-up or malformed answer: 502 UPSTREAM_ERROR; both in the platform's error envelope. A service's own 5xx answers pass through unchanged. Readiness does not depend on upstreams: one service down must not take every table out of the balancer.",
    'Rate limiting: a token bucket per client, in memory per replica: GATEWAY_RATE_LIMIT_BURST (100) requests at once, then GATEWAY_RATE_LIMIT_RPS (50) per second; 0 turns it off. The client is the user of a valid access token, else the client address (GATEWAY_TRUST_PROXY hops of X-Forwarded-For are trusted, 0 by default). Past it: 429 RATE_LIMITED with Retry-After in whole seconds until a token is back. It applies to every /api request, legacy included, before any forwarding. Past 100,000 tracked clients the idle ones are forgotten first, then the oldest.',
    "Fairness per client (the user of a valid access token, else the client address, as for the rate limit): at most GATEWAY_MAX_CONCURRENT_PER_CLIENT (16) upstream requests in flight (event streams included, legacy included) and at most GATEWAY_MAX_STREAMS_PER_CLIENT (4) open event streams (the route known to stream, /api/exam-import/algorithm-jobs/events, counts from the start; any other answer counts once its Content-Type is text/event-stream, and is refused before its headers are sent when past the cap). Past either: 429 RATE_LIMITED with Retry-After: 1 and error.details.reason CLIENT_CONCURRENCY_LIMIT or CLIENT_STREAM_LIMIT. Each slot is given back when the client's response closes, however the exchange ended (answered, refused, upstream failure or timeout, client gone). 0 turns a cap off. In memory, per replica. A request that waits for a free socket of its upstream's pool (GATEWAY_MAX_SOCKETS per upstream origin) longer than GATEWAY_QUEUE_TIMEOUT_MS (5000) is answered 503 DEPENDENCY_UNAVAILABLE with Retry-After: 1 and error.details.reason UPSTREAM_QUEUE_TIMEOUT instead of waiting without end; the socket it would have had goes to the next request.",
    "CSRF: a state-changing request (any method but GET, HEAD, OPTIONS) on any /api path (tables and legacy) that authenticates with the platform.accessToken cookie (the cookie is sent and Authorization carries no Bearer token) must show it comes from the platform's own origin: Sec-Fetch-Site same-origin or none; or, from a browser that sends no Sec-Fetch-Site, an Origin (else a Referer) whose origin is in GATEWAY_ALLOWED_ORIGINS (comma list of scheme://host[:port]) or, when that is unset, is http or https on the request's own Host. Anything else (cross-site, same-site, a foreign or null Origin, neither Origin nor Referer) is 403 FORBIDDEN with error.details.reason CSRF_REJECTED before anything is forwarded; this also stops a cross-site form upload into /api/exam-import/teacher-library. Bearer-authenticated requests and safe methods are not affected. The envelope's code is FORBIDDEN, as for any refusal of a caller's right to act; error.details.reason names the CSRF rule.",
    "Revocation: the gateway polls the auth service's feed GET {GATEWAY_AUTH_URL}/v1/auth/revocations?since=<ISO> with X-Internal-Token every GATEWAY_REVOCATION_POLL_MS (2000; 0 turns it off), one poll at a time; the next poll asks from the answer's until. The first poll asks from now minus GATEWAY_MAX_TOKEN_LIFETIME_SECONDS, so a restarted gateway knows every revocation that can still matter. Each item's sid is refused (401 'Access token revoked') from the poll that brings it, also for a token the verification cache accepted before; an item without a sid refuses every token of its userId issued at or before its revokedAt (tokens without a sid claim included). Entries are forgotten GATEWAY_MAX_TOKEN_LIFETIME_SECONDS after their revokedAt, when every token they could stop has expired anyway. While the feed is unreachable or answers anything else, the gateway keeps serving on the set it has, logs each failed poll (warn) and exposes gateway_revocation_feed_up (0), gateway_revocation_feed_failures_total and gateway_revocation_feed_last_success_timestamp_seconds (alert on its age); it retries from the same since, so nothing is lost, only late. Decision: fail open by default (auth being down must not take every table down; with 15-minute access tokens the exposure is bounded); GATEWAY_REVOCATION_FAIL_CLOSED_MS > 0 makes token tables answer 503 DEPENDENCY_UNAVAILABLE (Retry-After: 5) once the feed has not answered for that long since the last good poll (or since start), while the auth table keeps working.",
    "Metrics: gateway_request_duration_seconds{table,method,status} for every /api request (table is the table's name, legacy or unmapped: never the URL), beside the kit's http_request_duration_seconds for the gateway's own paths. Each /api request writes one log line (request id, method, table, status, ms): never a header, a query string or a body. Beside it: gateway_upstream_requests_in_flight, gateway_event_streams_open, gateway_revoked_sessions and the revocation feed's gateway_revocation_feed_up, gateway_revocation_feed_failures_total, gateway_revocation_feed_last_success_timestamp_seconds.",
    "The gateway owns no data: it connects to no MongoDB and no Kafka (it reads the revocation feed over HTTP). Its config: PORT (4000), AUTH_JWT_SECRET (the auth service's development default, refused in production as auth refuses it), INTERNAL_API_TOKEN (required in production: without it every service would trust forged actor headers), GATEWAY_LEGACY_URL, the switches, URLs and timeouts per table (URLs default to the make dev ports 4001, 4003, 4004, 4007), GATEWAY_RATE_LIMIT_RPS/BURST, GATEWAY_TRUST_PROXY, GATEWAY_MAX_SOCKETS, GATEWAY_MAX_TOKEN_LIFETIME_SECONDS (86400), GATEWAY_REVOCATION_POLL_MS (2000), GATEWAY_REVOCATION_FAIL_CLOSED_MS (0), GATEWAY_ALLOWED_ORIGINS (unset), GATEWAY_MAX_CONCURRENT_PER_CLIENT (16), GATEWAY_MAX_STREAMS_PER_CLIENT (4), GATEWAY_QUEUE_TIMEOUT_MS (5000), LOG_LEVEL, NODE_ENV, SHUTDOWN_GRACE_MS; a bad value stops it with one line naming the variable.",
  ],
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
