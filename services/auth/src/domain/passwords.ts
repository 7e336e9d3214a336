/**
 * bcrypt reads at most 72 bytes and silently ignores the rest, so two long passwords sharing a
 * prefix would both match. We refuse longer passwords at registration instead of truncating, and
 * a login with a longer one can never match (it is still hashed, so it takes the usual time).
 */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_CHARS = 8;

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
  return passwordBytes(password) <= PASSWORD_MAX_BYTES;
}

/** The cost a bcrypt hash was made with (`$2b$12$...` -> 12). */
export function bcryptCost(hash: string): number {
  const match = /^\$2[abxy]?\$(\d{2})\$/.exec(hash);
  if (!match?.[1]) throw new Error('not a bcrypt hash');
  return Number(match[1]);
}
