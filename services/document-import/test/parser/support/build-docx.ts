// Builds real .docx files with the `docx` library from a tiny markup, so tests state documents in one line each:
//   [[r:text]] red run, [[u:text]] underlined, [[h:text]] yellow highlight, [[ru:text]] red and underlined,
//   [[b:text]] bold, [[i:text]] italic, [[g:text]] green,
//   [[m:latex]] a Word equation (OMML), [[img]] a picture, [[col]] a column break, \t a tab, \n a soft line break.
import {
  AlignmentType,
  ColumnBreak,
  Document,
  ImageRun,
  LevelFormat,
  Math as OMath,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  type ParagraphChild,
} from 'docx';
import { latexToMath } from 'docx/math';

export type Block =
  | string
  | { table: string[][] }
  | { auto: 'question' | 'option' | 'caution' | 'bullet' | 'lower'; text: string; instance?: number }
  // a paragraph of a style from STYLES, numbered through the style (styles.xml w:numPr), not the paragraph
  | { style: 'CauHoi' | 'CauHoiPhu' | 'PhuongAn'; text: string };

// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const TOKEN_RE = /\[\[(r|u|h|ru|m|b|i|g):(.*?)\]\]|\[\[img\]\]|\[\[col\]\]|\t|\n/gs;

function textRuns(text: string): TextRun[] {
  return text ? [new TextRun({ text })] : [];
}

function token(kind: string | undefined, body: string | undefined, raw: string): ParagraphChild {
  if (raw === '\t') return new TextRun({ children: ['\t'] });
  if (raw === '\n') return new TextRun({ break: 1 });
  if (raw === '[[col]]') return new ColumnBreak();
  if (raw === '[[img]]') return new ImageRun({ type: 'png', data: PNG, transformation: { width: 20, height: 20 } });
  if (kind === 'm') return new OMath({ children: latexToMath(body!) });
  return new TextRun({
    text: body!,
    color: kind === 'r' || kind === 'ru' ? 'FF0000' : kind === 'g' ? '00AA00' : undefined,
    bold: kind === 'b' ? true : undefined,
    italics: kind === 'i' ? true : undefined,
    underline: kind === 'u' || kind === 'ru' ? {} : undefined,
    highlight: kind === 'h' ? 'yellow' : undefined,
  });
}

export function runs(text: string): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  let at = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    out.push(...textRuns(text.slice(at, m.index)));
    out.push(token(m[1], m[2], m[0]));
    at = m.index + m[0].length;
  }
  out.push(...textRuns(text.slice(at)));
  return out;
}

function para(text: string): Paragraph {
  return new Paragraph({ children: runs(text) });
}

function block(b: Block): Paragraph | Table {
  if (typeof b === 'string') return para(b);
  if ('table' in b) {
    return new Table({
      rows: b.table.map(
        (r) => new TableRow({ children: r.map((c) => new TableCell({ children: c.split('\n\n').map(para) })) }),
      ),
    });
  }
  if ('style' in b) return new Paragraph({ children: runs(b.text), style: b.style });
  return new Paragraph({ children: runs(b.text), numbering: { reference: b.auto, level: 0, instance: b.instance } });
}

const NUMBERING = {
  config: [
    {
      reference: 'question',
      levels: [{ level: 0, format: LevelFormat.DECIMAL, text: 'Câu %1.', alignment: AlignmentType.LEFT }],
    },
    {
      reference: 'option',
      levels: [{ level: 0, format: LevelFormat.UPPER_LETTER, text: '%1.', alignment: AlignmentType.LEFT }],
    },
    {
      reference: 'bullet',
      levels: [{ level: 0, format: LevelFormat.BULLET, text: '•', alignment: AlignmentType.LEFT }],
    },
    {
      reference: 'lower',
      levels: [{ level: 0, format: LevelFormat.LOWER_LETTER, text: '%1.', alignment: AlignmentType.LEFT }],
    },
    {
      reference: 'caution',
      levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.LEFT }],
    },
  ],
};

// CauHoiPhu has no list of its own: it inherits CauHoi's through w:basedOn.
const STYLES = {
  paragraphStyles: [
    { id: 'CauHoi', name: 'Cau hoi', paragraph: { numbering: { reference: 'question', level: 0 } } },
    { id: 'CauHoiPhu', name: 'Cau hoi phu', basedOn: 'CauHoi', run: { bold: true } },
    { id: 'PhuongAn', name: 'Phuong an', paragraph: { numbering: { reference: 'option', level: 0 } } },
  ],
};

/** `columns: 2` lays the section out in two newspaper columns (`w:cols w:num="2"`). */
export async function makeDocx(blocks: Block[], opts: { columns?: number } = {}): Promise<Uint8Array> {
  const properties = opts.columns ? { column: { count: opts.columns, space: 708 } } : {};
  const doc = new Document({
    numbering: NUMBERING,
    styles: STYLES,
    sections: [{ properties, children: blocks.map(block) }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
