// Pure: the replay identity of an ingest and its canonical request digest.
import { createHash } from 'node:crypto';
import { AppError, canonicalJson } from '../../../../kit/src/core/index.js';
import type { IngestInput } from './types.js';

export const MAX_KEY_LENGTH = 120;
const PRINTABLE = /^[\x20-\x7e]+$/;

/** Trimmed; blank is absent; over 120 characters or non-printable ASCII is a 400, never cut. */
export function idempotencyKeyOf(raw: string | string[] | undefined): string | undefined {
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!key) return undefined;
  if (key.length > MAX_KEY_LENGTH || !PRINTABLE.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Invalid Idempotency-Key header', {
      details: [{ path: 'Idempotency-Key', message: `must be 1-${MAX_KEY_LENGTH} printable ASCII characters` }],
    });
  }
  return key;
}

/** SHA-256 of the canonical body without `latency_ms` (a measurement of the parse, not its content). */
export function digestOf(input: IngestInput): string {
  return createHash('sha256')
    .update(canonicalJson({ ...input, latency_ms: undefined }))
    .digest('hex');
}

/**
 * The ledger identities (unique per organization): the key and the job when given (both claimed
 * in one insert, so neither can start a second import), else the digest itself.
 */
export function identitiesOf(key: string | undefined, input: IngestInput, digest: string): string[] {
  const out: string[] = [];
  if (key !== undefined) out.push(`key:${key}`);
  if (input.sourceImportJobId !== undefined) out.push(`job:${input.sourceImportJobId}`);
  return out.length > 0 ? out : [`digest:${digest}`];
}

export interface LedgerIdentity {
  identities: string[];
  digest: string;
}

/**
 * What an existing ledger sharing an identity means: the same digest is a replay (or the resume of
 * a half-done ingest); another digest under the same key is IDEMPOTENCY_KEY_REUSED, under the same
 * job IMPORT_JOB_CONFLICT (both 409).
 */
export function resolveExisting<T extends LedgerIdentity>(found: T[], mine: LedgerIdentity): T | AppError | null {
  const clash = found.find((l) => l.digest !== mine.digest);
  if (clash) {
    const sameKey = mine.identities.some((i) => i.startsWith('key:') && clash.identities.includes(i));
    return sameKey
      ? new AppError('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was already used with a different payload')
      : new AppError('IMPORT_JOB_CONFLICT', 'sourceImportJobId was already imported with a different payload');
  }
  return found[0] ?? null;
}
