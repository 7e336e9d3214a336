import type { KeyEntry } from './keys.js';
import type { LabeledDraft, QDraft } from './drafts.js';
import { documentAnswerLooks, fromStemMark, type Feature, type StyleKind } from './marks.js';
import { bodyText, draftSegs, markOwnLetter, ownLetter } from './options.js';
import { TF_SUFFIX_RE } from './patterns.js';
import type { Seg } from './types.js';

export type Evidence =
  | 'ANSWER_LINE'
  | 'ANSWER_KEY_TABLE'
  | 'ANSWER_KEY_LIST'
  | 'ANSWER_MARKER'
  | 'TRUE_FALSE_SUFFIX'
  | 'TRUE_FALSE_TABLE'
  | 'DOCX_STYLE_HINT';
/** Where the answer came from, in words a teacher reviewing the import reads. */
export type AnswerSource =
  'key-line' | 'key-table' | 'key-list' | 'marker' | 'tf-suffix' | 'tf-table' | 'format-distinct';

export interface Parsed {
  letters?: string[];
  tf?: Record<string, boolean>;
  text?: string;
}

export interface Resolved extends Parsed {
  evidence: Evidence | null;
  /** how far the evidence can be trusted, 0–1: the source, how consistently the document keeps its convention,
   * sources that agree or disagree */
  confidence: number;
  source: AnswerSource | null;
  style: StyleKind | null;
  /** the other evidence that disagreed with the answer taken: "red option C" */
  conflict: string | null;
}

const TF_PAIR_RE = /(?<![\p{L}\d])([a-f])\s*(?:[).:-]\s*)?(Đúng|Sai|Đ|S|True|False|T|F)(?=[\s,;.]|$)/giu;
// Separators are a mark with blanks around it or blanks alone: one way to read a run of blanks.
const TF_SEP = /(?:\s*[-–,;/]\s*|\s+)/u.source;
const TF_RUN_RE = new RegExp(`^(?:Đúng|Sai|Đ|S)(?:${TF_SEP}(?:Đúng|Sai|Đ|S))+$`, 'iu');
const TF_WORD_RE = /Đúng|Sai|Đ|S/giu;
const TRUE_WORDS = /^(đúng|đ|true|t)$/iu;
const LETTERS_RE = /^[A-G](?:(?:\s*(?:[,;&]|và|and)\s*|\s+)[A-G])*$/u;
const NUMBER_RE = /^-?\d+(?:[.,]\d+)?$/;

function truth(word: string): boolean {
  return TRUE_WORDS.test(word);
}

// A key is a few characters; a longer value is text, and the patterns below never see a hostile long line.
const MAX_KEY_CHARS = 200;

export function parseRaw(raw: string): Parsed {
  const t = raw.trim().replace(/\.$/, '');
  if (t.length > MAX_KEY_CHARS) return { text: t };
  const pairs = [...t.matchAll(TF_PAIR_RE)];
  if (pairs.length >= 2) return { tf: Object.fromEntries(pairs.map((m) => [m[1]!.toLowerCase(), truth(m[2]!)])) };
  if (/^[ĐS]{2,6}$/iu.test(t)) return { tf: Object.fromEntries([...t].map((c, i) => ['abcdef'[i]!, truth(c)])) };
  if (TF_RUN_RE.test(t)) {
    const words = t.match(TF_WORD_RE)!;
    return { tf: Object.fromEntries(words.map((w, i) => ['abcdef'[i]!, truth(w)])) };
  }
  if (LETTERS_RE.test(t)) return { letters: t.match(/[A-G]/g)! };
  if (/^[a-g]$/u.test(t)) return { letters: [t.toUpperCase()] };
  return { text: t };
}

/**
 * The answer a key line states, or null when the line only looks like one. Without a colon (`Chọn C`,
 * `→ Đáp án B`) only letters, truth values or a number count; with one (`Đáp án: x = 2`), a short text too.
 * For a question with options, `Đáp án: B vì …` is B.
 */
export function answerValue(raw: string, choices: boolean, colon: boolean): string | null {
  const t = raw
    .replace(/\[\[media:\d+\]\]/g, ' ')
    .trim()
    .replace(/[.;]$/, '')
    .replace(/^(?:là|is|:)\s*/iu, '')
    .replace(/^(?:option|phương\s*án|PA)\s+(?=[A-Ga-g]\b)/iu, '')
    .replace(/^\(([A-Ga-g])\)$/u, '$1')
    .trim();
  if (t === '') return null;
  const p = parseRaw(t);
  if (p.letters || p.tf || NUMBER_RE.test(t.replace(/\s/g, ''))) return t;
  const lead = choices ? /^([A-G])(?:\s*[.,;:)]|\s+(?:vì|because|do)\b)/u.exec(t) : null;
  if (lead) return lead[1]!;
  // a text after a colon: a short answer, or an option quoted by its text (matched to the options later)
  return colon && t.length <= 120 ? t : null;
}

const TRUTH_WORD_RE = /^(?:(Đúng|True|Richtig|Vero|Vrai|Verdadero)|Sai|False|Falsch|Falso|Faux)$/iu;

/** A single truth value keys a question that is one statement: `… → Sai` is `{ a: false }`. */
function asStatement(q: QDraft, p: Parsed): Parsed {
  if (p.text === undefined || q.options.length > 0 || q.subs.length > 1) return p;
  const m = TRUTH_WORD_RE.exec(p.text.trim());
  return m ? { tf: { a: m[1] !== undefined } } : p;
}

/** The first of the question's key lines that gives an answer (a quoted text must be one of its options'). */
export function fromLines(q: QDraft): Parsed | null {
  for (const raw of q.answerLines) {
    const p = byOptionText(q, asStatement(q, parseRaw(raw)));
    if (p) return p;
  }
  return null;
}

/** The key entry of a question: by number, and by part when the keys name parts (the first entry wins). */
export type KeyLookup = (q: QDraft) => KeyEntry | undefined;

/** One index for the whole key, so a long document pays once, not once per question. */
function unique(numbers: number[]): boolean {
  return new Set(numbers).size === numbers.length;
}

/** Keys by part and number. A key that sits in one part (a list after the last section) keys the questions of every
 * part by number alone when no number is used twice, neither by the questions nor by the key. */
export function keyLookup(keys: KeyEntry[], questions: QDraft[] = []): KeyLookup {
  const parts = new Set(keys.map((k) => k.part));
  const byNumber = parts.size === 1 && unique(keys.map((k) => k.number)) && unique(questions.map((q) => q.number));
  const partsInKeys = !byNumber && keys.some((k) => k.part !== null);
  const id = (part: string | null, n: number): string => (partsInKeys ? `${part} ${n}` : `${n}`);
  const first = new Map<string, KeyEntry>();
  for (const e of keys) if (!first.has(id(e.part, e.number))) first.set(id(e.part, e.number), e);
  return (q) => first.get(id(q.part, q.number));
}

export function fromKeys(q: QDraft, keys: KeyLookup): { parsed: Parsed; list: boolean } | null {
  const k = keys(q);
  return k ? { parsed: parseRaw(k.raw), list: k.list === true } : null;
}

/** The question has a key of its own: a key line, a key entry, or a marker on an option. */
export function explicitlyKeyed(q: QDraft, keys: KeyLookup): boolean {
  return fromLines(q) !== null || keys(q) !== undefined || q.options.some((o) => o.marker);
}

/**
 * The option's own letter typed after its text (`b. 12  B`) is a key where the document keeps that convention: in a
 * good part of its choice questions exactly one option ends with its own letter. Those letters leave the option text
 * and mark the option.
 */
export function ownLetterKeys(questions: QDraft[]): void {
  const choice = questions.filter((q) => q.options.length >= 2);
  const single = choice.filter((q) => q.options.filter(ownLetter).length === 1);
  if (single.length === 0 || single.length < 0.3 * choice.length) return;
  for (const q of single) {
    const d = q.options.find(ownLetter)!;
    markOwnLetter(d);
    (q.removedKeys ??= []).push(`${d.label} typed after option ${d.label}`);
  }
}

/** What the document uses as its key, learnt from the questions without a key of their own. */
export function documentConvention(questions: QDraft[], keys: KeyLookup): Convention {
  const unkeyed = questions.filter((q) => !explicitlyKeyed(q, keys));
  const { looks, share } = documentAnswerLooks(unkeyed.map((q) => q.options));
  const statements = unkeyed.filter((q) => q.subs.length >= 2 && !q.tfTable);
  const markedStatements = statements.filter((q) => SUB_KINDS.some((k) => q.subs.some((s) => marked(s, k)))).length;
  const open = unkeyed.filter((q) => q.options.length === 0 && q.subs.length === 0);
  const stemMarked = open.filter((q) => fromStemMark(q) !== null).length;
  return {
    looks,
    share,
    stemMarks: looks.length > 0 || (stemMarked > 0 && stemMarked >= 0.5 * open.length),
    subMarks: markedStatements > 0 && markedStatements >= 0.5 * statements.length,
  };
}

/** A key line or key entry naming letters: lower-case a)…d) under such a question are options. */
export function explicitKind(q: QDraft, keys: KeyLookup): 'letters' | 'tf' | null {
  const p = fromLines(q) ?? fromKeys(q, keys)?.parsed;
  return p?.letters ? 'letters' : p?.tf ? 'tf' : null;
}

// ---- true/false statements ----

export function marked(d: LabeledDraft, kind: 'red' | 'underline' | 'highlight'): boolean {
  return draftSegs(d).some((s: Seg) => s.kind === 'text' && s[kind] && s.text.trim() !== '');
}

export const SUB_KINDS = ['red', 'highlight', 'underline'] as const;

/** The statements' truth values: a true/false table, `(Đúng)`/`(Sai)` after every statement, or the look the document
 * marks true statements by. */
export function fromSubs(
  q: QDraft,
  conv: Convention,
): { tf: Record<string, boolean>; source: AnswerSource; style: StyleKind | null } | null {
  if (q.subs.length === 0) return null;
  if (q.tfTable && q.tfTable.size > 0) return { tf: Object.fromEntries(q.tfTable), source: 'tf-table', style: null };
  const suffix = q.subs.map((s) =>
    TF_SUFFIX_RE.exec(
      draftSegs(s)
        .map((x) => x.text)
        .join(''),
    ),
  );
  if (suffix.every((m) => m)) {
    const tf = Object.fromEntries(q.subs.map((s, i) => [s.label, truth(suffix[i]![1]!)]));
    return { tf, source: 'tf-suffix', style: null };
  }
  for (const kind of SUB_KINDS) {
    if (!conv.subMarks || !q.subs.some((s) => marked(s, kind))) continue;
    return {
      tf: Object.fromEntries(q.subs.map((s) => [s.label, marked(s, kind)])),
      source: 'format-distinct',
      style: kind,
    };
  }
  return null;
}

const TRAILING = /[\s.;,:!?]/u;

// By hand: /[\s.;,:!?]+$/ restarts at every blank of a long run that does not end the text (quadratic).
function trimTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

function normalized(text: string): string {
  return trimTrailing(text.toLowerCase()).replace(/\s+/gu, ' ').trim();
}

/** A key that quotes an option's text (`The correct answer is: Hà Nội`) names that option; a text that is no
 * option's is not the key of a question with options. */
export function byOptionText(q: QDraft, p: Parsed): Parsed | null {
  if (p.text === undefined || q.options.length === 0) return p;
  // options numbered by Word (1), 2), …) are lettered by order: a key `2` names the second
  const n = /^\d{1,2}$/.test(p.text.trim()) ? Number(p.text) : 0;
  if (q.lettersByOrder === 'list' && n >= 1 && n <= q.options.length) return { letters: [q.options[n - 1]!.label] };
  const want = normalized(p.text);
  const hits = q.options.filter((o) => normalized(bodyText(o)) === want);
  return hits.length === 1 ? { letters: [hits[0]!.label] } : null;
}

/** What the document uses as its key convention, learnt from all its questions (marks.ts `answerConvention`). */
export interface Convention {
  /** the looks that mark answers in this document, most used first; empty: formatting is no key here */
  looks: Feature[];
  /** the share of its choice questions without another key that wear the first look on exactly one option */
  share: number;
  /** formatting in a stem without options may be a fill-in answer (the document marks answers by looks) */
  stemMarks: boolean;
  /** true/false statements are marked true by a look (most statement groups wear one) */
  subMarks: boolean;
}

export const NO_CONVENTION: Convention = { looks: [], share: 0, stemMarks: false, subMarks: false };
