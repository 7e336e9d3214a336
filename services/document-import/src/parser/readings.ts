// Which reading of the layout explains the document best (structure.ts reads it one way), and numbered section titles
// corrected after the fact.
import type { QDraft, Reading, Structure } from './drafts.js';
import type { Line } from './lines.js';
import { readStructure } from './structure.js';
import type { Block } from './types.js';

/** The question has a shape: options, statements, a key or an empty key field. */
function shaped(q: QDraft): boolean {
  return q.options.length >= 2 || q.subs.length >= 2 || q.answerLines.length > 0 || q.keyField === true;
}

/** Short, with no question mark, colon or blank at its end, every letter bold: a section title. */
function headingLike(line: Line, from: number): boolean {
  const text = line.text.slice(from).trim();
  const words = text.split(/\s+/u).filter(Boolean).length;
  if (words === 0 || words > 8 || /[?:;…_)\]]$/u.test(text)) return false;
  return line.segs.every((s) => s.kind !== 'text' || s.text.trim() === '' || s.bold);
}

/** A bare-labelled question without points that opens with what looks like a section title. */
function titled(q: QDraft): boolean {
  const first = q.stem[0];
  return q.labelKind === 'bare' && first !== undefined && headingLike(first, 0) && q.points === null;
}

/** Whether a titled question stays: a title over a stem is taken out of the stem; a title that is all a question
 * without a shape has (and no essay) is a heading, and no question. */
function keepsTitled(q: QDraft): boolean {
  if (shaped(q) && q.stem.length > 1) {
    q.stem.shift();
    return true;
  }
  if (shaped(q) || q.partHint === 'ESSAY') return true;
  return false;
}

/**
 * Numbered section titles (`1. Concepts of Ethics`, `2. Quiz-Poster`) read like bare question labels. Where most
 * questions have a shape, a bare-labelled one that opens with such a title is corrected: a title over a stem that
 * follows is taken out of the stem; a title that is all the question has, with no shape, is no question.
 */
function numberedHeadings(s: Structure): Structure {
  if (s.questions.length < 3 || s.questions.filter(shaped).length < 0.75 * s.questions.length) return s;
  const keep = s.questions.filter((q) => !titled(q) || keepsTitled(q));
  if (keep.length === s.questions.length) return s;
  keep.forEach((q, i) => (q.id = `q${i + 1}`));
  return { ...s, questions: keep };
}

/** Options or statements with their letters typed (`(A) …`, `a. …`), not lines lettered by their order. */
function typedOptions(q: QDraft): boolean {
  return (q.options.length >= 2 && q.lettersByOrder === undefined) || q.subs.length >= 2;
}

/** A block a label-free paper may open with that is no question: without a shape, or whose "options" are only its
 * lines (no key). */
function leadCandidate(q: QDraft): boolean {
  if (q.labelKind !== 'implicit' || q.partHint === 'ESSAY') return false;
  return !shaped(q) || (q.lettersByOrder === 'block' && q.answerLines.length === 0);
}

/** In a document without labels, the blocks it opens with (a title, the instructions under it) are no questions
 * where the questions after them are regular: mostly shaped (at least three) when the blocks have no shape, every
 * one with typed letters (at least two) when a block has lines for options. The longest such run is taken off (its
 * text stays unassigned, and accounting reports it). */
function leadingBlock(s: Structure): Structure {
  let run = 0;
  while (run < s.questions.length && leadCandidate(s.questions[run]!)) run++;
  for (let k = run; k > 0; k--) {
    const rest = s.questions.slice(k);
    // a block with lines for options is taken off only above questions that type their letters
    const linesForOptions = s.questions.slice(0, k).some(shaped);
    const regular = linesForOptions
      ? rest.length >= 2 && rest.every(typedOptions)
      : rest.length >= 3 && rest.filter(shaped).length >= 0.75 * rest.length;
    if (!regular) continue;
    rest.forEach((q, i) => (q.id = `q${i + 1}`));
    return { ...s, questions: rest };
  }
  return s;
}

function read(blocks: Block[], reading: Reading): Structure {
  return leadingBlock(numberedHeadings(readStructure(blocks, reading)));
}

function chars(lines: Line[]): number {
  return lines.reduce((n, l) => n + l.text.trim().length, 0);
}

/** Options lettered from a Word list that are on average longer than their stem: a list of questions or paragraphs
 * under an instruction, not a question's options. */
function listOfTexts(q: QDraft): boolean {
  if (q.lettersByOrder !== 'list') return false;
  const options = q.options.reduce((n, o) => n + o.segs.reduce((m, s) => m + s.text.length, 0) + chars(o.more), 0);
  return options / q.options.length > chars(q.stem);
}

/** How well a reading explains the document: questions that have a shape (options, statements or a key) count, the
 * ones left without one count against it, and options that read as a list of texts count against it each (every
 * one is a text the reading explains no better than a question without a shape); a question without options whose
 * stem holds a Word list counts a quarter less. */
function score(s: Structure): number {
  let n = 0;
  for (const q of s.questions) {
    if (listOfTexts(q)) n -= 0.25 * q.options.length;
    else n += shaped(q) ? 1 : -0.25;
    if (listInStem(q)) n -= 0.25;
  }
  return n;
}

/** A question with no options whose stem holds a Word list of two items or more after its first line: a list the
 * reading left in the stem (its options, when another reading takes them). */
function listInStem(q: QDraft): boolean {
  if (q.options.length > 0 || q.subs.length > 0) return false;
  let items = 0;
  for (let i = 1; i < q.stem.length; i++) if (q.stem[i]!.auto !== undefined) items++;
  return items >= 2;
}

const BASE: Reading = { listOptions: false, typedOnly: false };
const CANDIDATES: Reading[] = [
  { listOptions: true, typedOnly: false },
  { listOptions: false, typedOnly: true },
  { listOptions: true, typedOnly: true },
];

/** Where the best reading found no labelled question and the document has bullets, the reading of unlabelled stems
 * over bulleted options, when it explains the document better. */
function unlabelled(blocks: Block[], best: Structure): Structure {
  if (best.questions.some((q) => q.labelKind !== 'implicit')) return best;
  if (!blocks.some((b) => b.kind === 'p' && b.bullet === true)) return best;
  const s = read(blocks, { ...BASE, unlabelledStems: true });
  return score(s) > score(best) ? s : best;
}

/** Reads the document under each candidate reading that can make a difference and keeps the one that explains it
 * best (the first, the plain reading, on a tie). */
export function buildStructure(blocks: Block[]): Structure {
  return unlabelled(blocks, labelReadings(blocks));
}

function labelReadings(blocks: Block[]): Structure {
  let best = read(blocks, BASE);
  if (!blocks.some((b) => b.kind === 'p' && b.autoLabel !== undefined)) return best;
  let bestScore = score(best);
  // the typed-labels reading only where the plain reading found more typed questions than Word-numbered ones
  const auto = best.questions.filter((q) => q.labelKind === 'auto').length;
  const typed = best.questions.filter((q) => q.labelKind === 'word' || q.labelKind === 'bare').length;
  for (const reading of CANDIDATES) {
    if (reading.typedOnly && typed <= auto) continue;
    const s = read(blocks, reading);
    const n = score(s);
    if (n > bestScore) [best, bestScore] = [s, n];
  }
  return best;
}
