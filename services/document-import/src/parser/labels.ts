// Where a question starts: its label (worded, Word-numbered, bracketed or a bare number), a label a PDF-to-Word
// conversion left in the middle of a paragraph, or no label at all (blocks between blank paragraphs).
import type { LabelKind, QDraft, State } from './drafts.js';
import { SegCutter, type Line } from './lines.js';
import {
  AUTO_QUESTION_LABEL_RE,
  BARE_QUESTION_RE,
  BRACKET_QUESTION_RE,
  MID_QUESTION_RE,
  OPTION_START_RE,
  QUESTION_RE,
  SUB_RE,
  UNNUMBERED_QUESTION_RE,
} from './patterns.js';
import type { Block, Para } from './types.js';

export interface Start {
  number: number;
  /** where the stem starts in the line */
  rest: number;
  kind: LabelKind;
}

export function lastNumber(st: State): number {
  return st.questions.at(-1)?.number ?? 0;
}

function answered(q: QDraft): boolean {
  return q.options.length > 0 || q.subs.length > 0 || q.answerLines.length > 0;
}

/** Inside a solution, or in the unanswered stem of a question labelled another way, a number is a list item. */
function listItemContext(cur: QDraft | null): boolean {
  if (!cur) return false;
  if (cur.mode === 'solution') return true;
  return cur.labelKind !== 'bare' && cur.labelKind !== 'implicit' && !answered(cur);
}

/** After a blank paragraph, or opening a table's row (its own table, or a bank's next row): where the next
 * question's number may stand. */
function atBoundary(st: State, line: Line): boolean {
  const c = line.cell;
  return st.gap || (c !== undefined && c.col <= 1 && (c.row === 0 || c.lead === true));
}

/** The solution has a line numbered `n` (`2. …`): a list of its own that the next number runs on. */
function solutionCounts(q: QDraft, n: number): boolean {
  return q.solution.some((l) => Number(BARE_QUESTION_RE.exec(l.text)?.[1]) === n);
}

/** In a list item's context, the number is a list item: a solution's numbered list runs on, but the next question's
 * number after a blank paragraph or at the top of its own table does not, nor the next number after a solution that
 * holds no list it would continue. */
function listItemNumber(st: State, n: number, line: Line): boolean {
  if (!listItemContext(st.cur)) return false;
  const last = lastNumber(st);
  const next = n === last + 1 || n === last;
  if (st.cur?.mode !== 'solution') return true;
  if (n === last + 1 && answered(st.cur) && !solutionCounts(st.cur, n - 1)) return false;
  return !(atBoundary(st, line) && next);
}

/** A little after the last number (a deleted question leaves a gap), or 1 after a finished question; a number used
 * twice (a teacher's slip) after a finished question and a blank paragraph (or opening a bank's row) is the next
 * question. */
function expectedNumber(st: State, n: number, line: Line): boolean {
  const last = lastNumber(st);
  const finished = !st.cur || answered(st.cur);
  return (n > last && n <= last + 3) || (n === 1 && finished) || (n === last && finished && atBoundary(st, line));
}

/** The line goes on in the cell of the question's last line, in a table of columns (a bank's stem or solution
 * cell): a number there is the cell's own list (`1. …` statements under a stem), never the next question, whose
 * number stands in a row of its own. A table of one column (a frame around a whole paper) is not one. */
function insideCell(st: State, line: Line): boolean {
  const q = st.cur;
  const c = line.cell;
  if (!q || !c || (c.width ?? 1) < 2) return false;
  const last = (q.mode === 'solution' ? q.solution : q.stem).at(-1)?.cell;
  return last !== undefined && last.table === c.table && last.row === c.row && last.col === c.col;
}

// A bare number starts a question only where one is expected.
function bareAllowed(st: State, n: number, line: Line): boolean {
  if (st.questions.length === 0) return true;
  return !insideCell(st, line) && !listItemNumber(st, n, line) && expectedNumber(st, n, line);
}

function wordStart(st: State, line: Line): Start | null {
  const unnumbered = UNNUMBERED_QUESTION_RE.exec(line.text);
  if (unnumbered) return { number: lastNumber(st) + 1, rest: unnumbered[0].length, kind: 'word' };
  const word = QUESTION_RE.exec(line.text);
  if (!word) return null;
  const n = Number(word[1]);
  // an item-bank id (`Item ID: 30324`) is not a question number
  return { number: n > 999 ? lastNumber(st) + 1 : n, rest: word[0].length, kind: 'word' };
}

/** Under the list-options reading, the number of a Word-numbered item, or null. */
function itemNumber(st: State, line: Line): number | null {
  if (!st.reading.listOptions || !line.auto) return null;
  const n = AUTO_QUESTION_LABEL_RE.exec(line.auto.label)?.[1];
  return n === undefined ? null : Number(n);
}

/** An item of another Word list than the question's own, or of a lower level in it: no next question. */
function otherList(q: QDraft, line: Line): boolean {
  return q.autoList !== undefined && (line.auto!.list !== q.autoList || line.auto!.level > 0);
}

/** The number of a Word-numbered item under a typed question, under a Word-numbered one in a list of its own (or a
 * level below), or under an unlabelled one whose options are such items; null elsewhere. */
function listNumber(st: State, line: Line): number | null {
  const q = st.cur;
  if (!q || !line.auto) return null;
  if (q.labelKind === 'auto' && !otherList(q, line)) return null;
  if (q.labelKind === 'implicit' && q.lettersByOrder !== 'list') return null;
  return itemNumber(st, line);
}

/** Under the list-options reading, a Word-numbered item 1 that is no option of the current question, in a document
 * whose questions have no label (none yet, or the current one has none): the first option of an unlabelled question
 * whose stem is the text before it. After a labelled question a list is its text or the next questions, not this. */
export function listRestart(st: State, line: Line): boolean {
  if (itemNumber(st, line) !== 1 || line.auto!.level !== 0 || listOption(st, line)) return false;
  if (st.overLists?.has(line.para)) return false;
  // with no text before it, the item has no stem to be an option of: it is the first question
  return st.cur ? st.cur.labelKind === 'implicit' : st.loose.length > 0;
}

/** Under the list-options reading, a Word-numbered item counting 1, 2, 3 under a typed question is its option. */
export function listOption(st: State, line: Line): boolean {
  const n = listNumber(st, line);
  const q = st.cur;
  if (n === null || !q) return false;
  if (q.options.length === 0) return n === 1 && q.subs.length === 0 && q.mode === 'stem';
  return q.lettersByOrder === 'list' && n === q.options.length + 1;
}

/** Under the typed-labels reading, a Word-numbered item right after a lettered option list, or after such an item,
 * explains the question (structure.ts takeExplanation); anywhere else it may still start a question. */
function explanationItem(st: State): boolean {
  const q = st.cur;
  if (!st.reading.typedOnly || !q) return false;
  return lettersDone(q) || q.explained === true;
}

/** A lettered option (or statement) list the question is in, at least two long. */
export function lettersDone(q: QDraft): boolean {
  if (q.mode === 'options') return q.options.length >= 2 && !q.lettersByOrder;
  return q.mode === 'subs' && q.subs.length >= 2;
}

function autoStart(st: State, line: Line): Start | null {
  if (listOption(st, line) || explanationItem(st) || listRestart(st, line)) return null;
  const auto = line.auto?.level === 0 ? AUTO_QUESTION_LABEL_RE.exec(line.auto.label) : null;
  return auto ? { number: Number(auto[1]), rest: line.auto!.label.length + 1, kind: 'auto' } : null;
}

function bareStart(st: State, line: Line): Start | null {
  const bracket = BRACKET_QUESTION_RE.exec(line.text);
  if (bracket) return { number: Number(bracket[1]), rest: bracket[0].length, kind: 'bracket' };
  const bare = st.blocks || line.auto ? null : BARE_QUESTION_RE.exec(line.text);
  if (!bare || !bareAllowed(st, Number(bare[1]), line)) return null;
  return { number: Number(bare[1]), rest: bare[0].length, kind: 'bare' };
}

export function questionStart(st: State, line: Line): Start | null {
  return wordStart(st, line) ?? autoStart(st, line) ?? bareStart(st, line);
}

/** Where the next worded label numbered `want` sits in the line after `from` (the start of its word), or -1. */
function nextMidLabel(text: string, from: number, want: number): number {
  MID_QUESTION_RE.lastIndex = from;
  for (let m = MID_QUESTION_RE.exec(text); m; m = MID_QUESTION_RE.exec(text)) {
    if (Number(m[2]) === want) return m.index + m[0].length - m[1]!.length;
  }
  return -1;
}

/**
 * "… đáp án đúng. Câu 12: …" — a worded label later in the line, the next number in sequence, splits it; each piece
 * is handled before the next label is looked for (a piece may start the question that the next number follows).
 * Linear in the line: each search starts where the last piece ended and cuts find their segments by binary search.
 */
export function midPieces(st: State, line: Line, handle: (piece: Line) => void): void {
  let from = 0;
  let cutter: SegCutter | null = null;
  const piece = (to: number): Line => {
    cutter ??= new SegCutter(line.segs);
    const cut = { ...line, text: line.text.slice(from, to), segs: cutter.slice(from, to) };
    return from === 0 ? cut : { ...cut, auto: undefined };
  };
  for (;;) {
    const at = st.keyMode ? -1 : nextMidLabel(line.text, from, lastNumber(st) + 1);
    if (at < 0) break;
    st.conventions.add('label:mid-paragraph');
    handle(piece(at));
    from = at;
  }
  handle(from === 0 ? line : piece(line.text.length));
}

function firstItem(p: Para): boolean {
  return p.autoLevel === 0 && AUTO_QUESTION_LABEL_RE.exec(p.autoLabel ?? '')?.[1] === '1';
}

/** An item of `prev`'s own list one level or more below it, counting from 1: its first sub-item. */
function firstSubItem(prev: Para, b: Para): boolean {
  if (b.autoList !== prev.autoList || (b.autoLevel ?? 0) <= (prev.autoLevel ?? 0)) return false;
  return /^\(?(?:1|[aA])[.):]?$/.test(b.autoLabel ?? '');
}

/** The body paragraphs of a Word list whose next non-blank paragraph opens another list at 1, or its own list's
 * level below at 1 (a question over its options, State.overLists). */
export function overLists(blocks: Block[]): Set<number> {
  const out = new Set<number>();
  let prev: Para | null = null;
  for (const b of blocks) {
    if (b.kind !== 'p') prev = null;
    else if (!isBlankPara(b)) {
      if (prev && ((firstItem(b) && b.autoList !== prev.autoList) || firstSubItem(prev, b))) out.add(prev.index);
      prev = b.autoList === undefined ? null : b;
    }
  }
  return out;
}

function firstLine(p: Para): string {
  const text = p.segs.map((s) => s.text).join('');
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

function isBlankPara(p: Para): boolean {
  return p.segs.every((s) => s.kind === 'text' && s.text.trim() === '');
}

/** A text opening with the first label of a list of choices: option `A`, or statement `a` (a star before it aside). */
export function firstChoiceLabel(text: string): 'A' | 'a' | null {
  const star = text.replace(/^\s*\*\s*/, '');
  if (OPTION_START_RE.exec(star)?.[1] === 'A') return 'A';
  return SUB_RE.exec(star)?.[1] === 'a' ? 'a' : null;
}

/** Labels of questions or options in a paragraph: worded, bracketed, Word-numbered, or an option A or a. */
function labelled(p: Para, first: string): boolean {
  if (QUESTION_RE.test(first) || UNNUMBERED_QUESTION_RE.test(first) || BRACKET_QUESTION_RE.test(first)) return true;
  if (firstChoiceLabel(first) !== null) return true;
  if (p.autoLabel === undefined) return false;
  // Word's number alone (`1.`, `a)`) or a worded one (`Câu 1.`, `Question 1:`)
  return /^\(?(?:\d{1,3}|[Aa])[.):]?$/.test(p.autoLabel) || QUESTION_RE.test(`${p.autoLabel} ${first}`);
}

// Without any label (of questions or of options), questions are blocks of paragraphs between blank ones (the
// NukeViet/AZtest import format): the first paragraph is the stem, the next ones are options, `>` lines the solution.
// Bare numbers count as labels only when they run 1, 2, 3 (option texts such as "2." do not).
export function labelFreeBlocks(blocks: Block[]): boolean {
  const paras = blocks.filter((b): b is Para => b.kind === 'p');
  let labels = 0;
  let bareSeen = 0;
  for (const p of paras) {
    const first = firstLine(p);
    const bare = BARE_QUESTION_RE.exec(first);
    if (bare && Number(bare[1]) === bareSeen + 1) bareSeen++;
    if (labelled(p, first)) labels++;
  }
  return labels + Math.max(0, bareSeen - 1) < 2 && questionSizedRuns(paras) >= 2;
}

/** Runs of 3 to 12 non-blank paragraphs: a stem and its options. */
function questionSizedRuns(paras: Para[]): number {
  let runs = 0;
  let run = 0;
  for (const p of [...paras, null]) {
    if (p && !isBlankPara(p)) {
      run++;
      continue;
    }
    if (run >= 3 && run <= 12) runs++;
    run = 0;
  }
  return runs;
}
