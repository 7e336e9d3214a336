import type { KeyEntry } from './keys.js';
import type { LabeledDraft, QDraft } from './drafts.js';
import { ANSWER_RE, CHOOSE_RE, TF_SUFFIX_RE } from './patterns.js';
import type { Seg } from './types.js';

export type Evidence =
  'ANSWER_LINE' | 'ANSWER_KEY_TABLE' | 'TRUE_FALSE_SUFFIX' | 'TRUE_FALSE_TABLE' | 'DOCX_STYLE_HINT';
export type StyleKind = 'red' | 'underline' | 'highlight';

export interface Parsed {
  letters?: string[];
  tf?: Record<string, boolean>;
  text?: string;
}

export interface Resolved extends Parsed {
  evidence: Evidence | null;
  style: StyleKind | null;
  conflict: boolean;
}

const TF_PAIR_RE = /([a-f])\s*[).:-]?\s*(Đúng|Sai|Đ|S|True|False)(?=[\s,;.]|$)/giu;
const TRUE_WORDS = /^(đúng|đ|true)$/iu;

function truth(word: string): boolean {
  return TRUE_WORDS.test(word);
}

export function parseRaw(raw: string): Parsed {
  const t = raw.trim().replace(/\.$/, '');
  const pairs = [...t.matchAll(TF_PAIR_RE)];
  if (pairs.length >= 2) return { tf: Object.fromEntries(pairs.map((m) => [m[1]!.toLowerCase(), truth(m[2]!)])) };
  if (/^[ĐS]{2,6}$/iu.test(t)) return { tf: Object.fromEntries([...t].map((c, i) => ['abcdef'[i]!, truth(c)])) };
  if (/^[A-F](?:\s*(?:,|;|và)\s*[A-F])*$/u.test(t)) return { letters: t.match(/[A-F]/g)! };
  return { text: t };
}

function fromLines(q: QDraft): Parsed | null {
  for (const line of q.answerLines) {
    const m = CHOOSE_RE.exec(line) ?? ANSWER_RE.exec(line);
    if (m) return parseRaw(m[1]!);
  }
  return null;
}

function fromKeys(q: QDraft, keys: KeyEntry[], partsInKeys: boolean): Parsed | null {
  const k = keys.find((e) => e.number === q.number && (!partsInKeys || e.part === q.part));
  return k ? parseRaw(k.raw) : null;
}

function marked(d: LabeledDraft, kind: StyleKind): boolean {
  return d.segs.some((s: Seg) => s.kind === 'text' && s[kind] && s.text.trim() !== '');
}

const KINDS: StyleKind[] = ['red', 'highlight', 'underline'];

// A mark on every option is formatting (pronunciation letters, a coloured block), not an answer.
function fromOptionStyle(q: QDraft): { letters: string[]; style: StyleKind } | null {
  for (const kind of KINDS) {
    const hits = q.options.filter((o) => marked(o, kind)).map((o) => o.label);
    if (hits.length > 0 && hits.length < q.options.length) return { letters: hits, style: kind };
  }
  return null;
}

function fromSubs(q: QDraft): { tf: Record<string, boolean>; evidence: Evidence; style: StyleKind | null } | null {
  if (q.subs.length === 0) return null;
  if (q.tfTable && q.tfTable.size > 0)
    return { tf: Object.fromEntries(q.tfTable), evidence: 'TRUE_FALSE_TABLE', style: null };
  const suffix = q.subs.map((s) => TF_SUFFIX_RE.exec(s.segs.map((x) => x.text).join('')));
  if (suffix.every((m) => m)) {
    const tf = Object.fromEntries(q.subs.map((s, i) => [s.label, truth(suffix[i]![1]!)]));
    return { tf, evidence: 'TRUE_FALSE_SUFFIX', style: null };
  }
  for (const kind of KINDS) {
    if (!q.subs.some((s) => marked(s, kind))) continue;
    return {
      tf: Object.fromEntries(q.subs.map((s) => [s.label, marked(s, kind)])),
      evidence: 'DOCX_STYLE_HINT',
      style: kind,
    };
  }
  return null;
}

function sameLetters(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.join() === b.join();
}

function hasConflict(explicit: Parsed | null, style: { letters: string[] } | null): boolean {
  return !!(explicit?.letters && style && !sameLetters(explicit.letters, style.letters));
}

export function resolveAnswer(q: QDraft, keys: KeyEntry[], partsInKeys: boolean): Resolved {
  const line = fromLines(q);
  const explicit = line ?? fromKeys(q, keys, partsInKeys);
  const style = q.options.length > 0 ? fromOptionStyle(q) : null;
  const conflict = hasConflict(explicit, style);
  if (explicit) return { ...explicit, evidence: line ? 'ANSWER_LINE' : 'ANSWER_KEY_TABLE', style: null, conflict };
  const subs = fromSubs(q);
  if (subs) return { tf: subs.tf, evidence: subs.evidence, style: subs.style, conflict: false };
  if (style) return { letters: style.letters, evidence: 'DOCX_STYLE_HINT', style: style.style, conflict: false };
  return { evidence: null, style: null, conflict: false };
}
