// An import job's ingest grant (issue 33, 5): the document-import API signs, for each run of a job it
// queues, which organization and author the job's questions may be ingested for, and until when; the
// question bank accepts the DOCX workers' credential on its ingest route only with such a grant that
// names the request's organization, author and job. The key is derived from INTERNAL_API_TOKEN, which
// the workers never hold, so a compromised worker cannot mint a grant: it can only pass on those of
// the live jobs it was given.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header the grant travels in, from the worker to the question bank. */
export const IMPORT_GRANT_HEADER = 'X-Import-Grant';

export interface ImportGrant {
  jobId: string;
  organizationId: string;
  /** The job's author: the only X-User-Id the grant ingests as. */
  userId: string;
  /** Expiry, in seconds since the epoch. */
  exp: number;
}

export type GrantRefusal = 'malformed' | 'signature' | 'expired';
export type GrantCheck = { ok: true; grant: ImportGrant } | { ok: false; reason: GrantRefusal };

/** The longest grant a header may carry; ours are about 200 characters. */
export const MAX_IMPORT_GRANT_LENGTH = 2048;

/** The signing key: the internal token, never used as is, through an HMAC labelled for this purpose. */
export function importGrantKey(internalToken: string): Buffer {
  return createHmac('sha256', internalToken).update('edu-platform/import-grant/v1').digest();
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** `base64url(JSON).base64url(HMAC-SHA256)`. */
export function signImportGrant(key: Buffer, grant: ImportGrant): string {
  const { jobId, organizationId, userId, exp } = grant;
  const payload = Buffer.from(JSON.stringify({ jobId, organizationId, userId, exp })).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

function parse(payload: string): ImportGrant | undefined {
  try {
    const g = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<ImportGrant>;
    const strings = [g.jobId, g.organizationId, g.userId].every((v) => typeof v === 'string' && v.length > 0);
    return strings && Number.isInteger(g.exp) ? (g as ImportGrant) : undefined;
  } catch {
    return undefined;
  }
}

/** The grant when its signature holds and it has not expired by `nowSeconds`. */
export function verifyImportGrant(key: Buffer, token: string | undefined, nowSeconds: number): GrantCheck {
  if (!token || token.length > MAX_IMPORT_GRANT_LENGTH) return { ok: false, reason: 'malformed' };
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  const grant = parse(payload);
  if (!grant) return { ok: false, reason: 'malformed' };
  return grant.exp > nowSeconds ? { ok: true, grant } : { ok: false, reason: 'expired' };
}
