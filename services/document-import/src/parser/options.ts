import type { LabeledDraft, Marker, QDraft, UnletteredKind } from './drafts.js';
import { segText, sliceSegs, type Line } from './lines.js';
import {
  GLUED_OPTION_A_RE,
  BOX_OPTION_RE,
  CHECKED_BOXES,
  MARK_PREFIX_RE,
  MARK_SUFFIX_RE,
  OPTION_ANY_RE,
  OPTION_START_RE,
  SUB_RE,
  TF_SUFFIX_RE,
} from './patterns.js';
import { plainSeg, type Seg } from './types.js';

const LETTERS = 'ABCDEFG';

export function nextLabel(list: LabeledDraft[], first: string): string {
  return list.length === 0 ? first : String.fromCharCode(list[list.length - 1]!.label.charCodeAt(0) + 1);
}

function markerOf(text: string): Marker | undefined {
  if (MARK_PREFIX_RE.test(text)) return 'star';
  return MARK_SUFFIX_RE.test(text) ? 'check' : undefined;
}

export function push(list: LabeledDraft[], label: string, segs: Seg[], marker = markerOf(segText(segs))): void {
  list.push({ label, segs, more: [], gap: 0, ...(marker ? { marker } : {}) });
}

/** `*A. x` marks option A as the answer (the star before the label). */
function starred(line: Line): { line: Line; star: boolean } {
  const m = /^\s*\*\s*(?=\(?[A-Ga-g]\s*[.)])/.exec(line.text);
  if (!m) return { line, star: false };
  const at = m[0].length;
  return { line: { ...line, text: line.text.slice(at), segs: sliceSegs(line.segs, at, line.text.length) }, star: true };
}

// The next letter; once options have begun, also a letter out of order that is not taken yet (A, C, B, D).
function acceptsLabel(q: QDraft, label: string): boolean {
  if (label === nextLabel(q.options, 'A')) return true;
  return q.options.length > 0 && label !== 'A' && !q.options.some((o) => o.label === label);
}

/** Splits "A. x\tB. y" (labels in sequence only) into options; a stem's stray "B." never starts one. */
export function takeOptions(q: QDraft, input: Line): boolean {
  const { line, star } = starred(input);
  const start = OPTION_START_RE.exec(line.text);
  const first = start?.[1];
  if (!start || !first || !acceptsLabel(q, first)) return false;
  const cuts: { label: string; at: number }[] = [{ label: first, at: start.index }];
  let expected = String.fromCharCode(first.charCodeAt(0) + 1);
  for (const m of line.text.matchAll(OPTION_ANY_RE)) {
    if (m[2] !== expected || m.index <= start.index) continue;
    cuts.push({ label: m[2], at: m.index + m[1]!.length });
    expected = String.fromCharCode(expected.charCodeAt(0) + 1);
  }
  cuts.forEach((c, i) => {
    const segs = sliceSegs(line.segs, c.at, cuts[i + 1]?.at ?? line.text.length);
    push(q.options, c.label, segs, star && i === 0 ? 'star' : undefined);
  });
  q.mode = 'options';
  return true;
}

/** "… là: A. x" then "B. y" on the next line: option A was typed at the end of the stem paragraph. */
export function takeTrailingA(q: QDraft, line: Line): boolean {
  if (q.options.length > 0 || OPTION_START_RE.exec(line.text)?.[1] !== 'B') return false;
  const last = q.stem.at(-1);
  const at = last ? [...last.text.matchAll(OPTION_ANY_RE)].find((m) => m[2] === 'A') : undefined;
  if (!last || !at || at.index === 0) return false;
  const cut = at.index + at[1]!.length;
  q.stem[q.stem.length - 1] = { ...last, text: last.text.slice(0, cut), segs: sliceSegs(last.segs, 0, cut) };
  push(q.options, 'A', sliceSegs(last.segs, cut, last.text.length));
  return takeOptions(q, line);
}

/** "xyzA. 3": characters glued before the first option's letter are dropped. */
export function takeGluedA(q: QDraft, line: Line): boolean {
  const m = q.options.length === 0 ? GLUED_OPTION_A_RE.exec(line.text) : null;
  if (!m) return false;
  const at = m[0].length - 3;
  return takeOptions(q, { ...line, text: line.text.slice(at), segs: sliceSegs(line.segs, at, line.text.length) });
}

// Word's counter knows only the numbered paragraphs: after "a. x  b. y" typed on one line, its next item shows "b."
// again. A Word-numbered letter already taken is the next one.
export function recounted(q: QDraft, line: Line, label: string): boolean {
  return line.auto !== undefined && q.subs.some((s) => s.label === label);
}

const SUB_ANY_RE = /(^|\s)\*?\(?([a-gA-G])\s*[.)](?![A-Za-z]\.)/g;

/** Lower-case labels (statements or options, decided later), several on one line too: "a. x\tb. y". */
export function takeSub(q: QDraft, input: Line): boolean {
  const { line, star } = starred(input);
  const m = SUB_RE.exec(line.text);
  const next = nextLabel(q.subs, 'a');
  if (q.options.length > 0 || !m || (m[1] !== next && !recounted(q, line, m[1]!))) return false;
  const cuts: { label: string; at: number }[] = [{ label: next, at: m.index }];
  let expected = String.fromCharCode(next.charCodeAt(0) + 1);
  for (const c of line.text.matchAll(SUB_ANY_RE)) {
    if (c.index <= m.index || c[2]!.toLowerCase() !== expected) continue;
    cuts.push({ label: expected, at: c.index + c[1]!.length });
    expected = String.fromCharCode(expected.charCodeAt(0) + 1);
  }
  cuts.forEach((c, i) => {
    const segs = sliceSegs(line.segs, c.at, cuts[i + 1]?.at ?? line.text.length);
    push(q.subs, c.label, segs, star && i === 0 ? 'star' : undefined);
    if (/^\s*\(?[a-gA-G]\s*\./.test(segText(segs))) q.subs.at(-1)!.dot = true;
  });
  q.mode = 'subs';
  return true;
}

/** `☐ text` / `☑ text`: an option without a letter behind a ballot box; a ticked box marks it. */
export function takeBoxOption(q: QDraft, line: Line): boolean {
  const m = BOX_OPTION_RE.exec(line.text);
  if (!m || q.subs.length > 0) return false;
  const label = LETTERS[q.options.length];
  if (!label || (q.options.length > 0 && q.lettersByOrder !== 'box')) return false;
  push(
    q.options,
    label,
    sliceSegs(line.segs, m[0].length, line.text.length),
    CHECKED_BOXES.includes(m[1]!) ? 'check' : undefined,
  );
  q.lettersByOrder = 'box';
  q.mode = 'options';
  return true;
}

/** An option without a letter (a bulleted list item, a NukeViet line): it takes the next letter. */
export function takeUnlettered(q: QDraft, line: Line, kind: UnletteredKind): boolean {
  const label = LETTERS[q.options.length];
  if (!label || (q.options.length > 0 && q.lettersByOrder !== kind)) return false;
  push(q.options, label, line.segs);
  q.lettersByOrder = kind;
  q.mode = 'options';
  return true;
}

/** A Word-numbered item as an option lettered by order: its number is dropped from the text, its look kept (a
 * teacher may colour the number of the right option). */
export function takeListItem(q: QDraft, line: Line): boolean {
  const at = line.auto!.label.length + 1;
  const body = {
    ...line,
    auto: undefined,
    text: line.text.slice(at),
    segs: sliceSegs(line.segs, at, line.text.length),
  };
  if (!takeUnlettered(q, body, 'list')) return false;
  const label = line.segs[0];
  if (label && label.kind === 'text') q.options.at(-1)!.labelLook = label;
  return true;
}

export function appendTo(list: LabeledDraft[], line: Line): void {
  list[list.length - 1]!.more.push(line);
}

/** The blank paragraph that came before the next continuation line of the last option. */
export function markGap(list: LabeledDraft[]): void {
  const last = list.at(-1);
  if (last) last.gap = last.more.length;
}

/** The option's segments, its continuation lines included. */
export function draftSegs(d: LabeledDraft): Seg[] {
  if (d.more.length === 0) return d.segs;
  const out = [...d.segs];
  for (const l of d.more) out.push(plainSeg('\n'), ...l.segs);
  return out;
}

const OWN_LETTER_RE = /\s([A-G])\s*$/u;

/** `b. 12  B`: the option's own letter typed after its text, or null. */
export function ownLetter(d: LabeledDraft): boolean {
  return OWN_LETTER_RE.exec(bodyText(d))?.[1] === d.label.toUpperCase();
}

/** Takes the typed letter out of the option's text (it is the key, not what students read) and marks the option. */
export function markOwnLetter(d: LabeledDraft): void {
  const segs = d.more.length > 0 ? d.more.at(-1)!.segs : d.segs;
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i]!;
    if (s.kind !== 'text' || s.text.trim() === '') continue;
    segs[i] = { ...s, text: s.text.replace(OWN_LETTER_RE, '') };
    break;
  }
  d.marker = 'letter';
}

/** Text after the label and the answer markers: "A. 12" → "12", "*HCOOH." → "HCOOH.", "x ✅" → "x". */
export function bodyText(d: LabeledDraft): string {
  return segText(draftSegs(d))
    .replace(/^\s*(?:\*\s*)?\(?[A-Ga-g]\s*[.):]\s*/, '')
    .replace(MARK_PREFIX_RE, '')
    .replace(MARK_SUFFIX_RE, '')
    .trim();
}

/** "Tính x. A. 1 B. 2 C. 3 D. 4" on one line: at least A, B, C in sequence after the stem text. */
export function inlineOptionsAt(line: Line): number {
  let expected = 'A';
  let first = -1;
  for (const m of line.text.matchAll(OPTION_ANY_RE)) {
    if (m[2] !== expected) continue;
    if (expected === 'A') first = m.index + m[1]!.length;
    expected = String.fromCharCode(expected.charCodeAt(0) + 1);
  }
  return first > 0 && expected >= 'D' ? first : -1;
}

export function splitInline(q: QDraft, line: Line): boolean {
  const at = q.options.length === 0 ? inlineOptionsAt(line) : -1;
  if (at < 0) return false;
  q.stem.push({ ...line, segs: sliceSegs(line.segs, 0, at), text: line.text.slice(0, at) });
  return takeOptions(q, { ...line, segs: sliceSegs(line.segs, at, line.text.length), text: line.text.slice(at) });
}

const STATEMENTS_RE =
  /đúng\s*(?:(?:hay|hoặc|\/|-)\s*)?sai|true\s+or\s+false|mệnh\s+đề|khẳng\s+định|phát\s+biểu\s+sau/iu;

/**
 * Lower-case `a)`…`d)` are true/false statements in a Vietnamese exam (Phần II) and options elsewhere. They become
 * options, outside a true/false or essay part, when a key names a letter; or when nothing says statements (no
 * truth-value key, no statements stem) and either the labels are written `a.` or the document is not Vietnamese.
 */
export function subsAsOptions(q: QDraft, key: 'letters' | 'tf' | null, vietnamese: boolean): boolean {
  if (q.options.length > 0 || q.subs.length < 2 || q.tfTable || key === 'tf' || statementPart(q)) return false;
  if (key !== 'letters' && statementStyle(q, vietnamese)) return false;
  q.options = q.subs.map((s) => ({ ...s, label: s.label.toUpperCase() }));
  q.subs = [];
  q.mode = 'options';
  return true;
}

function statementPart(q: QDraft): boolean {
  if (q.partHint === 'TRUE_FALSE' || q.partHint === 'ESSAY' || q.points !== null) return true;
  return q.subs.every((s) => TF_SUFFIX_RE.test(segText(draftSegs(s))));
}

function statementStyle(q: QDraft, vietnamese: boolean): boolean {
  if (STATEMENTS_RE.test(q.stem.map((l) => l.text).join(' '))) return true;
  return vietnamese && !q.subs.every((s) => s.dot);
}
