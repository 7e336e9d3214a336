// Accounting for the document's text: how much of it ended in a field of the output, and the fields that hold more
// than a field should (a stem or a solution with questions or options inside, or many times its siblings' size).
import type { DocModel } from './model.js';
import { OPTION_START_RE, QUESTION_RE } from './patterns.js';
import type { Block, Para, Warning } from './types.js';

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

// The code units below U+2000 (Latin, Vietnamese's precomposed vowels, Greek, Cyrillic, combining marks), asked of
// the regex once: nearly all of a paper's text is answered by a look-up, not a regex test per character.
const TABLED = 0x2000;
const LETTER_BELOW = Uint8Array.from({ length: TABLED }, (_, c) =>
  LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 1 : 0,
);

/** Letters and digits only: rules of dashes and punctuation carry no text to read. Counted in code points, most
 * without a regular expression (the count runs over every field of the output, and a match array per field is
 * garbage). */
function letters(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < TABLED) {
      n += LETTER_BELOW[c]!;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    if (LETTER_OR_DIGIT.test(String.fromCodePoint(point))) n++;
  }
  return n;
}

function paraText(p: Para): string {
  return (p.autoLabel ?? '') + p.segs.map((s) => (s.kind === 'text' ? s.text : '')).join('');
}

function blockChars(b: Block): number {
  if (b.kind === 'p') return letters(paraText(b));
  let n = 0;
  for (const row of b.rows) for (const cell of row) for (const p of cell) n += letters(paraText(p));
  return n;
}

/** The letters and digits of the document's text: paragraphs, table cells and text boxes, Word numbers included. */
export function documentChars(model: DocModel): number {
  return model.blocks.reduce((n, b) => n + blockChars(b), 0);
}

/** The letters and digits the output assigns to a field: stems, options, statements, solutions, group titles and
 * texts. Labels the parser consumed (`Câu 3.`, `A.`, a key line's words) are not in the output, so a fully read
 * document scores a little under 1. */
export function assignedChars(questions: Record<string, unknown>[], groups: Record<string, unknown>[]): number {
  let n = 0;
  for (const q of questions) {
    n += letters(q.content as string) + letters((q.solution as string | null) ?? '');
    for (const o of q.options as { content: string }[]) n += letters(o.content) + 2;
    for (const s of q.sub_items as { content: string }[]) n += letters(s.content) + 2;
    const answer = q.correct_answer;
    if (typeof answer === 'string') n += letters(answer);
  }
  for (const g of groups) n += letters(g.title as string) + letters(g.content as string);
  return n;
}

const OVERSIZED = 5;
const MIN_OVERSIZED_CHARS = 400;

/** Question-like structure inside a text: a question label or options A, B in sequence starting its lines. */
function structureInside(text: string): string | null {
  let next = 'A';
  for (const line of text.split('\n')) {
    if (QUESTION_RE.test(line)) return 'a question label';
    if (OPTION_START_RE.exec(line)?.[1] === next) next = String.fromCharCode(next.charCodeAt(0) + 1);
    if (next === 'C') return 'options A, B';
  }
  return null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A stem or a solution that holds question-like structure, or is many times the size of its siblings', names where:
 * its question and the paragraphs it spans. */
export function fieldWarnings(questions: Record<string, unknown>[], warnings: Warning[]): void {
  const stems = questions.map((q) => letters(q.content as string));
  for (const field of ['content', 'solution'] as const) {
    const sizes = field === 'content' ? stems : questions.map((q) => letters((q.solution as string | null) ?? ''));
    const given = sizes.filter((n) => n > 0);
    // solutions beside too few siblings are measured against the stems (one question's solution holding the rest)
    const typical = field === 'solution' && given.length < 3 ? median(stems.filter((n) => n > 0)) : median(given);
    questions.forEach((q, i) => {
      const text = (q[field] as string | null) ?? '';
      const where = q.source_location as { paragraph_start: number; paragraph_end: number };
      const span = `paragraphs ${where.paragraph_start}–${where.paragraph_end}`;
      const inside = structureInside(text);
      const big = sizes[i]! >= MIN_OVERSIZED_CHARS && sizes[i]! > OVERSIZED * Math.max(typical, 1);
      if (!inside && !big) return;
      const what = field === 'content' ? 'stem' : 'solution';
      const why = inside ? `holds ${inside}` : `is ${Math.round(sizes[i]! / Math.max(typical, 1))}× its siblings' size`;
      warnings.push({
        code: 'DOCX_NATIVE_FIELD_SUSPECT',
        message: `the ${what} ${why} (${span}): questions may be folded into it`,
        question_id: q.id as string,
      });
    });
  }
}
