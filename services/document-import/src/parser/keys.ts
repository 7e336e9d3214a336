import { cellText } from './lines.js';
import { type Table, pushAll } from './types.js';

export interface KeyEntry {
  part: string | null;
  number: number;
  raw: string;
  /** read from a list of `N. X` entries in the text rather than a table */
  list?: boolean;
  /** the whole key sentence, when it explains the answer (`1. The correct answer is B. Because …`) */
  text?: string;
}

const CELL_RE = /^\s*(?:Câu\s*)?0*(\d{1,3})\s*(?:[.:\-)]\s*)?([A-F](?:\s*,\s*[A-F])*|[ĐS]{2,6})\s*$/u;
const CELL_NUMERIC_RE = /^\s*(?:Câu\s*)?0*(\d{1,3})\s*[.:)]\s*(-?\d+(?:[.,]\d+)?)\s*$/u;
const INLINE_RE = /(?:^|[\s,;|])0*(\d{1,3})\s*(?:[.:\-)]\s*)?([A-F](?:\s*,\s*[A-F](?![\p{L}\d]))*)(?=[\s,;.|]|$)/gu;
const KEY_LINE_PREFIX_RE =
  /^\s*(?:(?:Bảng\s+)?Đáp\s*án|ĐA|Answer\s*keys?|(?:Correct\s+)?Answers?|Keys?|Antworten|Antwort|Lösungen|Lösung|Risposte|Risposta|Soluzioni|R[ée]ponses?|Respuestas?|Soluciones)\s*(?:[:.]\s*)?/iu;
const NUM_HEAD_RE = /^(?:Câu|Câu hỏi|STT|Questions?|Q|No\.?|Nr\.?|#|Frage|Domanda|Pregunta|Numéro)$/iu;
const ANS_HEAD_RE =
  /^(?:Chọn|Đáp án|ĐA|Đáp án đúng|Answers?|Keys?|Antwort|Lösung|Risposta|Soluzione|Respuesta|R[ée]ponse)$/iu;

function grid(t: Table): string[][] {
  return t.rows.map((r) => r.map(cellText));
}

function cellEntries(g: string[][], part: string | null, numeric: boolean): KeyEntry[] {
  const out: KeyEntry[] = [];
  for (const cell of g.flat()) {
    const m = CELL_RE.exec(cell) ?? (numeric ? CELL_NUMERIC_RE.exec(cell) : null);
    if (m) out.push({ part, number: Number(m[1]), raw: m[2]! });
  }
  return out;
}

function pairEntries(nums: string[], answers: string[], part: string | null): KeyEntry[] {
  const out: KeyEntry[] = [];
  nums.forEach((n, i) => {
    const raw = answers[i]?.trim();
    if (/^\d{1,3}$/.test(n.trim()) && raw) out.push({ part, number: Number(n), raw });
  });
  return out;
}

const LETTER_CELL_RE = /^(?:[A-F](?:\s*,\s*[A-F])*|[ĐS]{2,6})$/u;

/** A row of question numbers over a row of letters, without a `Câu` / `Đáp án` caption (at least three pairs). */
function unlabelledPair(row: string[], next: string[] | undefined): boolean {
  const nums = row.filter((c) => c !== '');
  const answers = (next ?? []).filter((c) => c !== '');
  if (nums.length < 3 || !nums.every((c) => /^\d{1,3}$/.test(c))) return false;
  return answers.length >= 3 && answers.every((c) => LETTER_CELL_RE.test(c));
}

function horizontal(g: string[][], part: string | null): KeyEntry[] {
  const out: KeyEntry[] = [];
  g.forEach((row, i) => {
    const next = g[i + 1];
    if (NUM_HEAD_RE.test(row[0] ?? '') && next && ANS_HEAD_RE.test(next[0] ?? '')) {
      pushAll(out, pairEntries(row.slice(1), next.slice(1), part));
    } else if (unlabelledPair(row, next)) pushAll(out, pairEntries(row, next!, part));
  });
  return out;
}

// Phần II keys as a grid: "Câu | a | b | c | d" with Đ/S (or Đúng/Sai) in the cells.
function statementGrid(g: string[][], part: string | null): KeyEntry[] {
  const head = (g[0] ?? []).map((h) => h.trim().toLowerCase().replace(/\)$/, ''));
  if (!NUM_HEAD_RE.test(g[0]?.[0] ?? '') || head.slice(1).join('') !== 'abcd'.slice(0, head.length - 1)) return [];
  const raws = g.slice(1).map((r) =>
    head
      .slice(1)
      .map((l, i) => `${l}) ${r[i + 1] ?? ''}`)
      .join(', '),
  );
  return pairEntries(
    g.slice(1).map((r) => r[0] ?? ''),
    raws,
    part,
  );
}

function vertical(g: string[][], part: string | null): KeyEntry[] {
  const head = g[0] ?? [];
  if (!NUM_HEAD_RE.test(head[0] ?? '') || !ANS_HEAD_RE.test(head[1] ?? '')) return [];
  return pairEntries(
    g.slice(1).map((r) => r[0] ?? ''),
    g.slice(1).map((r) => r.slice(1).join(' ')),
    part,
  );
}

/** Reads an answer-key table; returns [] when the table is not one. */
export function keyTableEntries(t: Table, part: string | null, strict: boolean): KeyEntry[] {
  const g = grid(t);
  const headed = [...horizontal(g, part), ...vertical(g, part), ...statementGrid(g, part)];
  if (headed.length > 0) return headed;
  const cells = cellEntries(g, part, !strict);
  const filled = g.flat().filter((c) => c !== '').length;
  // Outside a key section, every filled cell must look like "1.B" before the table counts as a key.
  if (cells.length >= 2 && (!strict || cells.length === filled)) return cells;
  return [];
}

function entries(text: string, re: RegExp, part: string | null): KeyEntry[] {
  return [...text.matchAll(re)].map((m) => ({ part, number: Number(m[1]), raw: m[2]!.toUpperCase(), list: true }));
}

export function inlineKeyEntries(text: string, part: string | null): KeyEntry[] {
  return entries(text, INLINE_RE, part);
}

const INLINE_LOWER_RE =
  /(?:^|[\s,;|])0*(\d{1,3})\s*(?:[.:\-)]\s*)?([a-f](?:\s*,\s*[a-f](?![\p{L}\d]))*)(?=[\s,;.|]|$)/gu;

const LEADING_DIGIT_RE = /^[\s,;.|]*\d/u;

/** The entries of a line that is nothing but them (and separators), else []. */
function pureList(body: string, re: RegExp, part: string | null, least: number): KeyEntry[] {
  const found = entries(body, re, part);
  if (found.length < least) return [];
  return body.replace(re, ' ').replace(/[\s,;.|]/g, '') === '' ? found : [];
}

/** A line of a key section that is only lower-case entries (`1. b ⇥ 2.b ⇥ 3. a`): its entries, else []. One entry
 * alone counts where it goes on from `after`, the key's last number (`21. d` wrapped onto a line of its own). */
export function lowerKeySectionEntries(text: string, part: string | null, after?: number): KeyEntry[] {
  const found = pureList(text, INLINE_LOWER_RE, part, 1);
  return found.length >= 2 || found[0]?.number === (after ?? -1) + 1 ? found : [];
}

/** Entries numbered one after another (`1.d 2.d 3.c`): a key's run, not a list of things that happen to be numbered. */
function consecutive(found: KeyEntry[]): boolean {
  return found.every((e, i) => i === 0 || e.number === found[i - 1]!.number + 1);
}

/** A line that is only a key list (`Đáp án: 01. B 02. C 03. A,C,D`, `1.A 2.B 3.C`): its entries, else []. Lower-case
 * letters (`Đáp án: 1.b 2.a`) count after a key word, in a list of five at least, or in three at least numbered one
 * after another. `after`: the last number of a key list on the line before; a line that goes on from it (`11.A`) is
 * the list wrapped, however short. */
export function keyLineEntries(text: string, part: string | null, after: number | null = null): KeyEntry[] {
  const prefixed = KEY_LINE_PREFIX_RE.exec(text);
  const body = prefixed ? text.slice(prefixed[0].length) : text;
  // every entry opens with its number: a line whose first mark is no digit is no key list (most lines)
  if (!LEADING_DIGIT_RE.test(body)) return [];
  const list = (least: number, leastLower: number): KeyEntry[] => {
    const upper = pureList(body, INLINE_RE, part, least);
    if (upper.length > 0) return upper;
    const lower = pureList(body, INLINE_LOWER_RE, part, Math.min(leastLower, 3));
    return lower.length >= leastLower || consecutive(lower) ? lower : [];
  };
  const wrapped = after === null ? [] : list(1, 1);
  if (wrapped[0]?.number === (after ?? -1) + 1) return wrapped;
  return prefixed ? list(2, 2) : list(3, 5);
}
