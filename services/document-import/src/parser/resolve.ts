// Weighing the evidence for a question's answer (answers.ts reads each kind): explicit keys win, a mark or a look
// is as certain as the document is consistent in using it, and evidence that disagrees is named.
import {
  byOptionText,
  fromKeys,
  fromLines,
  fromSubs,
  NO_CONVENTION,
  parseRaw,
  type AnswerSource,
  type Convention,
  type Evidence,
  type KeyLookup,
  type Parsed,
  type Resolved,
} from './answers.js';
import type { LabeledDraft, QDraft } from './drafts.js';
import { fromOptionStyle, fromStemMark, type StyleKind } from './marks.js';

const SOURCE_EVIDENCE: Record<AnswerSource, Evidence> = {
  'key-line': 'ANSWER_LINE',
  'key-table': 'ANSWER_KEY_TABLE',
  'key-list': 'ANSWER_KEY_LIST',
  marker: 'ANSWER_MARKER',
  'tf-suffix': 'TRUE_FALSE_SUFFIX',
  'tf-table': 'TRUE_FALSE_TABLE',
  'format-distinct': 'DOCX_STYLE_HINT',
};

interface Candidate {
  source: AnswerSource;
  parsed: Parsed;
  style: StyleKind | null;
  confidence: number;
  /** a mark on the option itself that the document uses as its key (a marker, its answer look) */
  inPlace?: boolean;
}

// Confidence per source: an explicit key naming an option is nearly certain; a look is as certain as the document
// is consistent in using it.
const KEY_CONFIDENCE = 0.97;
const LIST_CONFIDENCE = 0.95;
const MARKER_CONFIDENCE = 0.93;
const TF_CONFIDENCE = 0.9;

function formatConfidence(conv: Convention, feature: string, weak: boolean): number {
  const rank = conv.looks.indexOf(feature);
  const base = 0.5 + 0.45 * conv.share;
  return Math.round((rank === 0 ? base : base - 0.15) * (weak ? 0.8 : 1) * 100) / 100;
}

/** A key naming letters the question has no option for is no key of this question. */
function fits(q: QDraft, p: Parsed): boolean {
  if (!p.letters || q.options.length === 0) return true;
  return p.letters.every((l) => q.options.some((o) => o.label === l));
}

/** The question's own key line; one that names an option by quoting its text is a little less certain. */
function lineCandidate(q: QDraft): Candidate | null {
  const lineAnswer = fromLines(q);
  if (!lineAnswer || !fits(q, lineAnswer)) return null;
  const quoted = lineAnswer.letters !== undefined && q.answerLines.every((r) => parseRaw(r).text !== undefined);
  return { source: 'key-line', parsed: lineAnswer, style: null, confidence: quoted ? 0.9 : KEY_CONFIDENCE };
}

/** The question's entry in a key list or key table. */
function keyCandidate(q: QDraft, keys: KeyLookup): Candidate | null {
  const key = fromKeys(q, keys);
  const keyAnswer = key && byOptionText(q, key.parsed);
  if (!key || !keyAnswer || !fits(q, keyAnswer)) return null;
  return { source: key.list ? 'key-list' : 'key-table', parsed: keyAnswer, style: null, confidence: LIST_CONFIDENCE };
}

/** The options marked in their own text (a star, a check mark, an `x` cell), when some but not all are. */
function fromMarkers(list: LabeledDraft[]): string[] | null {
  const hits = list.filter((o) => o.marker).map((o) => o.label);
  return hits.length > 0 && hits.length < list.length ? hits : null;
}

function markerCandidate(q: QDraft): Candidate | null {
  const markers = fromMarkers(q.options);
  if (!markers) return null;
  return { source: 'marker', parsed: { letters: markers }, style: null, confidence: MARKER_CONFIDENCE, inPlace: true };
}

/** The truth values of the question's statements: a table, `(Đúng)` suffixes, or a look. */
function subsCandidate(q: QDraft, conv: Convention): Candidate | null {
  const subs = fromSubs(q, conv);
  if (!subs) return null;
  const confidence = subs.source === 'format-distinct' ? 0.8 : TF_CONFIDENCE;
  return { source: subs.source, parsed: { tf: subs.tf }, style: subs.style, confidence };
}

/** The options dressed unlike their siblings: evidence where the document keys by that look, or beside another key
 * (which it may disagree with). `keyed`: the question has other evidence. */
function styleCandidate(q: QDraft, conv: Convention, keyed: boolean): Candidate | null {
  const style = conv.looks.length > 0 || keyed ? fromOptionStyle(q.options, conv.looks) : null;
  if (!style) return null;
  // each marked option must wear one of the document's answer looks (a green label on a red answer is red)
  const docLook = conv.looks.find((f) => style.extras.every((e) => e.includes(f)));
  const keyLook = docLook ?? (keyed ? style.feature : null);
  if (!keyLook) return null;
  return {
    source: 'format-distinct',
    parsed: { letters: style.letters },
    style: style.style,
    confidence: formatConfidence(conv, keyLook, style.weak),
    inPlace: docLook !== undefined && !style.weak,
  };
}

/** Every piece of evidence for the question's answer, strongest first. */
function candidates(q: QDraft, keys: KeyLookup, conv: Convention): Candidate[] {
  const out = [lineCandidate(q), keyCandidate(q, keys), markerCandidate(q), subsCandidate(q, conv)].filter(
    (c): c is Candidate => c !== null,
  );
  const style = styleCandidate(q, conv, out.length > 0);
  if (style) out.push(style);
  return out;
}

/** The evidence, or else (where the document marks answers by looks) a marked fill-in word in a stem. */
function evidence(q: QDraft, keys: KeyLookup, conv: Convention): Candidate[] {
  const found = candidates(q, keys, conv);
  const blank = found.length === 0 && conv.stemMarks ? fromStemMark(q, conv.looks) : null;
  if (blank) found.push({ source: 'format-distinct', parsed: { text: blank }, style: null, confidence: 0.6 });
  return found;
}

function describe(source: AnswerSource, p: Parsed, style?: StyleKind | null): string {
  const what = p.letters ? p.letters.join(',') : p.tf ? JSON.stringify(p.tf) : (p.text ?? '');
  return source === 'format-distinct' ? `${style ?? 'formatted'} option ${what}` : `${source} ${what}`;
}

function sameAnswer(a: Parsed, b: Parsed): boolean {
  if (a.letters && b.letters) return a.letters.join() === b.letters.join();
  return true;
}

/** A key list or table far from the question against the mark the document keys by, on the option itself: either
 * may be wrong (a list shifted by one, a stray mark), and a wrong key is worse than none. */
function distrusted(first: Candidate, against: Candidate | undefined): boolean {
  return against?.inPlace === true && (first.source === 'key-list' || first.source === 'key-table');
}

/** The first evidence's confidence, raised when others agree, capped when one disagrees. */
function agreedConfidence(first: Candidate, found: Candidate[], against: Candidate | undefined): number {
  if (against) return Math.min(first.confidence, 0.6);
  return Math.min(0.99, first.confidence + (found.length > 1 ? 0.03 : 0));
}

/** The answer of one question and where it came from; explicit keys win, other evidence that disagrees is named. */
export function resolveAnswer(q: QDraft, keys: KeyLookup, conv: Convention = NO_CONVENTION): Resolved {
  const found = evidence(q, keys, conv);
  const first = found[0];
  if (!first) return { evidence: null, source: null, style: null, conflict: null, confidence: 0 };
  const against = found.find((c) => !sameAnswer(first.parsed, c.parsed));
  const conflict = against
    ? `${describe(first.source, first.parsed)} disagrees with ${describe(against.source, against.parsed, against.style)}`
    : null;
  if (distrusted(first, against)) return { evidence: null, source: null, style: null, conflict, confidence: 0 };
  return {
    ...first.parsed,
    evidence: SOURCE_EVIDENCE[first.source],
    source: first.source,
    style: first.style,
    conflict,
    confidence: Math.round(agreedConfidence(first, found, against) * 100) / 100,
  };
}
