// The attacker's tools: plain HTTP with any header, and tokens signed like (or unlike) auth's.
import jwt from 'jsonwebtoken';

export interface Reply {
  status: number;
  headers: Headers;
  body: { success?: boolean; data?: unknown; message?: string; error?: { code?: string; details?: unknown } };
  text: string;
}

export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  const text = await res.text();
  let body: Reply['body'] = {};
  try {
    body = JSON.parse(text) as Reply['body'];
  } catch {
    // not JSON: text is kept
  }
  return { status: res.status, headers: res.headers, body, text };
}

export interface Claims {
  sub: string;
  role: string;
  defaultOrganizationId?: string;
  memberships?: Array<{ organizationId: string; role: string }>;
  sid?: string;
  [key: string]: unknown;
}

/** An access token as auth signs it (HS256, type=access, exp in 15 min) unless told otherwise. */
export function accessToken(secret: string, claims: Claims, opts: { noExp?: boolean } = {}): string {
  const body = { type: 'access', fullName: 'Tester', accountCode: 'AC0000000000', email: 'x@example.com', ...claims };
  return jwt.sign(body, secret, { algorithm: 'HS256', ...(opts.noExp ? {} : { expiresIn: 900 }) });
}

/** Polls until `check` holds, at most `tries` times; never a fixed wait standing in for a condition. */
export async function until(what: string, check: () => Promise<boolean>, tries = 600, everyMs = 100): Promise<void> {
  for (let i = 0; i < tries; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition never held: ${what}`);
}
