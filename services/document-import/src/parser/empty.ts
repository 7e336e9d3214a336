// DOCX_NO_QUESTIONS_FOUND: a document without a question fails, naming what was seen so the
// teacher (or whoever reads the log) can tell an unknown convention from an empty or wrong file.
import { DocxError, type DocxSeen } from './errors.js';
import type { Block, Para } from './types.js';

const FIRST_LINES = 5;
const LINE_CHARS = 120;

function paraText(p: Para): string {
  const text = p.segs.map((s) => s.text).join('');
  return p.autoLabel ? `${p.autoLabel} ${text}` : text;
}

// A paragraph's soft line breaks make several lines; a table row is one line, its cells joined by ` | `.
function blockLines(b: Block): string[] {
  if (b.kind === 'p') return paraText(b).split('\n');
  return b.rows.map((row) =>
    row
      .map((cell) => cell.map(paraText).join(' '))
      .map(squeeze)
      .filter(Boolean)
      .join(' | '),
  );
}

function squeeze(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

// By code points, so a cut never splits a surrogate pair.
function cut(line: string): string {
  const chars = Array.from(line);
  return chars.length > LINE_CHARS ? `${chars.slice(0, LINE_CHARS - 1).join('')}…` : line;
}

/** Counts the body's paragraphs and tables and keeps its first non-empty lines, each cut at 120 characters. */
export function summarizeSeen(blocks: Block[]): DocxSeen {
  const seen: DocxSeen = { paragraphs: 0, tables: 0, firstLines: [] };
  for (const b of blocks) {
    if (b.kind === 'p') seen.paragraphs++;
    else seen.tables++;
    if (seen.firstLines.length >= FIRST_LINES) continue;
    const lines = blockLines(b).map(squeeze).filter(Boolean).map(cut);
    seen.firstLines.push(...lines.slice(0, FIRST_LINES - seen.firstLines.length));
  }
  return seen;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function noQuestionsError(blocks: Block[]): DocxError {
  const seen = summarizeSeen(blocks);
  const where = `${plural(seen.paragraphs, 'paragraph')} and ${plural(seen.tables, 'table')}`;
  const lines = seen.firstLines.length
    ? `the first lines: ${seen.firstLines.map((l) => JSON.stringify(l)).join(', ')}`
    : 'no text at all';
  return new DocxError('DOCX_NO_QUESTIONS_FOUND', `no question found in ${where}; ${lines}`, { details: seen });
}
