import { createHash } from 'node:crypto';

/**
 * bcrypt reads at most 72 bytes and silently ignores the rest, so two long passwords sharing a
 * prefix would both match. A longer password is therefore hashed with SHA-256 first (44 base64
 * characters go to bcrypt): every byte counts, and 25 Vietnamese letters (75 bytes) are allowed.
 * Which form a password takes depends only on its own length, so login picks the same one.
 */
export const BCRYPT_MAX_BYTES = 72;
export const PASSWORD_MIN_CHARS = 8;
/** In characters (code points, as JSON Schema counts them), not UTF-16 units. */
export const PASSWORD_MAX_CHARS = 256;

/**
 * Vietnamese keyboards emit either precomposed (NFC) or combining (NFD) diacritics depending on
 * the device; the same typed password must hash the same, so we hash the NFC form.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFC');
}

export function passwordBytes(password: string): number {
  return Buffer.byteLength(normalizePassword(password), 'utf8');
}

export function fitsBcrypt(password: string): boolean {
  return passwordBytes(password) <= BCRYPT_MAX_BYTES;
}

/** What bcrypt hashes or compares for a password: its NFC form, pre-hashed past 72 bytes. */
export function bcryptInput(password: string): string {
  const nfc = normalizePassword(password);
  return fitsBcrypt(nfc) ? nfc : createHash('sha256').update(nfc, 'utf8').digest('base64');
}

/** The cost a bcrypt hash was made with (`$2b$12$...` -> 12). */
export function bcryptCost(hash: string): number {
  const match = /^\$2[abxy]?\$(\d{2})\$/.exec(hash);
  if (!match?.[1]) throw new Error('not a bcrypt hash');
  return Number(match[1]);
}
