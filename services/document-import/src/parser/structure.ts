// Reads the document's blocks as a stream of lines, in one reading of its layout: where each question starts and
// which of its fields (stem, options, statements, key, solution) each line belongs to.
import type { QDraft, Reading, State, Structure } from './drafts.js';
import { endQuestion, groupStart, heading } from './groups.js';
import { loneKey, takeExplanation, takeKeyLine, takeSolution, trailingKey } from './keyfields.js';
import { keyLineEntries } from './keys.js';
import { keyLineValue, keyModeLine } from './keylines.js';
import { labelFreeBlocks, listOption, midPieces, overLists } from './labels.js';
import { paraLines, type Line } from './lines.js';
import {
  appendTo,
  markGap,
  nextLabel,
  recounted,
  splitInline,
  takeGluedA,
  takeOptions,
  takeBoxOption,
  takeListItem,
  takeSub,
  takeTrailingA,
  takeUnlettered,
} from './options.js';
import { isSeparator, OPTION_START_RE, SOLUTION_RE, SUB_RE } from './patterns.js';
import { openList, startsQuestion } from './starts.js';
import { handleTable } from './tables.js';
import { type Block, pushAll } from './types.js';

/** A Word-numbered item taken as an option (the list-options reading): its number is dropped, its letter is its
 * place. */
function takeListOption(st: State, q: QDraft, line: Line): boolean {
  if (!listOption(st, line) || !takeListItem(q, line)) return false;
  st.conventions.add('options:list-numbers');
  return true;
}

/** An option or statement with a label (`A.`, `a)`, `A` glued or trailing, a ballot box). */
function takeLettered(q: QDraft, line: Line): boolean {
  return takeOptions(q, line) || takeTrailingA(q, line) || takeSub(q, line) || takeBoxOption(q, line);
}

/** In a stem: option A glued to stray characters, or options typed on the stem's own line. */
function takeInStem(q: QDraft, line: Line): boolean {
  return q.mode === 'stem' && (takeGluedA(q, line) || splitInline(q, line));
}

/** A bullet under a stem, or under options that bullets began: an option lettered by order. */
function takeBullet(q: QDraft, line: Line): boolean {
  return (
    line.bullet === true && (q.mode === 'stem' || q.lettersByOrder === 'bullet') && takeUnlettered(q, line, 'bullet')
  );
}

/** An option or statement, lettered or lettered by order (bullets). */
function takeStructured(q: QDraft, line: Line): boolean {
  return takeLettered(q, line) || takeInStem(q, line) || takeBullet(q, line);
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

/** A line of the question taken as one of its fields: a key, solution, option, statement or explanation. */
function takesLine(st: State, q: QDraft, line: Line): boolean {
  if (takeKeyLine(q, line) || takeExplanation(st, q, line) || takeSolution(st, q, line)) return true;
  if (takeListOption(st, q, line) || takeStructured(q, line)) return true;
  return takeBlockOption(st, q, line) || takeCellOption(q, line);
}

/** A line that is no field of its own: more of the open option or statement, or of the stem. */
function appendLine(q: QDraft, line: Line): void {
  if (q.mode === 'options') appendTo(q.options, line);
  else if (q.mode === 'subs') appendTo(q.subs, line);
  else {
    if (q.stem.length === 0 && line.cell) q.stemCell = line.cell;
    q.stem.push(trailingKey(q, line));
  }
}

/** A line inside the current question: one of its fields, or more of the text it is in. */
function inQuestion(st: State, q: QDraft, line: Line): void {
  q.para_end = line.para;
  if (!takesLine(st, q, line)) appendLine(q, line);
}

/** In a document without labels, a line after its block's stem is an option lettered by order; where the document
 * letters its options by bullets, only a bullet is (a title block's lines are no options). */
function takeBlockOption(st: State, q: QDraft, line: Line): boolean {
  if (!st.blocks || q.stem.length === 0 || q.mode === 'subs' || st.bulleted) return false;
  return takeUnlettered(q, line, 'block');
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
  if (st.loose.length > st.looseGap) [st.looseRun, st.looseGap] = [st.looseGap, st.loose.length];
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
  const keyList = keyLineEntries(line.text, st.part, st.keyRun ?? null);
  st.keyRun = keyList.at(-1)?.number ?? null;
  if (keyList.length === 0) return false;
  st.conventions.add('key-list');
  pushAll(st.keys, keyList);
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

/** In a label-free document a blank paragraph ends the question, and a letter alone after it (`D`) is still that
 * question's key: the question is reopened. */
function blockKey(st: State, line: Line): boolean {
  const last = st.blocks && !st.cur ? st.questions.at(-1) : undefined;
  if (!last || !loneKey(last, line)) return false;
  st.cur = last;
  return true;
}

function onePiece(st: State, line: Line): void {
  if (loneKey(st.cur, line) || blockKey(st, line)) return;
  if (outsideQuestion(st, line) || startsQuestion(st, line) || groupStart(st, line)) return;
  afterOptions(st, line);
  if (st.cur) return inQuestion(st, st.cur, line);
  st.group?.content.push(line);
  st.loose.push(line);
}

/** The document's questions, groups and keys under one reading of its layout (readings.ts picks the reading). */
export function readStructure(blocks: Block[], reading: Reading): Structure {
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
    looseRun: 0,
    gap: false,
    // under the unlabelled-stems reading the bullets mark the questions, and a blank paragraph ends none
    blocks: !reading.unlabelledStems && labelFreeBlocks(blocks),
    bulleted: blocks.some((b) => b.kind === 'p' && b.bullet === true),
    overLists: reading.listOptions ? overLists(blocks) : undefined,
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
  return { questions, groups, keys, conventions, vietnamese };
}
