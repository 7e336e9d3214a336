import type { QDraft, State } from './drafts.js';
import { keyTableEntries } from './keys.js';
import { cellText, paraLines, type Line } from './lines.js';
import { OPTION_START_RE } from './patterns.js';
import { plainSeg, type Seg, type Table } from './types.js';

type LineHandler = (st: State, line: Line) => void;

const SEP: Seg = plainSeg(' | ');

function isOptionTable(t: Table): boolean {
  const first = t.rows[0]?.[0];
  return first !== undefined && OPTION_START_RE.exec(cellText(first))?.[1] === 'A';
}

function isMark(cell: Table['rows'][number][number] | undefined): boolean {
  return /^\s*[xX✓✔]\s*$/.test(cellText(cell ?? []));
}

function tfRow(q: QDraft, row: Table['rows'][number], [yes, no]: number[], map: Map<string, boolean>): void {
  const label = /^\s*([a-f])\s*\)/.exec(cellText(row[0] ?? []))?.[1];
  if (!label) return;
  if (!q.subs.some((s) => s.label === label)) q.subs.push({ label, segs: (row[0] ?? []).flatMap((p) => p.segs) });
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

export function handleTable(st: State, t: Table, handleLine: LineHandler): void {
  const keys = keyTableEntries(t, st.part, !st.keyMode);
  if (keys.length > 0) {
    st.keys.push(...keys);
    return;
  }
  const q = st.cur;
  if (q && isOptionTable(t)) {
    for (const cell of t.rows.flat()) cell.flatMap(paraLines).forEach((l) => handleLine(st, l));
    return;
  }
  if (q && trueFalseTable(q, t)) return;
  const lines = t.rows.map((r) => rowLine(t, r));
  if (q) {
    q.tables++;
    q.stem.push(...lines);
  } else st.group?.content.push(...lines);
}
