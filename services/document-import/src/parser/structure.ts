import type { LabeledDraft, QDraft, Reading, State, Structure } from './drafts.js';
import { endQuestion, groupOf, groupStart, heading } from './groups.js';
import { keyLineEntries } from './keys.js';
import { answerValue } from './answers.js';
import { keyLineValue, keyModeLine, type KeyLine } from './keylines.js';
import {
  labelFreeBlocks,
  lastNumber,
  lettersDone,
  listOption,
  midPieces,
  questionStart,
  type Start,
} from './labels.js';
import { paraLines, sliceSegs, type Line } from './lines.js';
import {
  appendTo,
  markGap,
  nextLabel,
  recounted,
  splitInline,
  takeGluedA,
  takeOptions,
  takeBoxOption,
  takeSub,
  takeTrailingA,
  takeUnlettered,
} from './options.js';
import {
  ANSWER_PLACEHOLDER_RE,
  BARE_QUESTION_RE,
  ARROW_KEY_RE,
  isSeparator,
  LONE_LETTER_RE,
  METADATA_RE,
  OPTION_START_RE,
  POINTS_RE,
  SOLUTION_RE,
  SUB_RE,
  TRAILING_ARROW_KEY_RE,
} from './patterns.js';
import { handleTable } from './tables.js';
import { type Block, pushAll } from './types.js';

function newQuestion(st: State, line: Line, start: Start): QDraft {
  const points = POINTS_RE.exec(line.text);
  const q: QDraft = {
    id: `q${st.questions.length + 1}`,
    number: start.number,
    labelKind: start.kind,
    part: st.part,
    partHint: st.partHint,
    group_id: groupOf(st, start.number),
    stem: [],
    options: [],
    subs: [],
    answerLines: [],
    meta: [],
    solution: [],
    tables: 0,
    points: points ? Number(points[1]!.replace(',', '.')) : null,
    tfTable: null,
    para_start: line.para,
    para_end: line.para,
    mode: 'stem',
  };
  st.questions.push(q);
  st.conventions.add(`label:${start.kind}`);
  if (start.kind === 'word' && /^\s*(?:Câu|Bài)/iu.test(line.text)) st.vietnamese = true;
  st.cur = q;
  st.group = null;
  st.loose = [];
  st.looseGap = 0;
  const rest = { ...line, segs: sliceSegs(line.segs, start.rest, line.text.length), auto: undefined };
  rest.text = line.text.slice(start.rest).replace(/^\s*[.:]\s*/, '');
  if (rest.text.trim() !== '' || rest.segs.some((s) => s.kind !== 'text')) {
    if (METADATA_RE.test(rest.text)) {
      q.meta.push(rest);
      return q;
    }
    if (line.cell) q.stemCell = line.cell;
    if (!takeOptions(q, rest) && !splitInline(q, rest)) q.stem.push(trailingKey(q, rest));
  }
  return q;
}

/** A question without a label: its stem is the text since the previous question's last option or a heading. */
function implicitQuestion(st: State, stem: Line[]): QDraft {
  // the stem may open with the number that was read as a solution's list item: options under it confirm the label
  const bare = BARE_QUESTION_RE.exec(stem[0]!.text);
  const n = bare ? Number(bare[1]) : 0;
  const labelled = bare && (n === lastNumber(st) + 1 || n === 1);
  const start: Start = labelled
    ? { number: n, rest: bare[0].length, kind: 'bare' }
    : { number: lastNumber(st) + 1, rest: 0, kind: 'implicit' };
  const q = newQuestion(st, stem[0]!, start);
  pushAll(q.stem, stem.slice(1));
  return q;
}

/** A Word-numbered item taken as an option (the list-options reading): its number is dropped, its letter is its
 * place. */
function takeListOption(st: State, q: QDraft, line: Line): boolean {
  if (!listOption(st, line)) return false;
  const at = line.auto!.label.length + 1;
  const body = {
    ...line,
    auto: undefined,
    text: line.text.slice(at),
    segs: sliceSegs(line.segs, at, line.text.length),
  };
  if (!takeUnlettered(q, body, 'list')) return false;
  st.conventions.add('options:list-numbers');
  return true;
}

/** A Word list item (a bullet, or a number under the typed-labels reading) after a lettered option list: the
 * question's explanation, not more of its last option. The question stays open to a next label. */
function takeExplanation(st: State, q: QDraft, line: Line): boolean {
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

function takeStructured(q: QDraft, line: Line): boolean {
  if (takeOptions(q, line) || takeTrailingA(q, line) || takeSub(q, line) || takeBoxOption(q, line)) return true;
  if (q.mode === 'stem' && (takeGluedA(q, line) || splitInline(q, line))) return true;
  return (
    line.bullet === true && (q.mode === 'stem' || q.lettersByOrder === 'bullet') && takeUnlettered(q, line, 'bullet')
  );
}

/** A line that still belongs to a question whose options are done: its next option, key line or solution. */
function continues(q: QDraft, line: Line): boolean {
  const text = line.text.replace(/^\s*\*\s*/, '');
  const sub = SUB_RE.exec(text)?.[1];
  const next =
    OPTION_START_RE.exec(text)?.[1] === nextLabel(q.options, 'A') ||
    (sub !== undefined && (sub === nextLabel(q.subs, 'a') || recounted(q, line, sub)));
  return next || keyLineValue(q, line.text) !== null || SOLUTION_RE.test(line.text);
}

/** The option or statement list a question is in the middle of, if any. */
function openList(q: QDraft | null): LabeledDraft[] | null {
  if (q?.mode === 'options') return q.options;
  return q?.mode === 'subs' ? q.subs : null;
}

/** A key line ends the options; the lines after it are the solution. An empty key field (`Answer:`) is read as one
 * without a value, and metadata lines (`Difficulty: Hard`) are kept apart. */
function takeKeyLine(q: QDraft, line: Line): boolean {
  if (METADATA_RE.test(line.text) && (q.stem.length > 0 || q.options.length > 0 || q.mode !== 'stem')) {
    q.meta.push(line);
    return true;
  }
  if (ANSWER_PLACEHOLDER_RE.test(line.text) && (q.options.length > 0 || q.subs.length > 0)) {
    q.keyField = true;
    q.mode = 'answered';
    q.answeredAt = q.solution.length;
    return true;
  }
  const key = keyLineValue(q, line.text) ?? arrowKey(q, line.text);
  if (!key) return false;
  q.answerLines.push(key.value);
  q.mode = key.solution ? 'solution' : 'answered';
  q.answeredAt = q.solution.length + (key.solution ? 1 : 0);
  if (key.solution) q.solution.push(line);
  return true;
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

function takeSolution(st: State, q: QDraft, line: Line): boolean {
  const heading = SOLUTION_RE.test(line.text) || (st.blocks && /^\s*>/.test(line.text));
  if (q.mode !== 'solution' && q.mode !== 'answered' && !heading) return false;
  if (heading) q.mode = 'solution';
  q.solution.push(line);
  return true;
}

function inQuestion(st: State, q: QDraft, line: Line): void {
  q.para_end = line.para;
  if (takeKeyLine(q, line) || takeExplanation(st, q, line) || takeSolution(st, q, line)) return;
  if (takeListOption(st, q, line) || takeStructured(q, line)) return;
  if (st.blocks && q.stem.length > 0 && q.mode !== 'subs' && takeUnlettered(q, line, 'block')) return;
  if (takeCellOption(q, line)) return;
  if (q.mode === 'options') appendTo(q.options, line);
  else if (q.mode === 'subs') appendTo(q.subs, line);
  else {
    if (q.stem.length === 0 && line.cell) q.stemCell = line.cell;
    q.stem.push(trailingKey(q, line));
  }
}

/** A question laid out in a table (one per table, or one per row of a bank): after the cell its stem is in, each
 * line of a later cell or row is an option, lettered by order. */
function takeCellOption(q: QDraft, line: Line): boolean {
  const c = line.cell;
  const s = q.stemCell;
  if (!c || !s || c.table !== s.table || q.subs.length > 0) return false;
  if (c.row === s.row && c.col === s.col) return false;
  return (q.options.length === 0 || q.lettersByOrder === 'cell') && takeUnlettered(q, line, 'cell');
}

/** `statement → Sai (Đáp án đúng: …)`: the key typed after the stem is taken out of it, what follows is the solution. */
function trailingKey(q: QDraft, line: Line): Line {
  if (q.options.length > 0 || q.subs.length > 0) return line;
  const m = TRAILING_ARROW_KEY_RE.exec(line.text);
  if (!m) return line;
  q.answerLines.push(m[1]!);
  (q.removedKeys ??= []).push(m[0].trim());
  const rest = m[2]!.trim();
  if (rest !== '')
    q.solution.push({
      ...line,
      text: rest,
      segs: sliceSegs(line.segs, line.text.length - m[2]!.length, line.text.length),
    });
  q.mode = rest !== '' ? 'solution' : 'answered';
  q.answeredAt = q.solution.length;
  return { ...line, text: line.text.slice(0, m.index), segs: sliceSegs(line.segs, 0, m.index) };
}

/** Option A again after a finished option list, or after loose text: a new, unlabelled question begins. */
/** The text that would be the stem of an unlabelled question starting here, taken back from where it went. */
function stemBefore(st: State): Line[] {
  const cur = st.cur;
  // before the first question: the text since the last blank paragraph (a title and instructions stand above it)
  if (!cur) return st.looseGap > 0 && st.looseGap < st.loose.length ? st.loose.slice(st.looseGap) : st.loose;
  const list = cur.mode === 'options' ? cur.options : cur.mode === 'subs' ? cur.subs : null;
  if (list && list.length >= 2) {
    const last = list.at(-1)!;
    return last.more.splice(last.gap);
  }
  // after a key line (Aiken: "ANSWER: B", then the next question's text with no number)
  if (cur.mode === 'answered') return cur.solution.splice(cur.answeredAt ?? cur.solution.length);
  // after an explanation: its last paragraph, when it is not the explanation's first
  if (cur.mode !== 'solution' || cur.solution.length < 2) return [];
  const para = cur.solution.at(-1)!.para;
  let from = cur.solution.length;
  while (from > 1 && cur.solution[from - 1]!.para === para) from--;
  return from > 0 && cur.solution[from - 1]!.para !== para ? cur.solution.splice(from) : [];
}

/** Option A again after a finished option list, after a key line, or after loose text: a new, unlabelled question. */
function restartsQuestion(st: State, line: Line): boolean {
  const star = line.text.replace(/^\s*\*\s*/, '');
  const upper = OPTION_START_RE.exec(star)?.[1] === 'A';
  if (!upper && SUB_RE.exec(star)?.[1] !== 'a') return false;
  // a statement a) under a stem that has none yet is the stem's own; after a solution, an `a)` starts a question
  // only in the paragraph of its stem (a solution's own a), b) are its text)
  const cur = st.cur;
  if (!upper && cur && (cur.mode === 'stem' || (cur.mode === 'solution' && cur.solution.at(-1)?.para !== line.para)))
    return false;
  const stem = stemBefore(st);
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  const q = implicitQuestion(st, stem);
  return upper ? takeOptions(q, line) : takeSub(q, line);
}

function isBlank(line: Line): boolean {
  return line.text.trim() === '' && !line.segs.some((s) => s.kind !== 'text');
}

function handleLine(st: State, line: Line): void {
  if (isBlank(line)) return;
  contentLine(st, line);
  st.gap = false;
}

/** An empty paragraph: it separates blocks (a soft line break alone does not). */
function blankParagraph(st: State): void {
  st.gap = true;
  if (st.loose.length > 0) st.looseGap = st.loose.length;
  const list = openList(st.cur);
  if (list) markGap(list);
  if (st.blocks && st.cur) endQuestion(st);
}

/** Lines that are not a question's text: separators, headings, key sections, key lists. */
function outsideQuestion(st: State, line: Line): boolean {
  if (isSeparator(line.text) || heading(st, line)) return true;
  if (st.keyMode) {
    keyModeLine(st, line);
    return true;
  }
  const keyList = keyLineEntries(line.text, st.part);
  if (keyList.length === 0) return false;
  st.conventions.add('key-list');
  pushAll(st.keys, keyList);
  return true;
}

/** A new question: labelled, unlabelled after a finished one, or the next block of a label-free document. */
function startsQuestion(st: State, line: Line): boolean {
  const start = questionStart(st, line);
  if (start) newQuestion(st, line, start);
  else if (st.blocks && !st.cur) implicitQuestion(st, [line]);
  else return restartsQuestion(st, line);
  return true;
}

// After a blank paragraph, text under a finished option or statement list is not the last item's: a heading or the
// stem of a question that has no label.
function afterOptions(st: State, line: Line): void {
  const cur = st.cur;
  const list = openList(cur);
  const bulletOption = (line.bullet === true && cur?.lettersByOrder === 'bullet') || listOption(st, line);
  if (cur && list && list.length >= 2 && st.gap && !bulletOption && !continues(cur, line)) endQuestion(st);
}

function contentLine(st: State, line: Line): void {
  midPieces(st, line, (piece) => onePiece(st, piece));
}

/** A letter alone after a question's options (`B`, `(c)`), or the number of an option Word numbered (`2`): the key,
 * before it can be read as a label. */
function loneKey(q: QDraft | null, line: Line): boolean {
  if (!q || (q.mode !== 'options' && q.mode !== 'subs')) return false;
  const list = q.options.length >= 2 ? q.options : q.subs.length >= 2 ? q.subs : null;
  if (!list) return false;
  const numbered = q.lettersByOrder === 'list' ? /^\s*(\d)\s*\.?\s*$/.exec(line.text)?.[1] : undefined;
  const lone = numbered ? list[Number(numbered) - 1]?.label : LONE_LETTER_RE.exec(line.text.toUpperCase())?.[1];
  const next = nextLabel(list, list === q.options ? 'A' : 'a').toUpperCase();
  if (!lone || !list.some((o) => o.label.toUpperCase() === lone) || (!numbered && next === lone)) return false;
  q.answerLines.push(lone);
  q.mode = 'answered';
  q.answeredAt = q.solution.length;
  return true;
}

function onePiece(st: State, line: Line): void {
  if (loneKey(st.cur, line)) return;
  if (outsideQuestion(st, line) || startsQuestion(st, line) || groupStart(st, line)) return;
  afterOptions(st, line);
  if (st.cur) return inQuestion(st, st.cur, line);
  st.group?.content.push(line);
  st.loose.push(line);
}

function read(blocks: Block[], reading: Reading): Structure {
  const st: State = {
    reading,
    questions: [],
    groups: [],
    keys: [],
    conventions: new Set(),
    vietnamese: false,
    cur: null,
    group: null,
    open: [],
    part: null,
    partHint: null,
    keyMode: false,
    keyQuestion: null,
    loose: [],
    looseGap: 0,
    gap: false,
    blocks: labelFreeBlocks(blocks),
  };
  if (st.blocks) st.conventions.add('blocks-without-labels');
  for (const b of blocks) {
    if (b.kind !== 'p') handleTable(st, b, handleLine);
    else {
      const lines = paraLines(b);
      if (lines.every(isBlank)) blankParagraph(st);
      else lines.forEach((l) => handleLine(st, l));
    }
  }
  const { questions, groups, keys, conventions, vietnamese } = st;
  return numberedHeadings({ questions, groups, keys, conventions, vietnamese, headings: [] });
}

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

/**
 * Numbered section titles (`1. Concepts of Ethics`, `2. Quiz-Poster`) read like bare question labels. Where most
 * questions have a shape, a bare-labelled one that opens with such a title is corrected: a title over a stem that
 * follows is taken out of the stem; a title that is all the question has, with no shape, is no question.
 */
function numberedHeadings(s: Structure): Structure {
  if (s.questions.length < 3 || s.questions.filter(shaped).length < 0.75 * s.questions.length) return s;
  const keep: QDraft[] = [];
  for (const q of s.questions) {
    const first = q.stem[0];
    if (q.labelKind !== 'bare' || !first || !headingLike(first, 0) || q.points !== null) {
      keep.push(q);
      continue;
    }
    if (shaped(q) && q.stem.length > 1) {
      s.headings.push(q.stem.shift()!);
      keep.push(q);
    } else if (!shaped(q) && q.partHint !== 'ESSAY') pushAll(s.headings, q.stem);
    else keep.push(q);
  }
  if (keep.length === s.questions.length) return s;
  keep.forEach((q, i) => (q.id = `q${i + 1}`));
  return { ...s, questions: keep };
}

/** How well a reading explains the document: questions that have a shape (options, statements or a key) count, the
 * ones left without one count against it. */
function score(s: Structure): number {
  let n = 0;
  for (const q of s.questions) {
    const shaped = q.options.length >= 2 || q.subs.length >= 2 || q.answerLines.length > 0 || q.keyField === true;
    n += shaped ? 1 : -0.25;
  }
  return n;
}

const BASE: Reading = { listOptions: false, typedOnly: false };
const CANDIDATES: Reading[] = [
  { listOptions: true, typedOnly: false },
  { listOptions: false, typedOnly: true },
  { listOptions: true, typedOnly: true },
];

/** Reads the document under each candidate reading that can make a difference and keeps the one that explains it
 * best (the first, the plain reading, on a tie). */
export function buildStructure(blocks: Block[]): Structure {
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
