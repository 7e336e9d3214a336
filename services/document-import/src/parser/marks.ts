// Answers marked by formatting: the option dressed unlike its siblings, a fill-in word marked in the stem.
import type { LabeledDraft, QDraft } from './drafts.js';
import { draftSegs } from './options.js';
import type { Look, Seg } from './types.js';

export type StyleKind = 'red' | 'color' | 'highlight' | 'underline' | 'bold' | 'italic';

export type Feature = string;

/** A colour's family (`green` for 00B050, 9BBB59 and 00AA00 alike): teachers mark answers in shades of one colour. */
export function colourFamily(hex: string): string {
  const n = Number.parseInt(hex, 16);
  if (!Number.isFinite(n) || hex.length !== 6) return hex.toLowerCase();
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max - min < 0.15) return max < 0.35 ? 'dark' : 'gray';
  const d = max - min;
  const h = max === r ? (((g - b) / d) % 6) * 60 : max === g ? ((b - r) / d + 2) * 60 : ((r - g) / d + 4) * 60;
  const hue = (h + 360) % 360;
  const bands: [number, string][] = [
    [15, 'red'],
    [45, 'orange'],
    [70, 'yellow'],
    [170, 'green'],
    [200, 'cyan'],
    [260, 'blue'],
    [345, 'purple'],
  ];
  return bands.find(([end]) => hue < end)?.[1] ?? 'red';
}

function features(look: Look): Feature[] {
  const out: Feature[] = [];
  if (look.color) out.push(`color:${colourFamily(look.color)}`);
  if (look.highlight) out.push('highlight');
  if (look.underline) out.push('underline');
  if (look.bold) out.push('bold');
  if (look.italic) out.push('italic');
  return out;
}

const LABEL_RE = /^\s*(?:\*\s*)?\(?[A-Ga-g]\s*[.):]/;

interface OptionLook {
  /** features on the whole label and on most of the body: how the option is dressed */
  strong: Set<Feature>;
  /** features on any of its characters */
  weak: Set<Feature>;
}

const BLANK_RE = /^\s$/u;
const LETTER_RE = /^\p{L}$/u;

const asciiBlank = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const asciiLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** The non-blank characters of `text[from, to)` (code points), and those of them that are letters. ASCII is judged
 * without a regular expression: this runs over every option of the document, twice. */
function charCounts(text: string, from: number, to: number): { nonBlank: number; letters: number } {
  let nonBlank = 0;
  let letters = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (asciiBlank(c)) continue;
      nonBlank++;
      if (asciiLetter(c)) letters++;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    const ch = String.fromCodePoint(point);
    if (BLANK_RE.test(ch)) continue;
    nonBlank++;
    if (LETTER_RE.test(ch)) letters++;
  }
  return { nonBlank, letters };
}

/** Counts, per feature, the non-blank characters of the label's letter and of the body that carry it. */
class Tally {
  readonly label = new Map<Feature, number>();
  readonly body = new Map<Feature, number>();
  labelChars = 0;
  bodyChars = 0;

  /** `n` counted characters wearing `looks`; in the label only its letters count: "**B**." is a bold B */
  add(n: number, inLabel: boolean, looks: Feature[]): void {
    if (n === 0) return;
    const into = inLabel ? this.label : this.body;
    if (inLabel) this.labelChars += n;
    else this.bodyChars += n;
    for (const f of looks) into.set(f, (into.get(f) ?? 0) + n);
  }

  look(): OptionLook {
    const strong = new Set<Feature>();
    const weak = new Set<Feature>([...this.label.keys(), ...this.body.keys()]);
    for (const [f, n] of this.label) if (n === this.labelChars) strong.add(f);
    for (const [f, n] of this.body) if (n >= 0.6 * this.bodyChars) strong.add(f);
    return { strong, weak };
  }
}

// An option's look is asked for twice (the document's convention, then its question's answer), after the drafts are
// settled: it is read once.
const optionLooks = new WeakMap<LabeledDraft, OptionLook>();

function optionLook(d: LabeledDraft): OptionLook {
  let look = optionLooks.get(d);
  if (!look) optionLooks.set(d, (look = readOptionLook(d)));
  return look;
}

function readOptionLook(d: LabeledDraft): OptionLook {
  const segs = draftSegs(d);
  const labelEnd = LABEL_RE.exec(segs.map((s) => s.text).join(''))?.[0].length ?? 0;
  const tally = new Tally();
  if (d.labelLook) tally.add(1, true, features(d.labelLook));
  let at = 0;
  for (const s of segs) {
    const start = at;
    at += s.text.length;
    if (s.kind === 'media') continue;
    const looks = features(s);
    // the label is the characters that end by labelEnd (it never splits a character: it ends at an ASCII mark)
    const split = Math.min(Math.max(labelEnd - start, 0), s.text.length);
    tally.add(charCounts(s.text, 0, split).letters, true, looks);
    tally.add(charCounts(s.text, split, s.text.length).nonBlank, false, looks);
  }
  return tally.look();
}

const PRIORITY: StyleKind[] = ['red', 'color', 'highlight', 'underline', 'bold', 'italic'];

function kindOf(f: Feature, looks: Look[]): StyleKind {
  if (!f.startsWith('color:')) return f as StyleKind;
  const red = looks.some((l) => l.red && l.color !== null && `color:${colourFamily(l.color)}` === f);
  return red ? 'red' : 'color';
}

function signature(s: Set<Feature>): string {
  return [...s].sort().join('|');
}

// Strong marks: group the options by how they are dressed; the most common dress is the layout, and the options
// that add a feature to it are marked. A dress every option wears is layout, never an answer.
interface Found {
  hits: number[];
  /** the look that marks the first hit */
  feature: Feature;
  /** each hit's looks beyond the layout */
  extras?: Feature[][];
}

function strongMarks(looks: OptionLook[]): Found | null {
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

function strongFrom(looks: OptionLook[], base: Set<Feature>): Found | null {
  const hits: number[] = [];
  const extras: Feature[][] = [];
  looks.forEach((l, i) => {
    const extra = [...l.strong].filter((f) => !base.has(f)).sort(byPriority);
    if (extra.length === 0) return;
    hits.push(i);
    extras.push(extra);
  });
  return hits.length > 0 && hits.length < looks.length ? { hits, feature: extras[0]![0]!, extras } : null;
}

function byPriority(a: Feature, b: Feature): number {
  const rank = (f: Feature): number => (f.startsWith('color:') ? 1 : PRIORITY.indexOf(f as StyleKind));
  return rank(a) - rank(b);
}

// Weak marks (a few coloured characters): an option that has a feature no sibling has anywhere.
function weakMarks(looks: OptionLook[]): Found | null {
  const all = new Set(looks.flatMap((l) => [...l.weak]));
  for (const f of [...all].sort(byPriority)) {
    if (f === 'bold' || f === 'italic') continue;
    const hits = looks.flatMap((l, i) => (l.weak.has(f) ? [i] : []));
    if (hits.length > 0 && hits.length < looks.length) return { hits, feature: f };
  }
  return null;
}

export interface StyleMark {
  letters: string[];
  style: StyleKind;
  /** a few marked characters, not the option's dress */
  weak: boolean;
  /** the look that marked the answer (`color:green`, `bold`…), for learning the document's own answer look */
  feature: Feature;
  /** every look each marked option adds to the layout (its feature alone for a weak mark) */
  extras: Feature[][];
}

// Options marked by different looks (a red B and a green D): the document's own answer looks, learnt from its
// questions with one marked option (most used first), decide: the first that some hits wear and others do not.
function preferring(found: Found, preferred: Feature[]): Found {
  const extras = found.extras;
  if (!extras || found.hits.length < 2) return found;
  const split = preferred.find((f) => extras.some((e) => e.includes(f)) && !extras.every((e) => e.includes(f)));
  if (!split) return found;
  return { hits: found.hits.filter((_, i) => extras[i]!.includes(split)), feature: split };
}

/** The options dressed unlike their siblings, or null; `preferred`: the document's answer looks, most used first. */
export function fromOptionStyle(list: LabeledDraft[], preferred: Feature[] = []): StyleMark | null {
  if (list.length < 2) return null;
  const looks = list.map(optionLook);
  const strong = strongMarks(looks);
  const raw = strong ?? weakMarks(looks);
  if (!raw) return null;
  const found = preferring(raw, preferred);
  const segLooks = list.flatMap((d) => d.segs as Look[]);
  return {
    letters: found.hits.map((i) => list[i]!.label),
    style: kindOf(found.feature, segLooks),
    weak: strong === null,
    feature: found.feature,
    extras:
      found.extras && found.extras.length === found.hits.length ? found.extras : found.hits.map(() => [found.feature]),
  };
}

export interface LookConvention {
  looks: Feature[];
  share: number;
}

/**
 * The looks this document uses as its answer key, learnt from its choice questions that have no other key: a look is
 * a key only when it marks exactly one option (or a few) in a good part of them, never when it is the dress of
 * every option (layout). A paper without a key marks nothing consistently and gets no looks at all. `share`: the
 * part of those questions that wear the first look.
 */
export function documentAnswerLooks(lists: LabeledDraft[][]): LookConvention {
  const counts = new Map<Feature, number>();
  const choice = lists.filter((l) => l.length >= 2);
  let keyed = 0;
  for (const list of choice) {
    const mark = fromOptionStyle(list);
    if (!mark || mark.letters.length > Math.max(1, list.length - 2)) continue;
    const worn = mark.extras.reduce((common, e) => common.filter((f) => e.includes(f)));
    for (const f of worn) counts.set(f, (counts.get(f) ?? 0) + 1);
    keyed++;
  }
  const total = choice.length;
  // one question alone proves nothing of a convention unless the document has only that one
  // a look is the document's when it marks a fifth of its questions at least
  const least = Math.ceil(total * 0.2);
  const looks = [...counts]
    .filter(([, n]) => n >= least)
    .sort((a, b) => b[1] - a[1])
    .map(([f]) => f);
  const first = looks[0] === undefined ? 0 : counts.get(looks[0])!;
  // marked options must key a good part of the questions, else their looks are emphasis, not a key
  if (total === 0 || looks.length === 0 || keyed < 0.3 * total) return { looks: [], share: 0 };
  return { looks, share: first / total };
}

const BLANK_FEATURE = (f: Feature): boolean => f !== 'bold' && f !== 'italic';

function nonBlank(text: string): number {
  return text.replace(/\s/gu, '').length;
}

/** The colours, underline or highlight that cover under 30% of the stem's characters. */
function rareFeatures(segs: Seg[]): { rare: Set<Feature>; total: number } {
  const total = segs.reduce((n, s) => n + nonBlank(s.text), 0);
  const cover = new Map<Feature, number>();
  for (const s of segs) for (const f of features(s)) cover.set(f, (cover.get(f) ?? 0) + nonBlank(s.text));
  const rare = [...cover].filter(([f, n]) => BLANK_FEATURE(f) && n < 0.3 * total).map(([f]) => f);
  return { rare: new Set(rare), total };
}

/** A stem that may hold a fill-in answer: no options or statements, no points, no essay. */
function fillIn(q: QDraft): boolean {
  return q.options.length === 0 && q.subs.length === 0 && q.points === null && q.partHint !== 'ESSAY';
}

/** The words of a stem without options that wear a colour, underline or highlight the rest of the stem lacks. */
export function fromStemMark(q: QDraft, allowed: Feature[] = []): string | null {
  if (!fillIn(q)) return null;
  const segs = q.stem.flatMap((l) => l.segs).filter((s) => s.kind === 'text');
  const { rare: all, total } = rareFeatures(segs);
  // where the document keys its options by a look, only that look marks a fill-in answer
  const rare = allowed.length === 0 ? all : new Set([...all].filter((f) => allowed.includes(f)));
  const marked = segs
    .filter((s) => features(s).some((f) => rare.has(f)))
    .map((s) => s.text)
    .join('')
    .trim();
  return rare.size > 0 && marked.length > 0 && marked.length <= 60 && total >= 15 ? marked : null;
}
