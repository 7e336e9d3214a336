// The fields of a question after its text: its key (a key line, an empty key field, an arrow, a letter alone, a key
// typed after the stem), its metadata, its explanation and its solution.
import { answerValue } from './answers.js';
import type { LabeledDraft, QDraft, State } from './drafts.js';
import { keyLineValue, type KeyLine } from './keylines.js';
import { lettersDone } from './labels.js';
import { sliceSegs, type Line } from './lines.js';
import { nextLabel } from './options.js';
import {
  ANSWER_PLACEHOLDER_RE,
  ARROW_KEY_RE,
  loneLetter,
  METADATA_RE,
  OPTION_START_RE,
  SOLUTION_RE,
  trailingArrowKey,
} from './patterns.js';

/** A Word list item (a bullet, or a number under the typed-labels reading) after a lettered option list: the
 * question's explanation, not more of its last option. The question stays open to a next label. */
export function takeExplanation(st: State, q: QDraft, line: Line): boolean {
  const open = lettersDone(q) || q.explained === true;
  if (!open) return false;
  const listItem = line.bullet === true || (st.reading.typedOnly && line.auto !== undefined);
  if (!listItem || OPTION_START_RE.test(line.text.slice(line.auto ? line.auto.label.length + 1 : 0))) return false;
  q.solution.push(line);
  q.mode = 'answered';
  q.answeredAt = q.solution.length;
  q.explained = true;
  st.conventions.add('explanation-list');
  return true;
}

/** A metadata line (`Difficulty: Hard`) once the question has begun: kept out of its text (no field holds it). */
function takeMetadata(q: QDraft, line: Line): boolean {
  if (!METADATA_RE.test(line.text)) return false;
  if (q.stem.length === 0 && q.options.length === 0 && q.mode === 'stem') return false;
  return true;
}

/** An empty key field (`Answer:`) under options or statements: read as a key line without a value. */
function takeKeyField(q: QDraft, line: Line): boolean {
  if (!ANSWER_PLACEHOLDER_RE.test(line.text) || (q.options.length === 0 && q.subs.length === 0)) return false;
  q.keyField = true;
  q.mode = 'answered';
  q.answeredAt = q.solution.length;
  return true;
}

/** A key line with a value (`Đáp án: C`, `→ B`); a solution heading that carries one opens the solution. */
function takeKeyValue(q: QDraft, line: Line): boolean {
  const key = keyLineValue(q, line.text) ?? arrowKey(q, line.text);
  if (!key) return false;
  q.answerLines.push(key.value);
  q.mode = key.solution ? 'solution' : 'answered';
  q.answeredAt = q.solution.length + (key.solution ? 1 : 0);
  if (key.solution) q.solution.push(line);
  return true;
}

/** A key line ends the options; the lines after it are the solution. An empty key field (`Answer:`) is read as one
 * without a value, and metadata lines (`Difficulty: Hard`) are kept apart. */
export function takeKeyLine(q: QDraft, line: Line): boolean {
  return takeMetadata(q, line) || takeKeyField(q, line) || takeKeyValue(q, line);
}

/** `→ B` alone on its line: the key. Letters, truth values or a number for a question with options or statements;
 * a short text for one without (an arrangement, a fill-in). */
function arrowKey(q: QDraft, text: string): KeyLine | null {
  const m = ARROW_KEY_RE.exec(text);
  if (!m) return null;
  const open = q.options.length === 0 && q.subs.length === 0;
  const v = answerValue(m[1]!, !open, open);
  return v === null ? null : { value: v, solution: false };
}

export function takeSolution(st: State, q: QDraft, line: Line): boolean {
  const heading = SOLUTION_RE.test(line.text) || (st.blocks && /^\s*>/.test(line.text));
  if (q.mode !== 'solution' && q.mode !== 'answered' && !heading) return false;
  if (heading) q.mode = 'solution';
  q.solution.push(line);
  return true;
}

/** `statement → Sai (Đáp án đúng: …)`: the key typed after the stem is taken out of it, what follows is the solution. */
export function trailingKey(q: QDraft, line: Line): Line {
  if (q.options.length > 0 || q.subs.length > 0) return line;
  const m = trailingArrowKey(line.text);
  if (!m) return line;
  q.answerLines.push(m.key);
  (q.removedKeys ??= []).push(line.text.slice(m.index).trim());
  const rest = m.rest.trim();
  if (rest !== '')
    q.solution.push({
      ...line,
      text: rest,
      segs: sliceSegs(line.segs, line.text.length - m.rest.length, line.text.length),
    });
  q.mode = rest !== '' ? 'solution' : 'answered';
  q.answeredAt = q.solution.length;
  return { ...line, text: line.text.slice(0, m.index), segs: sliceSegs(line.segs, 0, m.index) };
}

/** The option or statement list a lone key may name: the open list's question has two options, or two statements. */
function keyedList(q: QDraft | null): LabeledDraft[] | null {
  if (!q || (q.mode !== 'options' && q.mode !== 'subs')) return null;
  if (q.options.length >= 2) return q.options;
  return q.subs.length >= 2 ? q.subs : null;
}

/** A digit alone on its line (`2`, `3.`): the number of an option Word numbered. Tested on the trimmed line. */
function loneDigit(text: string): string | undefined {
  return /^(\d)(?:\s*\.)?$/.exec(text.trim())?.[1];
}

/** The label a lone line names, and whether it came by number: the option Word numbered so, or a letter. */
function loneLabel(q: QDraft, list: LabeledDraft[], line: Line): { lone: string | undefined; numbered: boolean } {
  const digit = q.lettersByOrder === 'list' ? loneDigit(line.text) : undefined;
  if (digit) return { lone: list[Number(digit) - 1]?.label, numbered: true };
  return { lone: loneLetter(line.text.toUpperCase()), numbered: false };
}

/** The key a lone line gives: one of the list's labels, but a letter that would be the next option's is that option. */
function loneKeyLabel(q: QDraft, list: LabeledDraft[], line: Line): string | null {
  const { lone, numbered } = loneLabel(q, list, line);
  if (!lone || !list.some((o) => o.label.toUpperCase() === lone)) return null;
  const next = nextLabel(list, list === q.options ? 'A' : 'a').toUpperCase();
  return !numbered && next === lone ? null : lone;
}

/** A letter alone after a question's options (`B`, `(c)`), or the number of an option Word numbered (`2`): the key,
 * before it can be read as a label. */
export function loneKey(q: QDraft | null, line: Line): boolean {
  const list = keyedList(q);
  const lone = q && list ? loneKeyLabel(q, list, line) : null;
  if (!q || lone === null) return false;
  q.answerLines.push(lone);
  q.mode = 'answered';
  q.answeredAt = q.solution.length;
  return true;
}
