// Short answers. Text: NFC, trimmed, inner whitespace folded to one space, case-insensitive;
// diacritics are significant (Vietnamese "ma" and "má" are different words). Numbers: `,` or `.`
// as the decimal mark (one of them, once), an optional sign, no thousands separators; two numbers
// match within the tolerance (inclusive).

export const normalizeText = (s: string): string => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

export function parseNumber(s: string): number | null {
  const compact = s
    .normalize('NFC')
    .replace(/\s+/g, '')
    .replace(/\u2212/g, '-');
  if (!NUMBER.test(compact)) return null;
  const n = Number(compact.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

// |3.4 − 3.3| is 0.10000000000000009 in doubles: a relative slack of 1e-9 keeps a tolerance of
// exactly 0.1 inclusive without accepting anything a person would call outside it.
const within = (a: number, b: number, tolerance: number): boolean =>
  Math.abs(a - b) <= tolerance + 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

export function matchesAny(answer: string, accepted: readonly string[], tolerance: number): boolean {
  const text = normalizeText(answer);
  const num = parseNumber(answer);
  return accepted.some((key) => {
    const keyNum = parseNumber(key);
    if (num !== null && keyNum !== null) return within(num, keyNum, tolerance);
    return normalizeText(key) === text;
  });
}
