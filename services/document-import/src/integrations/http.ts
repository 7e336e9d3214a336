import { AppError, IMPORT_GRANT_HEADER } from '../../../kit/src/core/index.js';

export type FetchLike = typeof fetch;

/** How every client reaches a peer: base URL, the fetch to use, a timeout, the internal token. */
export interface PeerEndpoint {
  baseUrl: string;
  fetch?: FetchLike;
  /** Per request, headers and body included (default 15 s). */
  timeoutMs?: number;
  /** Sent as X-Internal-Token when the peer guards its /v1 routes. */
  internalToken?: string;
}

/** Who the call is made for: forwarded as X-Organization-Id, X-User-Id, X-User-Role. */
export interface Scope {
  organizationId: string;
  userId?: string;
  role?: string;
  /** The import job's ingest grant (kit grant.ts), sent by the workers' auto-approval. */
  grant?: string;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export function joinUrl(baseUrl: string, path: string): string {
  // A loop, not /\/+$/: that expression is quadratic on a run of slashes not at the end.
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === '/') end -= 1;
  return `${baseUrl.slice(0, end)}${path}`;
}

export function scopeHeaders(scope: Scope | undefined, endpoint: PeerEndpoint): Record<string, string> {
  const h: Record<string, string> = {};
  if (scope?.organizationId) h['X-Organization-Id'] = scope.organizationId;
  if (scope?.userId) h['X-User-Id'] = scope.userId;
  if (scope?.role) h['X-User-Role'] = scope.role;
  if (scope?.grant) h[IMPORT_GRANT_HEADER] = scope.grant;
  if (endpoint.internalToken) h['X-Internal-Token'] = endpoint.internalToken;
  return h;
}

/** A peer that cannot be reached (refused, reset, timed out) or answers 502/503/504: 503. */
export function unavailable(service: string, upstreamStatus: number | null, cause?: unknown): AppError {
  const why = upstreamStatus === null ? 'is unreachable' : `answered ${upstreamStatus}`;
  return new AppError('DEPENDENCY_UNAVAILABLE', `The ${service} ${why}`, {
    details: { service, upstreamStatus },
    cause,
  });
}

function errorPart(body: unknown): { code?: string; message?: string } {
  if (!body || typeof body !== 'object') return {};
  const b = body as { message?: unknown; error?: { code?: unknown } };
  return {
    code: typeof b.error?.code === 'string' ? b.error.code.slice(0, 100) : undefined,
    message: typeof b.message === 'string' ? b.message.slice(0, 300) : undefined,
  };
}

/**
 * Any other non-2xx answer: 502 carrying the peer's status and error code (its body's `message`
 * too, cut short); never its headers, never what we sent.
 */
export function upstreamError(service: string, upstreamStatus: number, body?: unknown): AppError {
  if (GATEWAY_STATUSES.has(upstreamStatus)) return unavailable(service, upstreamStatus);
  const part = errorPart(body);
  const code = part.code ? ` (${part.code})` : '';
  return new AppError('UPSTREAM_ERROR', `The ${service} answered ${upstreamStatus}${code}`, {
    details: { service, upstreamStatus, upstreamCode: part.code ?? null, upstreamMessage: part.message ?? null },
  });
}

export interface JsonCall {
  service: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One JSON request to a peer; the envelope's `data` on 2xx, an AppError otherwise. */
export async function callJson<T>(endpoint: PeerEndpoint, call: JsonCall): Promise<T> {
  const doFetch = endpoint.fetch ?? fetch;
  let res: Response;
  let body: unknown;
  try {
    res = await doFetch(joinUrl(endpoint.baseUrl, call.path), {
      method: call.method,
      headers: { ...call.headers, ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(endpoint.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    body = await readJson(res);
  } catch (err) {
    throw unavailable(call.service, null, err);
  }
  if (!res.ok) throw upstreamError(call.service, res.status, body);
  const data = (body as { data?: unknown } | undefined)?.data;
  if (data === undefined) throw upstreamError(call.service, res.status, { message: 'answer without data' });
  return data as T;
}
