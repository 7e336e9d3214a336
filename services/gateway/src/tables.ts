// The public route tables the three contracts describe, as data, and their matching (pure).
import type { Role } from '../../kit/src/core/index.js';

export const TABLE_NAMES = ['auth', 'analytics', 'notifications', 'parentAlerts', 'documentImport'] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/** What a table asks of the caller before anything is forwarded. */
export interface Guard {
  /** `service`: the owning service reads the credentials itself (auth); `token`: the gateway verifies them. */
  identity: 'service' | 'token';
  roles?: readonly Role[];
  requireOrganization?: boolean;
  /** `self`: the service is told (X-Actor-Scope: self) to treat every caller, ADMIN included, as the owner of its own rows only. */
  scope?: 'self';
}

export interface RouteDef {
  method: string;
  /** Public path; `:name` is one path segment. */
  path: string;
  /** The owning service's `/v1` path with the same `:name` parameters. */
  target: string;
  /** Query parameters never forwarded on this route. */
  dropQuery?: readonly string[];
  /** Set to the caller's user id after the client's query is cleaned (the own inbox list). */
  ownerQuery?: string;
  /** An event stream: it counts against the client's open-stream cap (GATEWAY_MAX_STREAMS_PER_CLIENT). */
  stream?: boolean;
}

export interface TableDef {
  name: TableName;
  /** The owning service (its folder under services/). */
  service: string;
  guard: Guard;
  routes: readonly RouteDef[];
}

const r = (
  method: string,
  path: string,
  target: string,
  extra: Pick<RouteDef, 'dropQuery' | 'ownerQuery' | 'stream'> = {},
): RouteDef => ({ method, path, target, ...extra });

const DI = '/v1/import/docx';

/** Specific paths before parameterised ones: the first match wins. */
export const TABLES: readonly TableDef[] = [
  {
    name: 'auth',
    service: 'auth',
    guard: { identity: 'service' },
    routes: [
      r('POST', '/api/auth/register', '/v1/auth/register'),
      r('POST', '/api/auth/login', '/v1/auth/login'),
      r('POST', '/api/auth/refresh', '/v1/auth/refresh'),
      r('POST', '/api/auth/logout', '/v1/auth/logout'),
      r('GET', '/api/auth/me', '/v1/auth/me'),
    ],
  },
  {
    name: 'analytics',
    service: 'analytics',
    guard: { identity: 'token', roles: ['ADMIN', 'TEACHER'], requireOrganization: true },
    routes: [
      r('GET', '/api/analytics/results', '/v1/analytics/results'),
      r('GET', '/api/analytics/weak-topics', '/v1/analytics/weak-topics'),
    ],
  },
  {
    name: 'notifications',
    service: 'notification',
    guard: { identity: 'token', scope: 'self' },
    routes: [
      // The caller's own inbox: the admin inbox (another user's, or everyone's) stays legacy.
      r('GET', '/api/notifications', '/v1/notifications', {
        dropQuery: ['userId', 'organizationId'],
        ownerQuery: 'userId',
      }),
      r('POST', '/api/notifications/read-all', '/v1/notifications/read-all'),
      r('POST', '/api/notifications/delete-all', '/v1/notifications/delete-all'),
      r('GET', '/api/notifications/preferences', '/v1/notifications/preferences'),
      r('PATCH', '/api/notifications/preferences', '/v1/notifications/preferences'),
      r('GET', '/api/alerts/preferences', '/v1/notifications/preferences'),
      r('PATCH', '/api/alerts/preferences', '/v1/notifications/preferences'),
      r('GET', '/api/notifications/:id', '/v1/notifications/:id'),
      r('POST', '/api/notifications/:id/read', '/v1/notifications/:id/read'),
      r('POST', '/api/notifications/:id/delete', '/v1/notifications/:id/delete'),
    ],
  },
  {
    name: 'parentAlerts',
    service: 'notification',
    guard: { identity: 'token', roles: ['PARENT'], scope: 'self' },
    routes: [
      r('GET', '/api/parent/alerts', '/v1/parent/alerts', { dropQuery: ['userId', 'organizationId'] }),
      r('POST', '/api/parent/alerts/read-all', '/v1/parent/alerts/read-all'),
      r('POST', '/api/parent/alerts/:id/read', '/v1/parent/alerts/:id/read'),
    ],
  },
  {
    name: 'documentImport',
    service: 'document-import',
    guard: { identity: 'token', roles: ['ADMIN', 'TEACHER'], requireOrganization: true },
    routes: [
      r('GET', '/api/exam-import/teacher-library', `${DI}/teacher-library`),
      r('POST', '/api/exam-import/teacher-library', `${DI}/qas/jobs`),
      r('POST', '/api/exam-import/docx-fast-jobs', `${DI}/docx-fast-jobs`),
      r('GET', '/api/exam-import/docx-fast-jobs/:id/temp-draft', `${DI}/docx-fast-jobs/:id/temp-draft`),
      r(
        'GET',
        '/api/exam-import/docx-fast-jobs/:id/temp-draft/assets/:assetId/content',
        `${DI}/docx-fast-jobs/:id/temp-draft/assets/:assetId/content`,
      ),
      r('POST', '/api/exam-import/docx-fast-jobs/:id/reprocess', `${DI}/docx-fast-jobs/:id/reprocess`),
      r('GET', '/api/exam-import/algorithm-jobs/events', `${DI}/jobs/events`, { stream: true }),
      r('GET', '/api/exam-import/jobs/:id', `${DI}/jobs/:id`),
      r('GET', '/api/exam-import/jobs/:id/status', `${DI}/jobs/:id/status`),
      r('PATCH', '/api/exam-import/jobs/:id/review', `${DI}/jobs/:id/review`),
      r('POST', '/api/exam-import/jobs/:id/approve', `${DI}/jobs/:id/approve`),
      r('GET', '/api/imports/:id/status', `${DI}/jobs/:id/status`),
    ],
  },
];

/** A path parameter: an id-like segment; `.` and `..` never, so no hop can normalise it into another path. */
export const SEGMENT = /^[A-Za-z0-9_.:@~-]{1,200}$/;

export interface Match {
  table: TableDef;
  route: RouteDef;
  /** The upstream path and query, e.g. `/v1/import/docx/jobs/j1/status?x=1`. */
  upstreamPath: string;
}

interface Compiled {
  table: TableDef;
  route: RouteDef;
  segments: string[];
}

export interface RouteIndex {
  match(method: string, url: string): Match | undefined;
  /** The methods the switched-on tables map for this path (HEAD with GET); empty when none maps it. */
  methods(url: string): string[];
}

/**
 * Compiles the switched-on tables; a switched-off table's paths match nothing (they fall to legacy
 * or 404). A path some table spells out in full (`/api/notifications/read-all`) is that resource
 * only, never a parameter of another route (`GET /api/notifications/:id`), switched on or not.
 */
export function compileTables(enabled: ReadonlySet<TableName>, tables: readonly TableDef[] = TABLES): RouteIndex {
  const compiled: Compiled[] = [];
  const fixed = new Set<string>();
  for (const table of tables) {
    for (const route of table.routes) if (!route.path.includes(':')) fixed.add(route.path);
    if (!enabled.has(table.name)) continue;
    for (const route of table.routes) compiled.push({ table, route, segments: route.path.split('/') });
  }
  /** The routes (of `method`, or any) whose path matches, with their parameters, in table order. */
  function candidates(
    path: string,
    method: string | undefined,
    first: boolean,
  ): Array<[Compiled, Map<string, string>]> {
    const trimmed = trimSlash(path);
    const parts = trimmed.split('/');
    const isFixed = fixed.has(trimmed);
    const out: Array<[Compiled, Map<string, string>]> = [];
    for (const c of compiled) {
      if (method !== undefined && c.route.method !== method) continue;
      if (c.segments.length !== parts.length || (isFixed && c.route.path !== trimmed)) continue;
      const params = bind(c.segments, parts);
      if (params) out.push([c, params]);
      if (params && first) break;
    }
    return out;
  }
  return {
    match(method, url) {
      const [path, query] = splitUrl(url);
      const [found] = candidates(path, method === 'HEAD' ? 'GET' : method, true);
      if (!found) return undefined;
      const [c, params] = found;
      return { table: c.table, route: c.route, upstreamPath: upstream(c.route, params, query) };
    },
    methods(url) {
      const found = new Set(candidates(splitUrl(url)[0], undefined, false).map(([c]) => c.route.method));
      if (found.has('GET')) found.add('HEAD');
      return [...found];
    },
  };
}

export function splitUrl(url: string): [string, string] {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
}

/** One trailing slash is the same path, as Express treats it. */
function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function bind(segments: readonly string[], parts: readonly string[]): Map<string, string> | undefined {
  const params = new Map<string, string>();
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (!seg.startsWith(':')) {
      if (seg !== part) return undefined;
      continue;
    }
    if (!SEGMENT.test(part) || part === '.' || part === '..') return undefined;
    params.set(seg.slice(1), part);
  }
  return params;
}

function upstream(route: RouteDef, params: ReadonlyMap<string, string>, query: string): string {
  const path = route.target.replace(/:([A-Za-z]+)/g, (_m, name: string) => params.get(name) ?? '');
  const kept = route.dropQuery ? dropParams(query, route.dropQuery) : query;
  return kept ? `${path}?${kept}` : path;
}

/** The upstream path with `name=<value>` added (the owner of the own-inbox list; the client's was dropped). */
export function withQuery(upstreamPath: string, name: string, value: string): string {
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  return upstreamPath.includes('?') ? `${upstreamPath}&${pair}` : `${upstreamPath}?${pair}`;
}

/** Removes named parameters (also percent-encoded spellings of the name) and keeps the rest byte for byte. */
export function dropParams(query: string, names: readonly string[]): string {
  if (!query) return query;
  return query
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const raw = eq < 0 ? pair : pair.slice(0, eq);
      let name = raw;
      try {
        name = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is not one of our names; forwarded as is, the service refuses it.
      }
      const bracket = name.indexOf('[');
      return !names.includes(bracket < 0 ? name : name.slice(0, bracket));
    })
    .join('&');
}

/** True when the URL is under the public `/api` prefix the gateway owns. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
