// A table's cells as lines of the document's stream: a cell that holds only a label joins the next one, a first row
// of captions names the columns, and a column named as a field makes its cells that field's lines.
import { cellText, paraLines, segText, type CellPlace, type Line } from './lines.js';
import { ANSWER_PLACEHOLDER_RE, ANSWER_RE, METADATA_RE, SOLUTION_RE } from './patterns.js';
import { plainSeg, pushAll, type Seg, type Table } from './types.js';

export type Cell = Table['rows'][number][number];

/** A cell's lines that hold text or a picture. */
export function cellLines(cell: Cell): Line[] {
  return cell.flatMap(paraLines).filter((l) => l.text.trim() !== '' || l.segs.some((s) => s.kind !== 'text'));
}

/** A cell that holds only a label: `A.`, `(b)`, `3`, `12.`, `Câu 4`, `Question 4 –`. Tested on the trimmed text: no
 * blank run is left for two quantifiers to share. */
const LABEL_CELL_RE =
  /^(?:\*\s*)?(?:\(?[A-Ga-g](?:\s*(?:[.):]\)?|\)))?|\d{1,3}(?:\s*[.):])?|(?:Câu|Question|Q)\s*\d{1,3}(?:\s*[.:)–-])?)$/u;

/** A cell that names what the next one holds: a label, or the key's word (`Đáp án | A`, `Answer | B`). */
function labelCell(text: string): boolean {
  return LABEL_CELL_RE.test(text) || ANSWER_PLACEHOLDER_RE.test(text);
}

export function cellHasContent(cell: Cell): boolean {
  if (cellText(cell) !== '' || cell.some((p) => p.autoLabel !== undefined)) return true;
  return cell.some((p) => p.segs.some((s) => s.kind !== 'text'));
}

/** A label cell's text, then a tab; a number alone gets its dot, so a stem that opens with a digit (`2 | 2 + 2 = ?`)
 * still reads as labelled. */
function labelSegs(cell: Cell, text: string): Seg[] {
  const segs = cellLines(cell)
    .flatMap((l) => l.segs)
    .filter((s) => s.kind === 'text' && s.text.trim() !== '');
  return [...segs, plainSeg(/^\d{1,3}$/u.test(text) ? '.\t' : '\t')];
}

/**
 * A row read as lines: each paragraph (and soft-broken line) of each cell, in order. A cell that holds only a label
 * (a form control's picture before it is dropped) is joined to the next cell's first line with a tab, so `A. | text`
 * and `1 | stem` read like `A.⇥text` and `1⇥stem`.
 */
function rowLines(t: Table, row: Table['rows'][number], r: number, named: (string | null)[] = []): Line[] {
  const out: Line[] = [];
  let label: Seg[] | null = null;
  row.forEach((cell, c) => {
    if (!cellHasContent(cell)) return;
    const place: CellPlace = { table: t.index, row: r, col: c, width: row.length };
    // the label as the cell shows it: its typed text, or the number Word draws for it
    const text = cellLines(cell)
      .flatMap((l) => l.segs)
      .filter((x) => x.kind === 'text')
      .map((x) => x.text)
      .join('');
    if (out.length === 0 && label === null && labelCell(text.trim()) && c < row.length - 1) {
      label = labelSegs(cell, text.trim());
      return;
    }
    const lines = captioned(cellLines(cell), named[c]).map((l) => ({ ...l, cell: place }));
    if (label && lines[0]) {
      const first = lines[0];
      const segs = [...label, ...first.segs];
      lines[0] = { ...first, segs, text: segText(segs), auto: undefined };
    }
    label = null;
    if (out.length === 0 && lines[0]) lines[0] = { ...lines[0], cell: { ...place, lead: true } };
    pushAll(out, lines);
  });
  return out;
}

const CAPTION_RE = /^\p{L}[\p{L}\s./#°-]{0,29}$/u;

/** A caption of a column: a few words, no label, no number, no picture. */
function captionCell(cell: Cell): boolean {
  if (cell.some((p) => p.autoLabel !== undefined || p.segs.some((s) => s.kind !== 'text'))) return false;
  const text = cellText(cell);
  if (text === '') return true;
  return CAPTION_RE.test(text) && text.split(/\s+/u).length <= 4 && !LABEL_CELL_RE.test(text);
}

/** The first row names the columns (`STT | Câu hỏi | Phương án | Đáp án | Giải thích`): every cell a caption, over
 * rows that hold more. Its captions are no text of the exam; a column named as a field (the key, the solution, an
 * item's metadata) says what its cells are, so they read as that field's lines. */
function captions(t: Table): (string | null)[] | null {
  const head = t.rows[0];
  if (!head || t.rows.length < 2 || head.length < 3 || !head.every(captionCell)) return null;
  if (head.filter((c) => cellText(c) !== '').length < 3) return null;
  return head.map((c) => {
    const text = cellText(c);
    const field = ANSWER_PLACEHOLDER_RE.test(text) || SOLUTION_RE.test(text) || METADATA_RE.test(`${text}: x`);
    return field ? text : null;
  });
}

/** A cell of a column named as a field: its first line opens with the caption, unless it names its field itself. */
function captioned(lines: Line[], caption: string | null | undefined): Line[] {
  const first = lines[0];
  if (!caption || !first) return lines;
  if (ANSWER_RE.test(first.text) || SOLUTION_RE.test(first.text) || METADATA_RE.test(first.text)) return lines;
  const segs = [plainSeg(`${caption}: `), ...first.segs];
  return [{ ...first, segs, text: segText(segs), auto: undefined }, ...lines.slice(1)];
}

/** The table read as lines, row by row and cell by cell. */
export function tableLines(t: Table): Line[] {
  const named = captions(t);
  if (!named) return t.rows.flatMap((row, r) => rowLines(t, row, r));
  return t.rows.slice(1).flatMap((row, r) => rowLines(t, row, r + 1, named));
}
