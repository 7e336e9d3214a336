import type { KeyEntry } from './keys.js';
import type { LabeledDraft, QDraft } from './drafts.js';
import { draftSegs } from './options.js';
import { TF_SUFFIX_RE } from './patterns.js';
import type { Look, Seg } from './types.js';

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
export type StyleKind = 'red' | 'color' | 'highlight' | 'underline' | 'bold' | 'italic';

export interface Parsed {
  letters?: string[];
  tf?: Record<string, boolean>;
  text?: string;
}

export interface Resolved extends Parsed {
  evidence: Evidence | null;
  source: AnswerSource | null;
  style: StyleKind | null;
  /** the other evidence that disagreed with the answer taken: "red option C" */
  conflict: string | null;
}

const SOURCE_EVIDENCE: Record<AnswerSource, Evidence> = {
  'key-line': 'ANSWER_LINE',
  'key-table': 'ANSWER_KEY_TABLE',
  'key-list': 'ANSWER_KEY_LIST',
  marker: 'ANSWER_MARKER',
  'tf-suffix': 'TRUE_FALSE_SUFFIX',
  'tf-table': 'TRUE_FALSE_TABLE',
  'format-distinct': 'DOCX_STYLE_HINT',
};

const TF_PAIR_RE = /([a-f])\s*[).:-]?\s*(Đúng|Sai|Đ|S|True|False|T|F)(?=[\s,;.]|$)/giu;
const TF_RUN_RE = /^(?:Đúng|Sai|Đ|S)(?:\s*[-–,;/\s]\s*(?:Đúng|Sai|Đ|S))+$/iu;
const TRUE_WORDS = /^(đúng|đ|true|t)$/iu;
const LETTERS_RE = /^[A-G](?:\s*(?:,|;|&|và|and|\s)\s*[A-G])*$/u;
const NUMBER_RE = /^-?\d+(?:[.,]\d+)?$/;

function truth(word: string): boolean {
  return TRUE_WORDS.test(word);
}

export function parseRaw(raw: string): Parsed {
  const t = raw.trim().replace(/\.$/, '');
  const pairs = [...t.matchAll(TF_PAIR_RE)];
  if (pairs.length >= 2) return { tf: Object.fromEntries(pairs.map((m) => [m[1]!.toLowerCase(), truth(m[2]!)])) };
  if (/^[ĐS]{2,6}$/iu.test(t)) return { tf: Object.fromEntries([...t].map((c, i) => ['abcdef'[i]!, truth(c)])) };
  if (TF_RUN_RE.test(t)) {
    const words = t.split(/\s*[-–,;/\s]\s*/u).filter(Boolean);
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
  const t = raw.trim().replace(/[.;]$/, '').trim();
  if (t === '') return null;
  const p = parseRaw(t);
  if (p.letters || p.tf || NUMBER_RE.test(t.replace(/\s/g, ''))) return t;
  if (choices) {
    const lead = /^([A-G])(?:\s*[.,;:)]|\s+(?:vì|because|do)\b)/u.exec(t);
    return lead ? lead[1]! : null;
  }
  return colon && t.length <= 120 ? t : null;
}

function fromLines(q: QDraft): Parsed | null {
  const raw = q.answerLines[0];
  return raw === undefined ? null : parseRaw(raw);
}

function fromKeys(q: QDraft, keys: KeyEntry[], partsInKeys: boolean): { parsed: Parsed; list: boolean } | null {
  const k = keys.find((e) => e.number === q.number && (!partsInKeys || e.part === q.part));
  return k ? { parsed: parseRaw(k.raw), list: k.list === true } : null;
}

/** A key line or key entry naming letters: lower-case a)…d) under such a question are options. */
export function explicitKind(q: QDraft, keys: KeyEntry[], partsInKeys: boolean): 'letters' | 'tf' | null {
  const p = fromLines(q) ?? fromKeys(q, keys, partsInKeys)?.parsed;
  return p?.letters ? 'letters' : p?.tf ? 'tf' : null;
}

function fromMarkers(list: LabeledDraft[]): string[] | null {
  const hits = list.filter((o) => o.marker).map((o) => o.label);
  return hits.length > 0 && hits.length < list.length ? hits : null;
}

// ---- the option formatted differently from its siblings ----

type Feature = string;

function features(look: Look): Feature[] {
  const out: Feature[] = [];
  if (look.color) out.push(`color:${look.color}`);
  if (look.highlight) out.push('highlight');
  if (look.underline) out.push('underline');
  if (look.bold) out.push('bold');
  if (look.italic) out.push('italic');
  return out;
}

const LABEL_RE = /^\s*\*?\s*\(?[A-Ga-g]\s*[.):]/;

interface OptionLook {
  /** features on the whole label and on most of the body: how the option is dressed */
  strong: Set<Feature>;
  /** features on any of its characters */
  weak: Set<Feature>;
}

/** Counts, per feature, the non-blank characters of the label's letter and of the body that carry it. */
class Tally {
  readonly label = new Map<Feature, number>();
  readonly body = new Map<Feature, number>();
  labelChars = 0;
  bodyChars = 0;

  add(ch: string, inLabel: boolean, look: Look): void {
    // in the label only its letter counts: "**B**." is a bold B
    if (/\s/u.test(ch) || (inLabel && !/\p{L}/u.test(ch))) return;
    const into = inLabel ? this.label : this.body;
    if (inLabel) this.labelChars++;
    else this.bodyChars++;
    for (const f of features(look)) into.set(f, (into.get(f) ?? 0) + 1);
  }

  look(): OptionLook {
    const strong = new Set<Feature>();
    const weak = new Set<Feature>([...this.label.keys(), ...this.body.keys()]);
    for (const [f, n] of this.label) if (n === this.labelChars) strong.add(f);
    for (const [f, n] of this.body) if (n >= 0.6 * this.bodyChars) strong.add(f);
    return { strong, weak };
  }
}

function optionLook(d: LabeledDraft): OptionLook {
  const segs = draftSegs(d);
  const labelEnd = LABEL_RE.exec(segs.map((s) => s.text).join(''))?.[0].length ?? 0;
  const tally = new Tally();
  let at = 0;
  for (const s of segs) {
    if (s.kind === 'media') at += s.text.length;
    else for (const ch of s.text) tally.add(ch, (at += ch.length) <= labelEnd, s);
  }
  return tally.look();
}

const PRIORITY: StyleKind[] = ['red', 'color', 'highlight', 'underline', 'bold', 'italic'];

function kindOf(f: Feature, looks: Look[]): StyleKind {
  if (!f.startsWith('color:')) return f as StyleKind;
  const red = looks.some((l) => l.red && `color:${l.color}` === f);
  return red ? 'red' : 'color';
}

function signature(s: Set<Feature>): string {
  return [...s].sort().join('|');
}

// Strong marks: group the options by how they are dressed; the most common dress is the layout, and the options
// that add a feature to it are marked. A dress every option wears is layout, never an answer.
function strongMarks(looks: OptionLook[]): { hits: number[]; feature: Feature } | null {
  const groups = new Map<string, number[]>();
  looks.forEach((l, i) => groups.set(signature(l.strong), [...(groups.get(signature(l.strong)) ?? []), i]));
  if (groups.size < 2) return null;
  const ranked = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].length - b[0].length);
  const base = new Set(ranked[0]![0].split('|').filter(Boolean));
  if (ranked[1]![1].length === ranked[0]![1].length && ranked.length === 2) {
    // two dresses worn by as many options each: the marked ones are those with more features
    const other = new Set(ranked[1]![0].split('|').filter(Boolean));
    if ([...other].length < [...base].length) return strongFrom(looks, other);
  }
  return strongFrom(looks, base);
}

function strongFrom(looks: OptionLook[], base: Set<Feature>): { hits: number[]; feature: Feature } | null {
  const hits: number[] = [];
  let feature: Feature | null = null;
  looks.forEach((l, i) => {
    const extra = [...l.strong].filter((f) => !base.has(f));
    if (extra.length === 0) return;
    hits.push(i);
    feature ??= extra.sort(byPriority)[0]!;
  });
  return hits.length > 0 && hits.length < looks.length && feature ? { hits, feature } : null;
}

function byPriority(a: Feature, b: Feature): number {
  const rank = (f: Feature): number => (f.startsWith('color:') ? 1 : PRIORITY.indexOf(f as StyleKind));
  return rank(a) - rank(b);
}

// Weak marks (a few coloured characters): an option that has a feature no sibling has anywhere.
function weakMarks(looks: OptionLook[]): { hits: number[]; feature: Feature } | null {
  const all = new Set(looks.flatMap((l) => [...l.weak]));
  for (const f of [...all].sort(byPriority)) {
    if (f === 'bold' || f === 'italic') continue;
    const hits = looks.flatMap((l, i) => (l.weak.has(f) ? [i] : []));
    if (hits.length > 0 && hits.length < looks.length) return { hits, feature: f };
  }
  return null;
}

export function fromOptionStyle(list: LabeledDraft[]): { letters: string[]; style: StyleKind } | null {
  if (list.length < 2) return null;
  const looks = list.map(optionLook);
  const found = strongMarks(looks) ?? weakMarks(looks);
  if (!found) return null;
  const segLooks = list.flatMap((d) => d.segs as Look[]);
  return { letters: found.hits.map((i) => list[i]!.label), style: kindOf(found.feature, segLooks) };
}

// ---- a fill-in-the-blank answer marked in the stem ----

const BLANK_FEATURE = (f: Feature): boolean => f !== 'bold' && f !== 'italic';

/** The words of a stem without options that wear a colour, underline or highlight the rest of the stem lacks. */
export function fromStemMark(q: QDraft): string | null {
  if (q.options.length > 0 || q.subs.length > 0 || q.points !== null || q.partHint === 'ESSAY') return null;
  const segs = q.stem.flatMap((l) => l.segs).filter((s) => s.kind === 'text');
  const total = segs.reduce((n, s) => n + s.text.replace(/\s/gu, '').length, 0);
  const cover = new Map<Feature, number>();
  for (const s of segs)
    for (const f of features(s)) cover.set(f, (cover.get(f) ?? 0) + s.text.replace(/\s/gu, '').length);
  const rare = new Set([...cover].filter(([f, n]) => BLANK_FEATURE(f) && n < 0.3 * total).map(([f]) => f));
  if (rare.size === 0) return null;
  const marked = segs
    .filter((s) => features(s).some((f) => rare.has(f)))
    .map((s) => s.text)
    .join('')
    .trim();
  return marked.length > 0 && marked.length <= 60 && total >= 15 ? marked : null;
}

// ---- true/false statements ----

function marked(d: LabeledDraft, kind: 'red' | 'underline' | 'highlight'): boolean {
  return draftSegs(d).some((s: Seg) => s.kind === 'text' && s[kind] && s.text.trim() !== '');
}

const SUB_KINDS = ['red', 'highlight', 'underline'] as const;

function fromSubs(q: QDraft): { tf: Record<string, boolean>; source: AnswerSource; style: StyleKind | null } | null {
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
    if (!q.subs.some((s) => marked(s, kind))) continue;
    return {
      tf: Object.fromEntries(q.subs.map((s) => [s.label, marked(s, kind)])),
      source: 'format-distinct',
      style: kind,
    };
  }
  return null;
}

function describe(source: AnswerSource, p: Parsed, style?: StyleKind | null): string {
  const what = p.letters ? p.letters.join(',') : p.tf ? JSON.stringify(p.tf) : (p.text ?? '');
  return source === 'format-distinct' ? `${style ?? 'formatted'} option ${what}` : `${source} ${what}`;
}

function sameAnswer(a: Parsed, b: Parsed): boolean {
  if (a.letters && b.letters) return a.letters.join() === b.letters.join();
  return true;
}

/** The answer of one question and where it came from; explicit keys win, other evidence that disagrees is named. */
export function resolveAnswer(q: QDraft, keys: KeyEntry[], partsInKeys: boolean): Resolved {
  const candidates: { source: AnswerSource; parsed: Parsed; style: StyleKind | null }[] = [];
  const line = fromLines(q);
  if (line) candidates.push({ source: 'key-line', parsed: line, style: null });
  const key = fromKeys(q, keys, partsInKeys);
  if (key) candidates.push({ source: key.list ? 'key-list' : 'key-table', parsed: key.parsed, style: null });
  const markers = fromMarkers(q.options);
  if (markers) candidates.push({ source: 'marker', parsed: { letters: markers }, style: null });
  const subs = fromSubs(q);
  if (subs) candidates.push({ source: subs.source, parsed: { tf: subs.tf }, style: subs.style });
  const style = fromOptionStyle(q.options);
  if (style) candidates.push({ source: 'format-distinct', parsed: { letters: style.letters }, style: style.style });
  const blank = candidates.length === 0 ? fromStemMark(q) : null;
  if (blank) candidates.push({ source: 'format-distinct', parsed: { text: blank }, style: null });
  const first = candidates[0];
  if (!first) return { evidence: null, source: null, style: null, conflict: null };
  const against = candidates.find((c) => !sameAnswer(first.parsed, c.parsed));
  return {
    ...first.parsed,
    evidence: SOURCE_EVIDENCE[first.source],
    source: first.source,
    style: first.style,
    conflict: against
      ? `${describe(first.source, first.parsed)} disagrees with ${describe(against.source, against.parsed, against.style)}`
      : null,
  };
}
