// Opening a question (labels.ts finds where one starts): a labelled one, the next block of a label-free document, or
// an unlabelled one where option A or statement a) comes again, its stem taken back from where it went.
import type { LabeledDraft, QDraft, State } from './drafts.js';
import { clearLoose, groupOf } from './groups.js';
import { trailingKey } from './keyfields.js';
import { firstChoiceLabel, lastNumber, listRestart, questionStart, type Start } from './labels.js';
import { sliceSegs, type CellPlace, type Line } from './lines.js';
import { splitInline, takeListItem, takeOptions, takeSub, takeUnlettered } from './options.js';
import { ANSWER_RE, BARE_QUESTION_RE, METADATA_RE, POINTS_RE, SOLUTION_RE } from './patterns.js';
import { pushAll } from './types.js';

/** A Word-numbered question's list, which its options may not be in. */
function ownList(start: Start, line: Line): { autoList?: string } {
  return start.kind === 'auto' && line.auto?.list !== undefined ? { autoList: line.auto.list } : {};
}

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
    solution: [],
    tables: 0,
    points: points ? Number(points[1]!.replace(',', '.')) : null,
    tfTable: null,
    para_start: line.para,
    para_end: line.para,
    mode: 'stem',
    ...ownList(start, line),
  };
  st.questions.push(q);
  st.conventions.add(`label:${start.kind}`);
  if (start.kind === 'word' && /^\s*(?:Câu|Bài)/iu.test(line.text)) st.vietnamese = true;
  st.cur = q;
  st.group = null;
  clearLoose(st);
  const rest = { ...line, segs: sliceSegs(line.segs, start.rest, line.text.length), auto: undefined };
  rest.text = line.text.slice(start.rest).replace(/^\s*[.:]\s*/, '');
  if (rest.text.trim() !== '' || rest.segs.some((s) => s.kind !== 'text')) {
    if (METADATA_RE.test(rest.text)) return q;
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

/** The option or statement list a question is in the middle of, if any. */
export function openList(q: QDraft | null): LabeledDraft[] | null {
  if (q?.mode === 'options') return q.options;
  return q?.mode === 'subs' ? q.subs : null;
}

/** Before the first question: the text since the last blank paragraph (a title and instructions stand above it),
 * or, where a blank paragraph ends the text, the text between it and the blank paragraph before. */
function looseStem(st: State): Line[] {
  if (st.looseGap === st.loose.length) return st.loose.slice(st.looseRun);
  return st.loose.slice(st.looseGap);
}

/** Where the solution's last paragraph begins among its lines (0: the solution is one paragraph, or none). */
function lastParagraphFrom(solution: Line[]): number {
  const para = solution.at(-1)?.para;
  let from = solution.length;
  while (from > 0 && solution[from - 1]!.para === para) from--;
  return from;
}

/** After an explanation: its last paragraph, when it is not the explanation's first. */
function lastSolutionParagraph(cur: QDraft): Line[] {
  const from = lastParagraphFrom(cur.solution);
  return from > 0 ? cur.solution.splice(from) : [];
}

/** The text that would be the stem of an unlabelled question starting here, taken back from where it went. */
function stemBefore(st: State): Line[] {
  const cur = st.cur;
  if (!cur) return looseStem(st);
  const list = openList(cur);
  if (list && list.length >= 2) {
    const last = list.at(-1)!;
    return last.more.splice(last.gap);
  }
  // after a key line (Aiken: "ANSWER: B", then the next question's text with no number)
  if (cur.mode === 'answered') return cur.solution.splice(cur.answeredAt ?? cur.solution.length);
  return cur.mode === 'solution' ? lastSolutionParagraph(cur) : [];
}

/** The label that may restart a question: option `A` (a star before it aside), or statement `a`. */
function restartLabel(line: Line): 'A' | 'a' | null {
  return firstChoiceLabel(line.text);
}

/** The solution's last paragraph stands apart from the rest of it (a paragraph of no line, a blank one, between). */
function paragraphApart(solution: Line[]): boolean {
  const from = lastParagraphFrom(solution);
  return from > 0 && solution[from - 1]!.para < solution[from]!.para - 1;
}

/** After a solution, where an `a)` starts the next question: in the paragraph of its stem, in a table under it, or as
 * a Word-lettered a. (or one after a blank paragraph, or under a paragraph apart from the solution: the next stem)
 * after a question whose options (or, outside a Vietnamese exam, statements) are done — in a Vietnamese exam a
 * solution explains statements a) … d) in one. */
function startsAfterSolution(st: State, cur: QDraft, line: Line): boolean {
  const last = cur.solution.at(-1);
  if (last?.para === line.para) return true;
  if (line.cell !== undefined && last !== undefined && last.cell === undefined) return true;
  return apartFromSolution(st, cur, line) && choicesDone(st, cur);
}

/** The line stands apart from the solution: Word-lettered, after a blank paragraph, or under a paragraph apart. */
function apartFromSolution(st: State, cur: QDraft, line: Line): boolean {
  return line.auto !== undefined || st.gap || paragraphApart(cur.solution);
}

/** The question's options are done (or, outside a Vietnamese exam, its statements). */
function choicesDone(st: State, cur: QDraft): boolean {
  return cur.options.length >= 2 || (cur.subs.length >= 2 && !st.vietnamese);
}

/** A statement a) under a stem that has none yet is the stem's own; after a solution, an `a)` is the solution's own
 * text unless it starts the next question there. */
function ownStatement(st: State, line: Line): boolean {
  const cur = st.cur;
  if (!cur) return false;
  if (cur.mode === 'stem') return true;
  return cur.mode === 'solution' && !startsAfterSolution(st, cur, line);
}

/** Under the list-options reading, a Word-numbered item 1 after loose text or a finished question: an unlabelled
 * question, the item its first option. */
function listRestarts(st: State, line: Line): boolean {
  if (!listRestart(st, line)) return false;
  const stem = stemBefore(st);
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  st.conventions.add('options:list-numbers');
  return takeListItem(implicitQuestion(st, stem), line);
}

/** Under the unlabelled-stems reading, where a bullet starts a question: before any, or after an unlabelled one
 * whose options are followed by text (its key, its explanation, the next stem). */
function bulletRestart(st: State, line: Line): boolean {
  if (!st.reading.unlabelledStems || line.bullet !== true) return false;
  const q = st.cur;
  if (!q) return true;
  if (q.labelKind !== 'implicit' || q.lettersByOrder !== 'bullet') return false;
  return q.mode !== 'options' || (q.options.at(-1)?.more.length ?? 0) > 0;
}

/** A bullet that starts an unlabelled question, its stem the text before it. */
function bulletRestarts(st: State, line: Line): boolean {
  if (!bulletRestart(st, line)) return false;
  const stem = stemBefore(st);
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  return takeUnlettered(implicitQuestion(st, stem), line, 'bullet');
}

/** A bank table without numbers: the next row opening in the column of the question's stem, once the question has
 * its options or statements, is the next question's stem (so is the next table's first line, nextOwnTable). */
function nextBankRow(s: CellPlace, c: CellPlace): boolean {
  const rows = (s.width ?? 1) >= 2 && (c.width ?? 1) >= 2;
  return rows && c.lead === true && c.table === s.table && c.row > s.row && c.col === s.col;
}

/** One table per question: an unlabelled question whose stem opened its own table, and the first line of another
 * table (its top left cell), which is the next question's stem. */
function nextOwnTable(q: QDraft, s: CellPlace, c: CellPlace): boolean {
  const own = (p: CellPlace) => p.row === 0 && p.col === 0;
  return q.labelKind === 'implicit' && c.table !== s.table && own(s) && own(c) && c.lead === true;
}

function rowRestarts(st: State, line: Line): boolean {
  const q = st.cur;
  const s = q?.stemCell;
  const c = line.cell;
  if (!q || !s || !c || !(nextBankRow(s, c) || nextOwnTable(q, s, c)) || restartLabel(line) !== null) return false;
  if (q.options.length < 2 && q.subs.length < 2) return false;
  st.conventions.add('label:implicit');
  implicitQuestion(st, [line]).stemCell = line.cell;
  return true;
}

/** Option A again after a finished option list, after a key line, or after loose text: a new, unlabelled question. */
function restartsQuestion(st: State, line: Line): boolean {
  if (listRestarts(st, line) || bulletRestarts(st, line) || rowRestarts(st, line)) return true;
  const label = restartLabel(line);
  if (label === null || (label === 'a' && ownStatement(st, line))) return false;
  const stem = stemBefore(st);
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  const q = implicitQuestion(st, stem);
  return label === 'A' ? takeOptions(q, line) : takeSub(q, line);
}

/** A key word before letters (`Answer: B`) or before an explanation of several words (`Antwort: … weil …`);
 * not an instruction that names the answer (`Chọn đáp án đúng`). */
function keyBlock(text: string): boolean {
  const value = ANSWER_RE.exec(text)?.[2]?.trim();
  if (value === undefined) return false;
  return /^[A-G](?:\s*[,;]\s*[A-G])*\.?$/u.test(value) || value.split(/\s+/u).length >= 6;
}

/** In a label-free document, a block that is a key, an explanation or an item's metadata (`Answer: B`,
 * `Explanation: …`, `Difficulty: …`) belongs to the question before it: it is reopened, and no question starts. */
function reopens(st: State, line: Line): boolean {
  const last = st.questions.at(-1);
  if (!last || !(keyBlock(line.text) || SOLUTION_RE.test(line.text) || METADATA_RE.test(line.text))) return false;
  st.cur = last;
  return true;
}

/** A new question: labelled, unlabelled after a finished one, or the next block of a label-free document. */
export function startsQuestion(st: State, line: Line): boolean {
  const start = questionStart(st, line);
  if (start) newQuestion(st, line, start);
  else if (st.blocks && !st.cur) {
    if (reopens(st, line)) return false;
    implicitQuestion(st, [line]);
  } else return restartsQuestion(st, line);
  return true;
}
