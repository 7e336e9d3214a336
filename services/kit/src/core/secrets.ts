// Credentials in headers, without Express: the services, the gateway and the operator read them alike.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares digests so neither the length nor the content of the token leaks through timing. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` value, or undefined for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1];
}
