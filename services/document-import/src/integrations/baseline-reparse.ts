// Pure: the review route's baseline reparse of `sourceText` (simple numbered questions only).
import { createHash } from 'node:crypto';
import type { QasOutput } from '../parser/index.js';
import {
  readAnswerLine,
  readChooseLine,
  readOption,
  readQuestionHead,
  readSolutionLine,
  splitInlineOptions,
  type OptionHead,
} from './review-text.js';

export const BASELINE_REPARSE_WARNING = 'DOCX_REVIEW_BASELINE_REPARSE';
/** Evidence of an answer taken from a `*` before or after an option label. */
export const ANSWER_MARKER_EVIDENCE = 'ANSWER_MARKER';

// Only these two expressions remain, on one answer line: each is unambiguous (no two quantifiers can
// take the same character), so linear; the line readers in review-text.ts do the rest by hand.
const LETTERS_RE = /^\*?([A-D])(?:\s*[,;]\s*\*?([A-D]))*\.?$/i;
const NUMBER_RE = /^-?\d+(?:[.,]\d+)?$/;

interface Draft {
  number: number;
  start: number;
  end: number;
  stem: string[];
  options: Array<{ label: string; content: string; marked: boolean }>;
  answer?: string;
  solution?: string[];
}

function addOptions(d: Draft, line: string): boolean {
  const parsed = splitInlineOptions(line.trim()).map(readOption);
  if (parsed.some((o) => !o)) return false;
  // One push at a time: a line may hold a quarter of a million of them (no spread of that size).
  for (const o of parsed as OptionHead[]) d.options.push(o);
  return true;
}

// A line that could be an option is only one after the stem started and before a solution.
function readLine(d: Draft, line: string): void {
  if (d.solution) {
    d.solution.push(line);
    return;
  }
  const answer = readAnswerLine(line) ?? readChooseLine(line);
  if (answer !== null) {
    d.answer = answer.trim();
    return;
  }
  const solution = readSolutionLine(line);
  if (solution !== null) {
    d.solution = solution.trim() ? [solution.trim()] : [];
    return;
  }
  if (readOption(line) && addOptions(d, line)) return;
  if (d.options.length === 0) d.stem.push(line);
  else d.options[d.options.length - 1]!.content += `\n${line.trim()}`;
}

// `Câu 3: Chọn số chẵn. A. 2 B. 3 C. 4` keeps its options when at least A and B follow the stem.
function startDraft(number: number, line: number, rest: string): Draft {
  const d: Draft = { number, start: line, end: line, stem: [], options: [] };
  const [stem, ...tail] = splitInlineOptions(rest);
  if (tail.length < 2 || !addOptions(d, tail.join(' '))) {
    d.options = [];
    if (rest.trim()) d.stem.push(rest.trim());
    return d;
  }
  if (stem!.trim()) d.stem.push(stem!.trim());
  return d;
}

function drafts(text: string): Draft[] {
  const out: Draft[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === '') return;
    const q = readQuestionHead(line);
    if (q) {
      out.push(startDraft(q.number, i, q.rest));
      return;
    }
    const current = out[out.length - 1];
    if (!current) return;
    current.end = i;
    readLine(current, line);
  });
  return out;
}

interface Answer {
  value: string | string[] | null;
  evidence: string | null;
}

function answerOf(d: Draft): Answer {
  if (d.answer !== undefined) {
    const letters = LETTERS_RE.test(d.answer) ? d.answer.toUpperCase().match(/[A-D]/g) : null;
    if (letters && d.options.length > 0)
      return { value: letters.length > 1 ? letters : letters[0]!, evidence: 'ANSWER_LINE' };
    return { value: d.answer, evidence: 'ANSWER_LINE' };
  }
  const marked = d.options.filter((o) => o.marked).map((o) => o.label);
  if (marked.length === 0) return { value: null, evidence: null };
  return { value: marked.length > 1 ? marked : marked[0]!, evidence: ANSWER_MARKER_EVIDENCE };
}

function typeOf(d: Draft, a: Answer): { type: string; confidence: number } {
  if (d.options.length >= 2) {
    return { type: Array.isArray(a.value) ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE', confidence: 0.8 };
  }
  if (typeof a.value === 'string' && NUMBER_RE.test(a.value)) {
    return { type: 'SHORT_NUMERIC_ANSWER', confidence: 0.7 };
  }
  if (typeof a.value === 'string') return { type: 'SHORT_ANSWER', confidence: 0.6 };
  return { type: 'ESSAY', confidence: 0.5 };
}

function questionItem(d: Draft, i: number): Record<string, unknown> {
  const a = answerOf(d);
  const t = typeOf(d, a);
  const numeric = t.type === 'SHORT_NUMERIC_ANSWER' ? Number((a.value as string).replace(',', '.')) : null;
  return {
    id: `q${i + 1}`,
    number: d.number,
    part: null,
    group_id: null,
    type: t.type,
    type_confidence: t.confidence,
    review_reason: null,
    points: null,
    content: d.stem.join('\n').trim(),
    options: d.options.map((o) => ({ label: o.label, content: o.content })),
    sub_items: [],
    correct_answer: a.value,
    correct_answer_numeric: numeric,
    solution: d.solution && d.solution.length > 0 ? d.solution.join('\n').trim() : null,
    formulas: [],
    media: [],
    source_location: {
      paragraph_start: d.start,
      paragraph_end: d.end,
      answer_evidence: a.evidence,
      answer_style: null,
    },
  };
}

/**
 * Questions from plain text: `Câu 1.` / `1.` starts a question, `A.`–`D.` lines (or one line of
 * them) are options, `*` before or after a label marks an answer, `Đáp án:` (or `Answer:`, a lone `Chọn B`) gives
 * the answer and wins over marks, `Lời giải:` starts the solution (to the next question). Always
 * warns DOCX_REVIEW_BASELINE_REPARSE: full parity with the DOCX parser is pending. Line numbers
 * stand in for paragraph numbers in `source_location`.
 */
export function baselineReparse(sourceText: string, documentId?: string): QasOutput {
  const questions = drafts(sourceText).map(questionItem);
  const byType: Record<string, number> = {};
  for (const q of questions) byType[q.type as string] = (byType[q.type as string] ?? 0) + 1;
  return {
    document_id: documentId ?? `review-${createHash('sha256').update(sourceText).digest('hex').slice(0, 24)}`,
    latency_ms: 0,
    questions,
    groups: [],
    warnings: [
      {
        code: BASELINE_REPARSE_WARNING,
        message: 'baseline reparse of the review text: simple numbered questions only; full parser parity is pending',
      },
    ],
    stats: {
      total_questions: questions.length,
      total_images: 0,
      total_equation_objects: 0,
      total_formulas: 0,
      answered: questions.filter((q) => q.correct_answer !== null).length,
      by_type: byType,
      paragraphs: sourceText.split(/\r?\n/).length,
    },
  };
}
