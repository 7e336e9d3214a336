import type { LabeledDraft, QDraft, State, Structure } from './drafts.js';
import { endQuestion, groupOf, groupStart, heading } from './groups.js';
import { keyLineEntries } from './keys.js';
import { keyLineValue, keyModeLine } from './keylines.js';
import { labelFreeBlocks, lastNumber, midPieces, questionStart, type Start } from './labels.js';
import { paraLines, sliceSegs, type Line } from './lines.js';
import {
  appendTo,
  markGap,
  nextLabel,
  recounted,
  splitInline,
  takeGluedA,
  takeOptions,
  takeSub,
  takeTrailingA,
  takeUnlettered,
} from './options.js';
import { isSeparator, OPTION_START_RE, POINTS_RE, SOLUTION_RE, SUB_RE } from './patterns.js';
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
  const rest = { ...line, segs: sliceSegs(line.segs, start.rest, line.text.length), auto: undefined };
  rest.text = line.text.slice(start.rest).replace(/^\s*[.:]\s*/, '');
  if (rest.text.trim() !== '' || rest.segs.some((s) => s.kind !== 'text')) {
    if (!takeOptions(q, rest) && !splitInline(q, rest)) q.stem.push(rest);
  }
  return q;
}

/** A question without a label: its stem is the text since the previous question's last option or a heading. */
function implicitQuestion(st: State, stem: Line[]): QDraft {
  const q = newQuestion(st, stem[0]!, { number: lastNumber(st) + 1, rest: 0, kind: 'implicit' });
  pushAll(q.stem, stem.slice(1));
  return q;
}

function takeStructured(q: QDraft, line: Line): boolean {
  if (takeOptions(q, line) || takeTrailingA(q, line) || takeSub(q, line)) return true;
  if (q.mode === 'stem' && (takeGluedA(q, line) || splitInline(q, line))) return true;
  return line.bullet === true && (q.mode === 'stem' || q.lettersByOrder === true) && takeUnlettered(q, line);
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

/** A key line ends the options; the lines after it are the solution. */
function takeKeyLine(q: QDraft, line: Line): boolean {
  const key = keyLineValue(q, line.text);
  if (!key) return false;
  q.answerLines.push(key.value);
  q.mode = key.solution ? 'solution' : 'answered';
  q.answeredAt = q.solution.length + (key.solution ? 1 : 0);
  if (key.solution) q.solution.push(line);
  return true;
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
  if (takeKeyLine(q, line) || takeSolution(st, q, line) || takeStructured(q, line)) return;
  if (st.blocks && q.stem.length > 0 && q.mode !== 'subs' && takeUnlettered(q, line)) return;
  if (q.mode === 'options') appendTo(q.options, line);
  else if (q.mode === 'subs') appendTo(q.subs, line);
  else q.stem.push(line);
}

/** Option A again after a finished option list, or after loose text: a new, unlabelled question begins. */
/** The text that would be the stem of an unlabelled question starting here, taken back from where it went. */
function stemBefore(st: State): Line[] {
  const cur = st.cur;
  if (!cur) return st.loose;
  if (cur.mode === 'options' && cur.options.length >= 2) {
    const last = cur.options.at(-1)!;
    return last.more.splice(last.gap);
  }
  // after a key line (Aiken: "ANSWER: B", then the next question's text with no number)
  return cur.mode === 'answered' ? cur.solution.splice(cur.answeredAt ?? cur.solution.length) : [];
}

/** Option A again after a finished option list, after a key line, or after loose text: a new, unlabelled question. */
function restartsQuestion(st: State, line: Line): boolean {
  const star = line.text.replace(/^\s*\*\s*/, '');
  if (OPTION_START_RE.exec(star)?.[1] !== 'A') return false;
  const stem = stemBefore(st);
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  const q = implicitQuestion(st, stem);
  return takeOptions(q, line);
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
  const bulletOption = line.bullet === true && cur?.lettersByOrder === true;
  if (cur && list && list.length >= 2 && st.gap && !bulletOption && !continues(cur, line)) endQuestion(st);
}

function contentLine(st: State, line: Line): void {
  midPieces(st, line, (piece) => onePiece(st, piece));
}

function onePiece(st: State, line: Line): void {
  if (outsideQuestion(st, line) || startsQuestion(st, line) || groupStart(st, line)) return;
  afterOptions(st, line);
  if (st.cur) return inQuestion(st, st.cur, line);
  st.group?.content.push(line);
  st.loose.push(line);
}

export function buildStructure(blocks: Block[]): Structure {
  const st: State = {
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
  return { questions, groups, keys, conventions, vietnamese };
}
