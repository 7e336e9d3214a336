import { plainSeg, type Block, type Para, type Seg } from './types.js';

export interface Line {
  segs: Seg[];
  text: string;
  para: number;
  /** true for the first line of a Word auto-numbered paragraph (its label is prepended to text) */
  auto?: { label: string; level: number; list?: string };
  /** the first line of a bulleted list item */
  bullet?: boolean;
  /** where a line read from a table sits: a table's cells are read as lines of the one stream */
  cell?: CellPlace;
}

export interface CellPlace {
  table: number;
  row: number;
  col: number;
  /** the row's first line */
  lead?: boolean;
  /** the cells in the row */
  width?: number;
}

export function segText(segs: Seg[]): string {
  return segs.map((s) => s.text).join('');
}

function makeLine(segs: Seg[], para: number): Line {
  return { segs, text: segText(segs), para };
}

// Soft line breaks separate options written on their own line, so a paragraph becomes several lines.
export function paraLines(p: Para): Line[] {
  const lines: Line[] = [];
  let cur: Seg[] = [];
  for (const s of p.segs) {
    if (s.kind !== 'text' || !s.text.includes('\n')) {
      cur.push(s);
      continue;
    }
    const pieces = s.text.split('\n');
    pieces.forEach((piece, i) => {
      if (i > 0) {
        lines.push(makeLine(cur, p.index));
        cur = [];
      }
      if (piece) cur.push({ ...s, text: piece });
    });
  }
  lines.push(makeLine(cur, p.index));
  const first = lines[0]!;
  if (p.bullet) first.bullet = true;
  // A typed option label after Word's own number is the one the teacher sees and means ("B. D. text" → D).
  const typed = /^[A-G][.)]$/.test(p.autoLabel ?? '') && /^\s*[A-G]\s*[.)]\s/.test(first.text);
  if (p.autoLabel && !typed) {
    first.auto = { label: p.autoLabel, level: p.autoLevel ?? 0, list: p.autoList };
    first.segs = [{ ...plainSeg(`${p.autoLabel} `), ...p.labelLook }, ...first.segs];
    first.text = segText(first.segs);
  }
  return lines;
}

/** Cuts segments at character offsets of their joined text. */
export function sliceSegs(segs: Seg[], from: number, to: number): Seg[] {
  const out: Seg[] = [];
  let at = 0;
  for (const s of segs) {
    const end = at + s.text.length;
    if (end > from && at < to) {
      const a = Math.max(0, from - at);
      const b = Math.min(s.text.length, to - at);
      out.push(a === 0 && b === s.text.length ? s : { ...s, text: s.text.slice(a, b) });
    }
    at = end;
  }
  return out;
}

/** sliceSegs for many cuts of one line: the first segment of each cut by binary search, not by a walk from 0. */
export class SegCutter {
  private readonly ends: number[] = [];

  constructor(private readonly segs: Seg[]) {
    let at = 0;
    for (const s of segs) this.ends.push((at += s.text.length));
  }

  slice(from: number, to: number): Seg[] {
    let lo = 0;
    let hi = this.segs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! > from) hi = mid;
      else lo = mid + 1;
    }
    const out: Seg[] = [];
    for (let i = lo; i < this.segs.length; i++) {
      const s = this.segs[i]!;
      const at = this.ends[i]! - s.text.length;
      if (at >= to) break;
      const a = Math.max(0, from - at);
      const b = Math.min(s.text.length, to - at);
      out.push(a === 0 && b === s.text.length ? s : { ...s, text: s.text.slice(a, b) });
    }
    return out;
  }
}

export function cellText(cell: Para[]): string {
  return cell
    .map((p) => segText(p.segs))
    .join('\n')
    .trim();
}

export function isParagraph(b: Block): b is Para {
  return b.kind === 'p';
}
