// Pure: the external formula parser's payload as the contract's QAS output.
import type { QasOutput } from '../parser/index.js';
import type { Warning } from '../parser/types.js';
import { baselineReparse } from './baseline-reparse.js';

export const STYLE_HINT_EVIDENCE = 'DOCX_STYLE_HINT';
export const ANNOTATED_FALLBACK = 'FORMULA_DOCX_ANNOTATED_FALLBACK';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const LETTER = /^[A-Ha-h]$/;

/** The payload itself, or the `data` of an envelope around it. */
export function payloadBody(payload: unknown): Obj {
  if (isObj(payload) && isObj(payload.data)) return payload.data;
  return isObj(payload) ? payload : {};
}

function options(q: Obj): Array<{ label: string; content: string }> {
  if (!Array.isArray(q.options)) return [];
  return q.options.map((o, i) => {
    const label = String.fromCharCode(65 + i);
    if (!isObj(o)) return { label, content: str(o) ?? '' };
    // `A.`, `(B)`, ` c ` → the letter alone, as the question bank's option labels are.
    const given = str(o.label)
      ?.replace(/[^A-Za-z]/g, '')
      .toUpperCase();
    return { label: given && given.length === 1 ? given : label, content: str(o.content) ?? str(o.text) ?? '' };
  });
}

/** `style_answer_hint`: a letter or letters the parser saw styled (red, underlined, highlighted). */
function styleHint(q: Obj): string | string[] | null {
  const hint = q.style_answer_hint;
  if (typeof hint === 'string' && LETTER.test(hint.trim())) return hint.trim().toUpperCase();
  if (Array.isArray(hint)) {
    const letters = hint.filter((h): h is string => typeof h === 'string' && LETTER.test(h.trim()));
    if (letters.length === 1) return letters[0]!.trim().toUpperCase();
    if (letters.length > 1) return letters.map((h) => h.trim().toUpperCase());
  }
  return null;
}

function typeOf(q: Obj, opts: unknown[], answer: unknown): string {
  if (typeof q.type === 'string' && q.type.trim() !== '') return q.type;
  if (opts.length >= 2) return Array.isArray(answer) ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE';
  return 'ESSAY';
}

interface Resolved {
  answer: unknown;
  evidence: unknown;
  hinted: boolean;
}

// An explicit answer wins over a style hint, as in the native parser's precedence.
function resolveAnswer(q: Obj): Resolved {
  const given = q.correct_answer ?? q.answer ?? null;
  const location = isObj(q.source_location) ? q.source_location : {};
  if (given !== null && given !== '')
    return { answer: given, evidence: location.answer_evidence ?? 'PARSER', hinted: false };
  const hint = styleHint(q);
  if (hint !== null) return { answer: hint, evidence: STYLE_HINT_EVIDENCE, hinted: true };
  return { answer: null, evidence: null, hinted: false };
}

function arrays(q: Obj): Obj {
  return {
    sub_items: Array.isArray(q.sub_items) ? q.sub_items : [],
    formulas: Array.isArray(q.formulas) ? q.formulas.filter(isObj) : [],
    media: Array.isArray(q.media) ? q.media.filter(isObj) : [],
  };
}

function texts(q: Obj): Obj {
  return {
    part: str(q.part) ?? null,
    group_id: str(q.group_id) ?? null,
    content: str(q.content) ?? str(q.text) ?? str(q.question) ?? '',
    solution: str(q.solution) ?? str(q.explanation) ?? null,
  };
}

export function externalQuestion(q: Obj, i: number): { item: Obj; hinted: boolean } {
  const opts = options(q);
  const r = resolveAnswer(q);
  const location = isObj(q.source_location) ? q.source_location : {};
  const { style_answer_hint: _hint, answer: _answer, text: _text, ...rest } = q;
  const item: Obj = {
    ...rest,
    ...texts(q),
    ...arrays(q),
    id: `q${i + 1}`,
    number: typeof q.number === 'number' ? q.number : i + 1,
    type: typeOf(q, opts, r.answer),
    type_confidence: typeof q.type_confidence === 'number' ? q.type_confidence : 0.5,
    options: opts,
    correct_answer: r.answer,
    source_location: { ...location, external_id: str(q.id) ?? null, answer_evidence: r.evidence },
  };
  return { item, hinted: r.hinted };
}

export function externalWarnings(body: Obj): Warning[] {
  if (!Array.isArray(body.warnings)) return [];
  return body.warnings.flatMap((w): Warning[] => {
    if (typeof w === 'string') return [{ code: w.slice(0, 100), message: w.slice(0, 2000) }];
    if (isObj(w) && typeof w.code === 'string') {
      return [{ code: w.code.slice(0, 100), message: (str(w.message) ?? '').slice(0, 2000) }];
    }
    return [];
  });
}

function segmentTexts(body: Obj): string[] {
  const segments = body.annotated_segments ?? body.segments;
  if (!Array.isArray(segments)) return [];
  return segments.map((s) => (isObj(s) ? (str(s.text) ?? '') : (str(s) ?? ''))).filter((t) => t.trim() !== '');
}

/**
 * Zero questions but annotated segments: the segments' text read as the baseline reparse reads
 * review text; if that finds nothing either, one ESSAY per segment. Every such question is marked
 * for review (low confidence, review_reason ANNOTATED_FALLBACK) and the output warns once.
 */
export function annotatedFallback(body: Obj): Obj[] {
  const texts = segmentTexts(body);
  if (texts.length === 0) return [];
  const parsed = baselineReparse(texts.join('\n')).questions;
  const questions = parsed.length > 0 ? parsed : texts.map((t, i) => ({ ...essay(t, i) }));
  return questions.map((q) => ({
    ...q,
    type_confidence: Math.min(Number(q.type_confidence ?? 0.5), 0.5),
    review_reason: 'ANNOTATED_FALLBACK',
  }));
}

function essay(text: string, i: number): Obj {
  return baselineReparse(`Câu ${i + 1}. ${text}`).questions[0] ?? {};
}

export interface ExternalResult {
  output: QasOutput;
  hinted: number;
}

/** The external payload as a QAS output (ids `q1`…; stats recounted from the questions). */
export function fromExternalPayload(payload: unknown, documentId: string): ExternalResult {
  const body = payloadBody(payload);
  const raw = Array.isArray(body.questions) ? body.questions.filter(isObj) : [];
  const converted = raw.map(externalQuestion);
  const warnings = externalWarnings(body);
  let questions = converted.map((c) => c.item);
  if (questions.length === 0) {
    questions = annotatedFallback(body);
    if (questions.length > 0) {
      warnings.push({
        code: ANNOTATED_FALLBACK,
        message: `parser found no questions; ${questions.length} built from annotated segments`,
      });
    }
  }
  const stats = isObj(body.stats) ? body.stats : {};
  return {
    output: {
      document_id: documentId,
      latency_ms: typeof body.latency_ms === 'number' ? body.latency_ms : 0,
      questions,
      groups: Array.isArray(body.groups) ? body.groups.filter(isObj) : [],
      warnings,
      stats,
    },
    hinted: converted.filter((c) => c.hinted).length,
  };
}
