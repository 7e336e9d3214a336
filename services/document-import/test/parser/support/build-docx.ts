// Builds real .docx files with the `docx` library from a tiny markup, so tests state documents in one line each:
//   [[r:text]] red run, [[u:text]] underlined, [[h:text]] yellow highlight, [[ru:text]] red and underlined,
//   [[b:text]] bold, [[i:text]] italic, [[g:text]] green, and any combination of these flags ([[rb:text]]),
//   [[m:latex]] a Word equation (OMML), [[img]] a picture, [[col]] a column break, \t a tab, \n a soft line break.
// Numbered paragraphs ({ auto }) use the lists of NUMBERING (the same references as raw-docx.ts's LISTS), at a
// `level`, in an `instance` (a list of its own that restarts), `mark` the paragraph mark's flags (the number's look).
// A table cell is a string (paragraphs split at "\n\n") or { paras, shade } (a filled background).
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
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { latexToMath } from 'docx/math';

export type Block =
  | string
  | { table: (string | Cell)[][] }
  | AutoBlock
  // a paragraph of a style from STYLES, numbered through the style (styles.xml w:numPr), not the paragraph
  | { style: 'CauHoi' | 'CauHoiPhu' | 'PhuongAn'; text: string };

// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export type AutoList =
  | 'question'
  | 'option'
  | 'caution'
  | 'bullet'
  | 'lower'
  | 'question-en'
  | 'question-paren'
  | 'option-paren'
  | 'lower-paren'
  | 'numeric'
  | 'numeric-paren'
  | `${'question' | 'question-en' | 'caution' | 'question-paren'}-${'option' | 'numeric'}`;

export interface AutoBlock {
  auto: AutoList;
  text: string;
  instance?: number;
  level?: number;
  mark?: string;
}

/** A table cell of paragraphs (numbered ones too) and a filled background (hex). */
export interface Cell {
  paras: (string | AutoBlock)[];
  shade?: string;
}

const TOKEN_RE = /\[\[([rughib]+|m):(.*?)\]\]|\[\[img\]\]|\[\[col\]\]|\t|\n/gs;

function textRuns(text: string): TextRun[] {
  return text ? [new TextRun({ text })] : [];
}

function token(kind: string | undefined, body: string | undefined, raw: string): ParagraphChild {
  if (raw === '\t') return new TextRun({ children: ['\t'] });
  if (raw === '\n') return new TextRun({ break: 1 });
  if (raw === '[[col]]') return new ColumnBreak();
  if (raw === '[[img]]') return new ImageRun({ type: 'png', data: PNG, transformation: { width: 20, height: 20 } });
  if (kind === 'm') return new OMath({ children: latexToMath(body!) });
  return new TextRun({ text: body!, ...look(kind!) });
}

/** The run properties of a token's flags. */
function look(flags: string): Pick<IRunOptions, 'color' | 'bold' | 'italics' | 'underline' | 'highlight'> {
  return {
    color: flags.includes('r') ? 'FF0000' : flags.includes('g') ? '00AA00' : undefined,
    bold: flags.includes('b') ? true : undefined,
    italics: flags.includes('i') ? true : undefined,
    underline: flags.includes('u') ? {} : undefined,
    highlight: flags.includes('h') ? 'yellow' : undefined,
  };
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
        (r) =>
          new TableRow({
            children: r.map((c) => {
              if (typeof c === 'string') return new TableCell({ children: c.split('\n\n').map(para) });
              const children = (c.paras.length ? c.paras : ['']).map((p) =>
                typeof p === 'string' ? para(p) : autoPara(p),
              );
              return new TableCell({ children, shading: c.shade ? { fill: c.shade, color: 'auto' } : undefined });
            }),
          }),
      ),
    });
  }
  if ('style' in b) return new Paragraph({ children: runs(b.text), style: b.style });
  return autoPara(b);
}

function autoPara(b: AutoBlock): Paragraph {
  return new Paragraph({
    children: runs(b.text),
    numbering: { reference: b.auto, level: b.level ?? 0, instance: b.instance },
    ...(b.mark ? { run: look(b.mark) } : {}),
  });
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
    ...(
      [
        ['question-en', LevelFormat.DECIMAL, 'Question %1.'],
        ['question-paren', LevelFormat.DECIMAL, '%1)'],
        ['option-paren', LevelFormat.UPPER_LETTER, '%1)'],
        ['lower-paren', LevelFormat.LOWER_LETTER, '%1)'],
        ['numeric', LevelFormat.DECIMAL, '%1.'],
        ['numeric-paren', LevelFormat.DECIMAL, '%1)'],
      ] as const
    ).map(([reference, format, text]) => ({
      reference,
      levels: [{ level: 0, format, text, alignment: AlignmentType.LEFT }],
    })),
    // multi-level lists: a question at level 0, its options at level 1 (`question-option`, `caution-numeric`…)
    ...(
      [
        ['question', 'Câu %1.'],
        ['question-en', 'Question %1.'],
        ['caution', '%1.'],
        ['question-paren', '%1)'],
      ] as const
    ).flatMap(([q, text0]) =>
      (
        [
          ['option', LevelFormat.UPPER_LETTER, '%2.'],
          ['numeric', LevelFormat.DECIMAL, '%2)'],
        ] as const
      ).map(([o, format1, text1]) => ({
        reference: `${q}-${o}`,
        levels: [
          { level: 0, format: LevelFormat.DECIMAL, text: text0, alignment: AlignmentType.LEFT },
          { level: 1, format: format1, text: text1, alignment: AlignmentType.LEFT },
        ],
      })),
    ),
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
