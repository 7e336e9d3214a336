import type { QDraft, State, Structure } from './drafts.js';
import { groupOf, openGroup, passageStart, sectionStart } from './groups.js';
import { inlineKeyEntries } from './keys.js';
import { paraLines, sliceSegs, type Line } from './lines.js';
import { appendTo, splitInline, takeOptions, takeSub } from './options.js';
import {
  ANSWER_RE,
  AUTO_QUESTION_LABEL_RE,
  CHOOSE_RE,
  GROUP_RE,
  KEY_HEADING_RE,
  PART_RE,
  POINTS_RE,
  QUESTION_RE,
  SOLUTION_RE,
  partHint,
} from './patterns.js';
import { handleTable } from './tables.js';
import type { Block } from './types.js';

function questionStart(line: Line): { number: number; rest: number } | null {
  const m = QUESTION_RE.exec(line.text);
  if (m) return { number: Number(m[1]), rest: m[0].length };
  const auto = line.auto && line.auto.level === 0 ? AUTO_QUESTION_LABEL_RE.exec(line.auto.label) : null;
  return auto ? { number: Number(auto[1]), rest: line.auto!.label.length + 1 } : null;
}

function newQuestion(st: State, line: Line, start: { number: number; rest: number }): void {
  const points = POINTS_RE.exec(line.text);
  const q: QDraft = {
    id: `q${st.questions.length + 1}`,
    number: start.number,
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
  st.cur = q;
  st.group = null;
  const rest = { ...line, segs: sliceSegs(line.segs, start.rest, line.text.length) };
  rest.text = line.text.slice(start.rest).replace(/^\s*[.:]\s*/, '');
  if (!takeOptions(q, rest) && !splitInline(q, rest)) q.stem.push(rest);
}

function heading(st: State, line: Line): boolean {
  if (KEY_HEADING_RE.test(line.text)) {
    st.keyMode = true;
    st.cur = null;
    st.open = [];
    return true;
  }
  const part = PART_RE.exec(line.text);
  if (part) {
    st.part = part[1]!.toUpperCase();
    st.partHint = partHint(line.text);
    if (st.keyMode) st.cur = null;
    else openGroup(st, line, 'PART');
    return true;
  }
  return !st.keyMode && sectionStart(st, line);
}

function groupStart(st: State, line: Line): boolean {
  const m = GROUP_RE.exec(line.text);
  if (QUESTION_RE.test(line.text)) return false;
  if (!m) return passageStart(st, line);
  openGroup(st, line, 'PASSAGE', { from: Number(m[1]), to: Number(m[2]) });
  return true;
}

function takeStructured(q: QDraft, line: Line): boolean {
  return takeOptions(q, line) || takeSub(q, line) || (q.mode === 'stem' && splitInline(q, line));
}

function inQuestion(q: QDraft, line: Line): void {
  q.para_end = line.para;
  if (ANSWER_RE.test(line.text) || CHOOSE_RE.test(line.text)) {
    q.answerLines.push(line.text.trim());
    return;
  }
  if (q.mode === 'solution' || SOLUTION_RE.test(line.text)) {
    q.mode = 'solution';
    q.solution.push(line);
    return;
  }
  if (takeStructured(q, line)) return;
  if (q.mode === 'options') appendTo(q.options, line);
  else if (q.mode === 'subs') appendTo(q.subs, line);
  else q.stem.push(line);
}

function handleLine(st: State, line: Line): void {
  if (line.text.trim() === '' && !line.segs.some((s) => s.kind !== 'text')) return;
  if (heading(st, line)) return;
  if (st.keyMode) {
    st.keys.push(...inlineKeyEntries(line.text, st.part));
    return;
  }
  const start = questionStart(line);
  if (start) return newQuestion(st, line, start);
  if (groupStart(st, line)) return;
  if (st.cur) inQuestion(st.cur, line);
  else st.group?.content.push(line);
}

export function buildStructure(blocks: Block[]): Structure {
  const st: State = {
    questions: [],
    groups: [],
    keys: [],
    cur: null,
    group: null,
    open: [],
    part: null,
    partHint: null,
    keyMode: false,
  };
  for (const b of blocks) {
    if (b.kind === 'p') paraLines(b).forEach((l) => handleLine(st, l));
    else handleTable(st, b, handleLine);
  }
  return { questions: st.questions, groups: st.groups, keys: st.keys };
}
