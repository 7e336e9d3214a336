import { cellHasContent, cellLines, tableLines, type Cell } from './cell-lines.js';
import type { QDraft, State } from './drafts.js';
import { keyTableEntries } from './keys.js';
import { cellText, paraLines, type Line } from './lines.js';
import { OPTION_START_RE, QUESTION_RE, SUB_RE, UNNUMBERED_QUESTION_RE, type PartHint } from './patterns.js';
import { plainSeg, type Seg, type Table, pushAll } from './types.js';

type LineHandler = (st: State, line: Line) => void;

const SEP: Seg = plainSeg(' | ');

function isOptionTable(t: Table): boolean {
  const first = t.rows[0]?.[0];
  return first !== undefined && OPTION_START_RE.exec(cellText(first))?.[1] === 'A';
}

const MARK_RE = /^\s*[xX✓✔✅*]\s*$/u;

function isMark(cell: Cell | undefined): boolean {
  return MARK_RE.test(cellText(cell ?? []));
}

function tfRow(q: QDraft, row: Table['rows'][number], [yes, no]: number[], map: Map<string, boolean>): void {
  const label = /^\s*([a-f])\s*\)/.exec(cellText(row[0] ?? []))?.[1];
  if (!label) return;
  if (!q.subs.some((s) => s.label === label)) {
    q.subs.push({ label, segs: (row[0] ?? []).flatMap((p) => p.segs), more: [], gap: 0 });
  }
  const yesMark = isMark(row[yes!]);
  if (yesMark !== isMark(row[no!])) map.set(label, yesMark);
}

// A statements table with "Đúng" and "Sai" columns: an X in a column gives that statement's truth.
function trueFalseTable(q: QDraft, t: Table): boolean {
  const head = (t.rows[0] ?? []).map((c) => cellText(c).toLowerCase());
  const yes = head.findIndex((h) => h === 'đúng');
  const no = head.findIndex((h) => h === 'sai');
  if (yes < 0 || no < 0) return false;
  const map = new Map<string, boolean>();
  for (const row of t.rows.slice(1)) tfRow(q, row, [yes, no], map);
  q.tfTable = map;
  q.mode = 'subs';
  return true;
}

function rowLine(t: Table, row: Table['rows'][number]): Line {
  const segs = row.flatMap((cell, i) => [...(i > 0 ? [SEP] : []), ...cell.flatMap((p) => p.segs)]);
  return { segs, text: segs.map((s) => s.text).join(''), para: t.index };
}

// ---- whole exams laid out as tables (exam-mixer templates) ----

const STEM_KEY_RE =
  /^(?:nội\s*dung(?:\s*câu\s*hỏi)?|noi\s*dung|noidung|câu\s*hỏi|cau\s*hoi|question(?:\s*text)?|đề\s*bài|câu\s*\d+|\d{1,3}[.)]?)$/iu;
const SOLUTION_KEY_RE =
  /^(?:lời\s*giải|loi\s*giai|loigiai|giải\s*thích|hướng\s*dẫn(?:\s*giải)?|explanation|solution)$/iu;
const ANSWER_KEY_RE = /^(?:đáp\s*án(?:\s*đúng)?|dap\s*an|dapan|(?:correct\s+)?answer|key|ĐA)$/iu;
/** `A`, `(a)`, `B.`, and the captions of a question-bank template: `Đáp án A`, `Phương án B`, `Option C`. */
const OPTION_KEY_RE = /^(?:(?:đáp\s*án|phương\s*án|lựa\s*chọn|option|choice|PA)\s*)?\(?([A-Ga-g])[.)]?$/iu;

type RowKind = 'stem' | 'option' | 'solution' | 'answer' | 'other';

function rowKind(key: string): RowKind {
  if (STEM_KEY_RE.test(key)) return 'stem';
  if (OPTION_KEY_RE.test(key)) return 'option';
  if (SOLUTION_KEY_RE.test(key)) return 'solution';
  return ANSWER_KEY_RE.test(key) ? 'answer' : 'other';
}

/** The cell that holds a row's content: the last one with text or a picture that is not a mark. */
function contentCell(row: Table['rows'][number]): Cell {
  for (let i = row.length - 1; i >= 1; i--) {
    const cell = row[i]!;
    const filled = cellText(cell) !== '' || cell.some((p) => p.segs.some((s) => s.kind !== 'text'));
    if (filled && !isMark(cell)) return cell;
  }
  return [];
}

function optionKey(row: Table['rows'][number]): string | undefined {
  return OPTION_KEY_RE.exec(cellText(row[0] ?? []))?.[1]?.toUpperCase();
}

/** Rows keyed in their first cell (`Noidung`, `A`…`D`, `Loigiai`), options in sequence, an `x` marking the answer. */
function isExamTable(t: Table): boolean {
  // the stem row holds its key and the stem beside it (a label alone in its row is a question table's title)
  const stemRow = (r: Table['rows'][number]): boolean =>
    rowKind(cellText(r[0] ?? [])) === 'stem' && cellHasContent(contentCell(r));
  if ((t.rows[0]?.length ?? 0) < 2 || !t.rows.some(stemRow)) return false;
  return t.rows.some((r, i) => optionKey(r) === 'A' && optionKey(t.rows[i + 1] ?? []) === 'B');
}

/** One question per row under a header (`Câu | Nội dung | A | B | C | D | Đáp án`): turned into the row-keyed shape,
 * each column a row keyed by its header. */
function columnExam(t: Table): Table | null {
  const head = t.rows[0] ?? [];
  const keys = head.map(cellText);
  if (!keys.some((k) => rowKind(k) === 'stem') || keys.filter((k) => rowKind(k) === 'option').length < 2) return null;
  const rows = t.rows.slice(1).flatMap((r) => head.map((h, i) => [h, r[i] ?? []]));
  return { kind: 'table', index: t.index, rows };
}

const STYLE_KEY_RE = /^(?:style|kiểu|loại(?:\s*câu)?|type|dạng)$/iu;
const STYLE_HINTS: Record<string, PartHint> = { ABCD: 'CHOICE', DS: 'TRUE_FALSE', TL: 'ESSAY', TLN: 'SHORT' };

/** One row of an exam table: an option (an upper-case key) or a statement whose truth is its mark (lower-case). */
function examOption(q: QDraft, key: string, row: Table['rows'][number], body: Line[]): void {
  const label = OPTION_KEY_RE.exec(key)![1]!;
  const segs = body.flatMap((l, i) => (i > 0 ? [plainSeg('\n'), ...l.segs] : l.segs));
  const marked = row.slice(1).some((c) => c !== contentCell(row) && isMark(c));
  const draft = { label, segs: [plainSeg(`${label}. `), ...segs], more: [], gap: 0 };
  if (label === label.toLowerCase()) {
    q.subs.push(draft);
    (q.tfTable ??= new Map()).set(label, marked);
    q.mode = 'subs';
    return;
  }
  q.options.push(marked ? { ...draft, marker: 'column' } : draft);
  q.mode = 'options';
}

interface ExamWalk {
  st: State;
  q: QDraft | null;
  hint: PartHint;
}

function examStem(w: ExamWalk, t: Table, body: Line[], handleLine: LineHandler): void {
  const number = (w.st.questions.at(-1)?.number ?? 0) + 1;
  handleLine(w.st, { segs: [plainSeg(`Câu ${number}. `)], text: `Câu ${number}. `, para: t.index });
  w.q = w.st.cur;
  if (w.q) pushAll(w.q.stem, body);
  if (w.q && w.hint) w.q.partHint = w.hint;
}

function examRow(w: ExamWalk, key: string, row: Table['rows'][number], body: Line[]): void {
  const kind = rowKind(key);
  const text = body
    .map((l) => l.text)
    .join(' ')
    .trim();
  if (kind === 'other' && STYLE_KEY_RE.test(key)) w.hint = STYLE_HINTS[text.toUpperCase()] ?? null;
  if (!w.q) return;
  if (kind === 'option') examOption(w.q, key, row, body);
  else if (kind === 'solution') pushAll(w.q.solution, body);
  else if (kind === 'answer' && text !== '') w.q.answerLines.push(text);
}

function examTable(st: State, t: Table, handleLine: LineHandler): void {
  st.conventions.add('exam-table');
  const w: ExamWalk = { st, q: null, hint: null };
  for (const row of t.rows) {
    const key = cellText(row[0] ?? []);
    const body = cellLines(contentCell(row));
    if (rowKind(key) === 'stem') examStem(w, t, body, handleLine);
    else examRow(w, key, row, body);
  }
  st.cur = null;
}

/** A key table or a whole exam laid out as a table; false for any other table. */
function keyOrExam(st: State, t: Table, handleLine: LineHandler): boolean {
  const keys = keyTableEntries(t, st.part, !st.keyMode);
  if (keys.length > 0) {
    st.conventions.add('key-table');
    pushAll(st.keys, keys);
    return true;
  }
  const exam = isExamTable(t) ? t : columnExam(t);
  if (exam) examTable(st, exam, handleLine);
  return exam !== null;
}

// ---- any other table: its cells are lines of the stream ----

/** A line that opens with a question label: worded, unnumbered, or a number and a tab before a word. */
function questionLabelled(text: string): boolean {
  return QUESTION_RE.test(text) || UNNUMBERED_QUESTION_RE.test(text) || /^\s*\d{1,3}[.)]?\t\p{L}/u.test(text);
}

/** The letter of the option or statement label a line opens with (a star before it aside), upper-cased. */
function optionLetter(text: string): string | undefined {
  const t = text.replace(/^\s*\*\s*/, '');
  return OPTION_START_RE.exec(t)?.[1] ?? SUB_RE.exec(t)?.[1]?.toUpperCase();
}

/** A number alone (`3.`, `Câu 3`), the title row of a question's own table. Tested on the trimmed text. */
const TITLE_NUMBER_RE = /^(?:(?:Câu|Question|Q)\s*)?\d{1,3}(?:\s*[.):])?$/iu;

/** The table holds questions or options: a question label or options in sequence (A, B) start its lines, or it opens
 * with a number alone over text (a question's own table, an essay's too). */
function holdsQuestions(lines: Line[]): boolean {
  if (lines.length >= 2 && TITLE_NUMBER_RE.test(lines[0]!.text.trim()) && lines[0]!.cell?.row === 0) return true;
  let next = 'A';
  for (const l of lines) {
    if (questionLabelled(l.text)) return true;
    if (optionLetter(l.text) === next) next = String.fromCharCode(next.charCodeAt(0) + 1);
    if (next === 'C') return true;
  }
  return false;
}

/** A table that is neither questions nor options: its rows are text of the current question, or of the group. */
function tableText(st: State, t: Table): void {
  const lines = t.rows.map((r) => rowLine(t, r));
  const q = st.cur;
  if (q) {
    q.tables++;
    pushAll(q.stem, lines);
  } else if (st.group) pushAll(st.group.content, lines);
}

/** A table: a key or whole exam, a true/false statements table, cells that hold questions or options, or text. */
export function handleTable(st: State, t: Table, handleLine: LineHandler): void {
  if (keyOrExam(st, t, handleLine) || (st.cur && trueFalseTable(st.cur, t))) return;
  const stream = tableLines(t);
  if (holdsQuestions(stream)) {
    st.conventions.add('table-cells');
    for (const l of stream) handleLine(st, l);
    return;
  }
  if (st.cur && isOptionTable(t)) {
    for (const cell of t.rows.flat()) cell.flatMap(paraLines).forEach((l) => handleLine(st, l));
    return;
  }
  tableText(st, t);
}
