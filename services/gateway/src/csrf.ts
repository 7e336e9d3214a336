// Cross-site request forgery at the edge (pure): a browser attaches the access cookie to a form a
// foreign page submits; it never attaches an Authorization header. So a state-changing request
// that authenticates with the cookie alone must show that it comes from our own origin.
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, accessCookie, bearerToken } from '../../kit/src/core/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SAME_ORIGIN_SITES = new Set(['same-origin', 'none']);

/** The reason a refusal carries in `error.details.reason`; the envelope's code is FORBIDDEN, as for any refused right. */
export const CSRF_REJECTED = 'CSRF_REJECTED';

/** `scheme://host[:port]` of a URL, lower case, or undefined for anything that is not one (`null`, garbage). */
export function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the token that authenticates the request is the access cookie (the browser's ambient
 * credential): the cookie is there and no Bearer token precedes it, as the kit's `accessTokenOf` reads them.
 */
export function isCookieAuthenticated(headers: IncomingHttpHeaders): boolean {
  return bearerToken(headers.authorization) === undefined && accessCookie(headers.cookie) !== undefined;
}

/**
 * The origins a cookie-authenticated write may come from: GATEWAY_ALLOWED_ORIGINS when set, else
 * the request's own host (http or https, since a proxy in front may terminate TLS).
 */
function allowed(headers: IncomingHttpHeaders, configured: readonly string[]): readonly string[] {
  if (configured.length > 0) return configured;
  const host = headers.host?.toLowerCase();
  return host ? [`http://${host}`, `https://${host}`] : [];
}

/**
 * Refuses (403) a state-changing, cookie-authenticated request unless Sec-Fetch-Site is
 * same-origin or none (a user's own navigation), or, from a browser that sends no Sec-Fetch-Site,
 * its Origin (else Referer) is an allowed origin. Bearer requests and safe methods pass untouched.
 */
export function assertSameOrigin(method: string, headers: IncomingHttpHeaders, configured: readonly string[]): void {
  if (SAFE_METHODS.has(method) || !isCookieAuthenticated(headers)) return;
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') {
    if (SAME_ORIGIN_SITES.has(site.trim().toLowerCase())) return;
    throw refusal(`Sec-Fetch-Site ${site.slice(0, 32)}`);
  }
  const origin = originOf(headers.origin) ?? originOf(headers.referer);
  if (origin !== undefined && allowed(headers, configured).includes(origin)) return;
  throw refusal(origin === undefined ? 'no Origin or Referer' : 'a foreign Origin');
}

function refusal(why: string): AppError {
  return new AppError(
    'FORBIDDEN',
    'Cross-site request refused: a cookie-authenticated write must come from the platform origin (or use Authorization: Bearer)',
    { details: { reason: CSRF_REJECTED, why } },
  );
}

/** GATEWAY_ALLOWED_ORIGINS: a comma list of origins, normalised; entries that are not origins are refused at start. */
export function parseAllowedOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const o = originOf(s);
      if (!o) throw new Error(`not an origin: ${s}`);
      return o;
    });
}
