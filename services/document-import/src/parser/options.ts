import type { LabeledDraft, QDraft } from './drafts.js';
import { plainSeg } from './types.js';
import { sliceSegs, type Line } from './lines.js';
import { OPTION_ANY_RE, OPTION_START_RE, SUB_RE } from './patterns.js';

export function nextLabel(list: LabeledDraft[], first: string): string {
  return list.length === 0 ? first : String.fromCharCode(list[list.length - 1]!.label.charCodeAt(0) + 1);
}

/** Splits "A. x\tB. y" (labels in sequence only) into options; a stem's stray "B." never starts one. */
export function takeOptions(q: QDraft, line: Line): boolean {
  const start = OPTION_START_RE.exec(line.text);
  if (!start || start[1] !== nextLabel(q.options, 'A')) return false;
  const cuts: { label: string; at: number; body: number }[] = [];
  let expected = start[1];
  for (const m of line.text.matchAll(OPTION_ANY_RE)) {
    if (m[2] !== expected) continue;
    const at = m.index + m[1]!.length;
    cuts.push({ label: m[2], at, body: m.index + m[0].length });
    expected = String.fromCharCode(expected.charCodeAt(0) + 1);
  }
  cuts.forEach((c, i) => {
    const end = cuts[i + 1]?.at ?? line.text.length;
    q.options.push({ label: c.label, segs: sliceSegs(line.segs, c.at, end) });
  });
  q.mode = 'options';
  return true;
}

export function takeSub(q: QDraft, line: Line): boolean {
  const m = SUB_RE.exec(line.text);
  if (q.options.length > 0 || !m || m[1] !== nextLabel(q.subs, 'a')) return false;
  q.subs.push({ label: m[1], segs: line.segs });
  q.mode = 'subs';
  return true;
}

export function appendTo(list: LabeledDraft[], line: Line): void {
  const last = list[list.length - 1]!;
  last.segs = [...last.segs, plainSeg('\n'), ...line.segs];
}

/** Text after the label: "A. 12" → "12". */
export function bodyText(d: LabeledDraft): string {
  return d.segs
    .map((s) => s.text)
    .join('')
    .replace(/^\s*[A-Fa-f]\s*[.)]\s*/, '')
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
