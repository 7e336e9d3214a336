import type { Resolved } from './answers.js';
import { classify, LOW_CONFIDENCE, type Classified } from './classify.js';
import type { GroupDraft, LabeledDraft, QDraft } from './drafts.js';
import { segText, type Line } from './lines.js';
import { bodyText, draftSegs } from './options.js';
import { TF_SUFFIX_RE } from './patterns.js';
import { pushAll, type MediaRef, type Seg, type Warning } from './types.js';

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
  bin: 'application/vnd.openxmlformats-officedocument.oleObject',
};

export function mediaItem(m: MediaRef): Record<string, unknown> {
  const ext = m.target.split('.').pop()?.toLowerCase() ?? '';
  return {
    media_asset_id: null,
    url: m.target,
    object_key: m.target,
    content_type: CONTENT_TYPES[ext] ?? 'application/octet-stream',
    kind: m.kind,
    index: m.index,
  };
}

/** `(1 điểm)` before the stem is the question's `points`, not its text. */
const LEADING_POINTS_RE = /^\s*\(\s*\d+(?:[.,]\d+)?\s*điểm\s*\)\s*/iu;

function linesText(lines: Line[]): string {
  return lines
    .map((l) => l.text)
    .join('\n')
    .trim();
}

/** The media and formulas of a question, in document order of its parts (stem, solution, options, statements). */
function allSegs(q: QDraft): Seg[] {
  const out: Seg[] = [];
  for (const l of q.stem) pushAll(out, l.segs);
  for (const l of q.solution) pushAll(out, l.segs);
  for (const d of q.options) pushAll(out, draftSegs(d));
  for (const d of q.subs) pushAll(out, draftSegs(d));
  return out;
}

function subItem(s: LabeledDraft, a: Resolved): Record<string, unknown> {
  const content = bodyText(s).replace(TF_SUFFIX_RE, '').trim();
  return { label: s.label, content, correct_boolean: a.tf?.[s.label] ?? null };
}

/** The statements of a true/false question; a question that is one statement keyed true or false is its own. */
function statements(q: QDraft, a: Resolved, stem: string): Record<string, unknown>[] {
  if (q.subs.length > 0 || !a.tf || q.options.length > 0) return q.subs.map((s) => subItem(s, a));
  return [{ label: 'a', content: stem.trim(), correct_boolean: a.tf.a ?? null }];
}

function correctAnswer(c: Classified, a: Resolved): unknown {
  if (c.type === 'TRUE_FALSE_GROUP') return a.tf ?? null;
  if (c.type === 'MULTIPLE_CHOICE') return a.letters ?? null;
  if (a.letters) return a.letters[0];
  return a.text ?? null;
}

function numeric(text: string | undefined): number | null {
  if (text === undefined || !/^-?\d+(?:[.,]\d+)?$/.test(text.replace(/\s/g, ''))) return null;
  return Number(text.replace(/\s/g, '').replace(',', '.'));
}

export function questionItem(q: QDraft, a: Resolved, warnings: Warning[], dgnl = false): Record<string, unknown> {
  const segs = allSegs(q);
  const media = segs.filter((s) => s.media).map((s) => mediaItem(s.media!));
  const c = classify(q, a, media.length > 0, dgnl);
  if (c.confidence < LOW_CONFIDENCE) {
    warnings.push({ code: 'QUESTION_TYPE_LOW_CONFIDENCE', message: `type ${c.type} guessed`, question_id: q.id });
  }
  const essaySubs = c.type !== 'TRUE_FALSE_GROUP' && q.subs.length > 0;
  const stem = (
    linesText(q.stem) + (essaySubs ? '\n' + q.subs.map((s) => segText(draftSegs(s))).join('\n') : '')
  ).replace(LEADING_POINTS_RE, '');
  return {
    id: q.id,
    number: q.number,
    part: q.part,
    group_id: q.group_id,
    type: c.type,
    type_confidence: c.confidence,
    review_reason: c.review_reason,
    points: q.points,
    content: stem.trim(),
    options: q.options.map((o) => ({ label: o.label, content: bodyText(o) })),
    sub_items: essaySubs ? [] : statements(q, a, stem),
    correct_answer: correctAnswer(c, a),
    answer_confidence: a.evidence ? a.confidence : null,
    correct_answer_numeric: c.type === 'SHORT_NUMERIC_ANSWER' ? numeric(a.text) : null,
    solution: q.solution.length > 0 ? linesText(q.solution) : null,
    formulas: segs.filter((s) => s.kind === 'math').map((s) => ({ latex: s.latex })),
    media,
    source_location: {
      paragraph_start: q.para_start,
      paragraph_end: q.para_end,
      answer_evidence: a.evidence,
      answer_source: a.source,
      answer_style: a.style,
    },
  };
}

export function groupItem(g: GroupDraft): Record<string, unknown> {
  return {
    group_id: g.group_id,
    kind: g.kind,
    parent_group_id: g.parent_group_id,
    part: g.part,
    title: g.title,
    from: g.from,
    to: g.to,
    content: linesText(g.content),
  };
}
