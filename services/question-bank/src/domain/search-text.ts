// Pure: the folding behind `q`. Vietnamese letters lose their diacritics (đ becomes d), case is
// dropped, and text splits into words of letters and digits, so `phuong trinh` finds
// `Phương trình` and a query is only ever a list of plain words (never a pattern).

const MAX_TOKEN = 64;
const MAX_TOKENS = 4000;
const MAX_QUERY_TOKENS = 12;

export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase();
}

function words(text: string): string[] {
  return foldText(text)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, MAX_TOKEN));
}

/** The distinct folded words of every part, for the indexed `searchTokens` field. */
export function searchTokens(parts: ReadonlyArray<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const part of parts) {
    if (!part) continue;
    for (const w of words(part)) {
      if (out.size >= MAX_TOKENS) return [...out];
      out.add(w);
    }
  }
  return [...out];
}

/** The words of a `q`: the last one may be a prefix (typing), the others must match whole words. */
export function queryTokens(q: string): { whole: string[]; prefix: string | null } {
  const all = [...new Set(words(q))].slice(0, MAX_QUERY_TOKENS);
  if (all.length === 0) return { whole: [], prefix: null };
  return { whole: all.slice(0, -1), prefix: all[all.length - 1] ?? null };
}
