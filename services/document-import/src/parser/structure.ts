import type { LabelKind, QDraft, State, Structure } from './drafts.js';
import { groupOf, openGroup, passageStart, sectionStart } from './groups.js';
import { inlineKeyEntries, keyLineEntries } from './keys.js';
import { paraLines, sliceSegs, type Line } from './lines.js';
import {
  appendTo,
  markGap,
  nextLabel,
  splitInline,
  takeGluedA,
  takeOptions,
  takeSub,
  takeTrailingA,
  takeUnlettered,
} from './options.js';
import {
  ANSWER_RE,
  AUTO_QUESTION_LABEL_RE,
  BARE_QUESTION_RE,
  BRACKET_QUESTION_RE,
  GROUP_RE,
  KEY_HEADING_RE,
  LEVEL_RE,
  MID_QUESTION_RE,
  OPTION_START_RE,
  PART_RE,
  POINTS_RE,
  QUESTION_RE,
  SEPARATOR_RE,
  SOLUTION_ANSWER_RE,
  SOLUTION_RE,
  partHint,
} from './patterns.js';
import { answerValue } from './answers.js';
import { handleTable } from './tables.js';
import type { Block } from './types.js';

interface Start {
  number: number;
  /** where the stem starts in the line */
  rest: number;
  kind: LabelKind;
}

function lastNumber(st: State): number {
  return st.questions.at(-1)?.number ?? 0;
}

function answered(q: QDraft): boolean {
  return q.options.length > 0 || q.subs.length > 0 || q.answerLines.length > 0;
}

// A bare number starts a question only where one is expected: the next in sequence, or 1 after a finished
// question; never inside a solution, nor inside the stem of a question labelled some other way (a numbered list).
function bareAllowed(st: State, n: number): boolean {
  const cur = st.cur;
  if (st.questions.length === 0) return true;
  if (cur?.mode === 'solution') return false;
  if (cur && cur.labelKind !== 'bare' && cur.labelKind !== 'implicit' && !answered(cur)) return false;
  const last = lastNumber(st);
  // a gap of a few numbers happens (a deleted question); a restart at 1 only after a finished question
  return (n > last && n <= last + 3) || (n === 1 && (!cur || answered(cur)));
}

function questionStart(st: State, line: Line): Start | null {
  const word = QUESTION_RE.exec(line.text);
  if (word) {
    const n = Number(word[1]);
    return { number: n > 999 ? lastNumber(st) + 1 : n, rest: word[0].length, kind: 'word' };
  }
  const auto = line.auto && line.auto.level === 0 ? AUTO_QUESTION_LABEL_RE.exec(line.auto.label) : null;
  if (auto) return { number: Number(auto[1]), rest: line.auto!.label.length + 1, kind: 'auto' };
  const bracket = BRACKET_QUESTION_RE.exec(line.text);
  if (bracket) return { number: Number(bracket[1]), rest: bracket[0].length, kind: 'bracket' };
  const bare = st.blocks ? null : BARE_QUESTION_RE.exec(line.text);
  if (bare && !line.auto && bareAllowed(st, Number(bare[1]))) {
    return { number: Number(bare[1]), rest: bare[0].length, kind: 'bare' };
  }
  return null;
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
  q.stem.push(...stem.slice(1));
  return q;
}

function endQuestion(st: State): void {
  st.cur = null;
  st.loose = [];
}

function heading(st: State, line: Line): boolean {
  if (KEY_HEADING_RE.test(line.text)) {
    st.keyMode = true;
    st.keyQuestion = null;
    endQuestion(st);
    st.open = [];
    return true;
  }
  const part = PART_RE.exec(line.text);
  if (part) {
    st.part = part[1]!.toUpperCase();
    st.vietnamese = true;
    st.partHint = partHint(line.text);
    if (st.keyMode) st.cur = null;
    else openGroup(st, line, 'PART');
    st.loose = [];
    return true;
  }
  if (st.keyMode) return false;
  if (LEVEL_RE.test(line.text) && !QUESTION_RE.test(line.text)) {
    st.conventions.add('level-headings');
    endQuestion(st);
    return true;
  }
  if (letteredSection(st, line) || sectionStart(st, line)) {
    st.loose = [];
    return true;
  }
  return false;
}

/** `A. PHẦN TRẮC NGHIỆM`, `B. TỰ LUẬN`: a lettered heading in capitals naming a part, not an option. */
function letteredSection(st: State, line: Line): boolean {
  const m = /^\s*[A-G]\s*[.)]\s+(\S.*)$/u.exec(line.text);
  const rest = m?.[1];
  if (!rest || rest !== rest.toUpperCase() || !/\p{Lu}.*\p{Lu}/u.test(rest)) return false;
  const hint = partHint(rest);
  if (!hint && !/\b(?:PHẦN|PART|SECTION)\b/u.test(rest)) return false;
  if (hint) st.partHint = hint;
  openGroup(st, line, 'SECTION');
  return true;
}

function groupStart(st: State, line: Line): boolean {
  const m = GROUP_RE.exec(line.text);
  if (QUESTION_RE.test(line.text)) return false;
  if (!m) return passageStart(st, line);
  openGroup(st, line, 'PASSAGE', { from: Number(m[1]), to: Number(m[2]) });
  return true;
}

function takeStructured(q: QDraft, line: Line): boolean {
  if (takeOptions(q, line) || takeTrailingA(q, line)) return true;
  if (q.mode === 'stem' && takeGluedA(q, line)) return true;
  if (takeSub(q, line)) return true;
  if (q.mode === 'stem' && splitInline(q, line)) return true;
  return line.bullet === true && (q.mode === 'stem' || q.lettersByOrder === true) && takeUnlettered(q, line);
}

/** A key line's value, or null: `Đáp án: C`, `Lời giải: S-Đ-Đ-Đ` (a solution heading only with a letter, truth
 * values or a number after it). */
function keyLineValue(q: QDraft, text: string): { value: string; solution: boolean } | null {
  const sol = SOLUTION_ANSWER_RE.exec(text);
  if (sol) {
    const v = answerValue(sol[1]!, q.options.length > 0 || q.subs.length > 0, false);
    return v === null ? null : { value: v, solution: true };
  }
  const m = ANSWER_RE.exec(text);
  if (!m) return null;
  const v = answerValue(m[2]!, q.options.length > 0 || q.subs.length > 0, m[1] === ':');
  return v === null ? null : { value: v, solution: false };
}

/** A line that still belongs to a question whose options are done: its next option, key line or solution. */
function continues(q: QDraft, line: Line): boolean {
  const label = OPTION_START_RE.exec(line.text.replace(/^\s*\*\s*/, ''))?.[1];
  return label === nextLabel(q.options, 'A') || keyLineValue(q, line.text) !== null || SOLUTION_RE.test(line.text);
}

function inQuestion(st: State, q: QDraft, line: Line): void {
  q.para_end = line.para;
  const key = keyLineValue(q, line.text);
  if (key) {
    q.answerLines.push(key.value);
    q.mode = 'solution';
    if (key.solution) q.solution.push(line);
    return;
  }
  if (q.mode === 'solution' || SOLUTION_RE.test(line.text) || (st.blocks && /^\s*>/.test(line.text))) {
    q.mode = 'solution';
    q.solution.push(line);
    return;
  }
  if (takeStructured(q, line)) return;
  if (st.blocks && q.stem.length > 0 && q.mode !== 'subs' && takeUnlettered(q, line)) return;
  if (q.mode === 'options') appendTo(q.options, line);
  else if (q.mode === 'subs') appendTo(q.subs, line);
  else q.stem.push(line);
}

/** Option A again after a finished option list, or after loose text: a new, unlabelled question begins. */
function restartsQuestion(st: State, line: Line): boolean {
  const star = line.text.replace(/^\s*\*\s*/, '');
  if (OPTION_START_RE.exec(star)?.[1] !== 'A') return false;
  const cur = st.cur;
  let stem: Line[] = [];
  if (cur && cur.mode === 'options' && cur.options.length >= 2) {
    const last = cur.options.at(-1)!;
    stem = last.more.splice(last.gap);
  } else if (!cur && st.loose.length > 0) stem = st.loose;
  if (stem.length === 0) return false;
  st.conventions.add('label:implicit');
  const q = implicitQuestion(st, stem);
  return takeOptions(q, line);
}

/** "… đáp án đúng. Câu 12: …" — a worded label later in the line, the next number in sequence, splits it. */
function midLabel(st: State, line: Line): [Line, Line] | null {
  if (st.keyMode || !/(?:Câu|Question)\s*\d/iu.test(line.text)) return null;
  const want = lastNumber(st) + 1;
  for (const m of line.text.matchAll(MID_QUESTION_RE)) {
    if (Number(m[1]) !== want) continue;
    const cut = (at: number, to: number): Line => ({
      ...line,
      text: line.text.slice(at, to),
      segs: sliceSegs(line.segs, at, to),
    });
    st.conventions.add('label:mid-paragraph');
    return [
      { ...cut(0, m.index), bullet: line.bullet },
      { ...cut(m.index, line.text.length), auto: undefined },
    ];
  }
  return null;
}

function keyModeLine(st: State, line: Line): void {
  const q = QUESTION_RE.exec(line.text);
  if (q) st.keyQuestion = Number(q[1]);
  const entries = inlineKeyEntries(q ? line.text.slice(q[0].length) : line.text, st.part);
  if (q && entries.length === 0) {
    // "Câu 3. Chọn B" in a solutions section after the exam: the key of question 3.
    const rest = line.text.slice(q[0].length);
    const m = ANSWER_RE.exec(rest) ?? ANSWER_RE.exec(line.text);
    const v = m ? answerValue(m[2]!, true, m[1] === ':') : null;
    if (v !== null) st.keys.push({ part: st.part, number: Number(q[1]), raw: v });
    return;
  }
  if (!q && entries.length === 0 && st.keyQuestion !== null) {
    const m = ANSWER_RE.exec(line.text);
    const v = m ? answerValue(m[2]!, true, m[1] === ':') : null;
    if (v !== null) st.keys.push({ part: st.part, number: st.keyQuestion, raw: v });
    return;
  }
  st.keys.push(...(q && entries.length === 0 ? [] : inlineKeyEntries(line.text, st.part)));
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
  if (st.cur?.mode === 'options') markGap(st.cur.options);
  if (st.blocks && st.cur) endQuestion(st);
}

function contentLine(st: State, line: Line): void {
  const mid = midLabel(st, line);
  if (mid) {
    mid.forEach((l) => contentLine(st, l));
    return;
  }
  if (SEPARATOR_RE.test(line.text)) return;
  if (heading(st, line)) return;
  if (st.keyMode) return keyModeLine(st, line);
  const keyList = keyLineEntries(line.text, st.part);
  if (keyList.length > 0) {
    st.conventions.add('key-list');
    st.keys.push(...keyList);
    return;
  }
  const start = questionStart(st, line);
  if (start) {
    newQuestion(st, line, start);
    return;
  }
  if (restartsQuestion(st, line)) return;
  if (groupStart(st, line)) return;
  if (st.blocks && !st.cur) {
    implicitQuestion(st, [line]);
    return;
  }
  // After a blank paragraph, text under a finished option list is not the last option's: a heading or the stem
  // of a question that has no label.
  const cur = st.cur;
  if (cur?.mode === 'options' && cur.options.length >= 2 && st.gap && !line.bullet && !continues(cur, line)) {
    endQuestion(st);
  }
  if (st.cur) inQuestion(st, st.cur, line);
  else {
    st.group?.content.push(line);
    st.loose.push(line);
  }
}

// Without any label (of questions or of options), questions are blocks of paragraphs between blank ones (the NukeViet/AZtest import format):
// the first paragraph is the stem, the next ones are options, `>` lines the solution.
function labelFreeBlocks(blocks: Block[]): boolean {
  let labels = 0;
  let bareSeen = 0;
  let runs = 0;
  let run = 0;
  for (const b of blocks) {
    if (b.kind !== 'p') continue;
    const text = b.segs.map((s) => s.text).join('');
    const first = text.split('\n')[0]!;
    const bare = BARE_QUESTION_RE.exec(first);
    if (bare && Number(bare[1]) === bareSeen + 1) bareSeen++;
    if (QUESTION_RE.test(first) || BRACKET_QUESTION_RE.test(first)) labels++;
    if (OPTION_START_RE.exec(first)?.[1] === 'A') labels++;
    if (b.autoLabel && /^\(?(?:\d{1,3}|[Aa])[.):]?$/.test(b.autoLabel)) labels++;
    if (text.trim() === '' && !b.segs.some((s) => s.kind !== 'text')) {
      if (run >= 3 && run <= 12) runs++;
      run = 0;
    } else run++;
  }
  if (run >= 3 && run <= 12) runs++;
  return labels + Math.max(0, bareSeen - 1) < 2 && runs >= 2;
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
