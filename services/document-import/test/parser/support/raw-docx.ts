// Writes a .docx as raw OOXML strings zipped with fflate: about a hundred times faster than the `docx` library, for
// tests that build a thousand documents. It reads the markup of build-docx.ts (its `Block` is a `RawBlock`):
//   [[F:text]] a run whose flags F are any of r (red), g (green), b (bold), i (italic), u (underline), h (yellow
//   highlight), e.g. [[ru:x]], [[rb:x]]; \t a tab; \n a soft line break (w:br). Pictures and equations are not
//   written here (build-docx.ts writes them).
// Blocks: a string is a paragraph; { table } rows of cells (a string cell holds paragraphs split at "\n\n"); { auto }
// a paragraph numbered by a Word list of LISTS (level, instance: each instance is a list of its own that restarts, as
// Word's "restart numbering" writes it: a w:num with w:startOverride), `mark` the paragraph mark's flags (how Word
// draws the number).
import { strToU8, zipSync } from 'fflate';

export type ListFormat = 'decimal' | 'upperLetter' | 'lowerLetter' | 'bullet';

export interface ListLevel {
  fmt: ListFormat;
  text: string;
}

/** The Word lists documents may number paragraphs with (build-docx.ts has the same references). */
export const LISTS: Record<string, ListLevel[]> = {
  question: [{ fmt: 'decimal', text: 'Câu %1.' }],
  caution: [{ fmt: 'decimal', text: '%1.' }],
  option: [{ fmt: 'upperLetter', text: '%1.' }],
  lower: [{ fmt: 'lowerLetter', text: '%1.' }],
  bullet: [{ fmt: 'bullet', text: '•' }],
  'question-en': [{ fmt: 'decimal', text: 'Question %1.' }],
  'question-paren': [{ fmt: 'decimal', text: '%1)' }],
  'option-paren': [{ fmt: 'upperLetter', text: '%1)' }],
  'lower-paren': [{ fmt: 'lowerLetter', text: '%1)' }],
  numeric: [{ fmt: 'decimal', text: '%1.' }],
  'numeric-paren': [{ fmt: 'decimal', text: '%1)' }],
  // multi-level lists (`question-option`, `caution-numeric`…) are added below
};

// A question at level 0, its options at level 1 (Word restarts level 1 after each level 0).
for (const q of ['question', 'question-en', 'caution', 'question-paren']) {
  LISTS[`${q}-option`] = [LISTS[q]![0]!, { fmt: 'upperLetter', text: '%2.' }];
  LISTS[`${q}-numeric`] = [LISTS[q]![0]!, { fmt: 'decimal', text: '%2)' }];
}

export interface NumPara {
  auto: string;
  text: string;
  instance?: number;
  level?: number;
  /** flags of the paragraph mark: Word draws the list number with them */
  mark?: string;
}

export interface CellObj {
  paras: (string | NumPara)[];
  /** background fill, hex (FFFF00) */
  shade?: string;
}

export type Cell = string | CellObj;

export type RawBlock = string | { table: Cell[][] } | NumPara;

const TOKEN_RE = /\[\[([rgbiuh]+):(.*?)\]\]|\t|\n/gs;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Run properties in the schema's order (b, i, color, highlight, u). */
function rPr(flags: string): string {
  if (!flags) return '';
  let out = '';
  if (flags.includes('b')) out += '<w:b/><w:bCs/>';
  if (flags.includes('i')) out += '<w:i/><w:iCs/>';
  if (flags.includes('r')) out += '<w:color w:val="FF0000"/>';
  else if (flags.includes('g')) out += '<w:color w:val="00AA00"/>';
  if (flags.includes('h')) out += '<w:highlight w:val="yellow"/>';
  if (flags.includes('u')) out += '<w:u w:val="single"/>';
  return `<w:rPr>${out}</w:rPr>`;
}

function textRun(text: string, flags = ''): string {
  return text ? `<w:r>${rPr(flags)}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>` : '';
}

export function runsXml(text: string): string {
  if (/\[\[(?:m:|img\]\]|col\]\])/.test(text))
    throw new Error('raw-docx writes no equations, pictures or column breaks');
  let out = '';
  let at = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    out += textRun(text.slice(at, m.index));
    if (m[0] === '\t') out += '<w:r><w:tab/></w:r>';
    else if (m[0] === '\n') out += '<w:r><w:br/></w:r>';
    else out += textRun(m[2]!, m[1]);
    at = m.index + m[0].length;
  }
  return out + textRun(text.slice(at));
}

class Lists {
  private readonly abstract = new Map<string, number>();
  private readonly nums = new Map<string, number>();
  private readonly numDefs: { numId: number; abstractId: number; levels: number }[] = [];

  numId(list: string, instance: number): number {
    const levels = LISTS[list];
    if (!levels) throw new Error(`unknown list ${list}`);
    const key = `${list}#${instance}`;
    let id = this.nums.get(key);
    if (id !== undefined) return id;
    let abs = this.abstract.get(list);
    if (abs === undefined) this.abstract.set(list, (abs = this.abstract.size));
    id = this.numDefs.length + 1;
    this.nums.set(key, id);
    this.numDefs.push({ numId: id, abstractId: abs, levels: levels.length });
    return id;
  }

  get used(): boolean {
    return this.numDefs.length > 0;
  }

  xml(): string {
    let out = '';
    for (const [list, abs] of this.abstract) {
      const lvls = LISTS[list]!.map(
        (l, i) =>
          `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:numFmt w:val="${l.fmt}"/><w:lvlText w:val="${esc(l.text)}"/>` +
          `<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>`,
      );
      out += `<w:abstractNum w:abstractNumId="${abs}"><w:multiLevelType w:val="${lvls.length > 1 ? 'multilevel' : 'singleLevel'}"/>${lvls.join('')}</w:abstractNum>`;
    }
    for (const n of this.numDefs) {
      let overrides = '';
      for (let l = 0; l < n.levels; l++)
        overrides += `<w:lvlOverride w:ilvl="${l}"><w:startOverride w:val="1"/></w:lvlOverride>`;
      out += `<w:num w:numId="${n.numId}"><w:abstractNumId w:val="${n.abstractId}"/>${overrides}</w:num>`;
    }
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering ${NS}>${out}</w:numbering>`;
  }
}

function paraXml(p: string | NumPara, lists: Lists): string {
  if (typeof p === 'string') return `<w:p>${runsXml(p)}</w:p>`;
  const numId = lists.numId(p.auto, p.instance ?? 0);
  const mark = p.mark ? rPr(p.mark) : '';
  const pPr = `<w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${p.level ?? 0}"/><w:numId w:val="${numId}"/></w:numPr>${mark}</w:pPr>`;
  return `<w:p>${pPr}${runsXml(p.text)}</w:p>`;
}

function cellXml(c: Cell, width: number, span: number, lists: Lists): string {
  const paras = typeof c === 'string' ? c.split('\n\n') : c.paras.length ? c.paras : [''];
  const shade = typeof c !== 'string' && c.shade ? `<w:shd w:val="clear" w:color="auto" w:fill="${c.shade}"/>` : '';
  const gridSpan = span > 1 ? `<w:gridSpan w:val="${span}"/>` : '';
  const tcPr = `<w:tcPr><w:tcW w:w="${width * span}" w:type="dxa"/>${gridSpan}${shade}</w:tcPr>`;
  return `<w:tc>${tcPr}${paras.map((p) => paraXml(p, lists)).join('')}</w:tc>`;
}

const BORDERS = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
  .map((b) => `<w:${b} w:val="single" w:sz="4" w:space="0" w:color="auto"/>`)
  .join('');

function tableXml(rows: Cell[][], lists: Lists): string {
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const width = Math.floor(9000 / cols);
  const grid = `<w:tblGrid>${`<w:gridCol w:w="${width}"/>`.repeat(cols)}</w:tblGrid>`;
  const trs = rows.map((r) => {
    // a row with fewer cells than the grid: its last cell spans the rest
    const cells = r.map((c, i) => cellXml(c, width, i === r.length - 1 ? cols - r.length + 1 : 1, lists));
    return `<w:tr>${cells.join('')}</w:tr>`;
  });
  const tblPr = `<w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblBorders>${BORDERS}</w:tblBorders></w:tblPr>`;
  return `<w:tbl>${tblPr}${grid}${trs.join('')}</w:tbl>`;
}

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const STYLES =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${NS}>` +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>' +
  '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>';

/** The document's word/document.xml (and numbering.xml when a list is used). */
export function documentParts(blocks: RawBlock[]): { document: string; numbering: string | null } {
  const lists = new Lists();
  let body = '';
  for (const b of blocks) {
    if (typeof b === 'string' || 'auto' in b) body += paraXml(b, lists);
    else body += tableXml(b.table, lists);
  }
  const sect =
    '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="709" w:footer="709" w:gutter="0"/></w:sectPr>';
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${NS}><w:body>${body}${sect}</w:body></w:document>`;
  return { document, numbering: lists.used ? lists.xml() : null };
}

const CT = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

/** A .docx of the blocks: [Content_Types].xml, the relationships, document.xml, styles.xml, numbering.xml if used. */
export function rawDocx(blocks: RawBlock[]): Uint8Array {
  const { document, numbering } = documentParts(blocks);
  const overrides =
    `<Override PartName="/word/document.xml" ContentType="${CT}.document.main+xml"/>` +
    `<Override PartName="/word/styles.xml" ContentType="${CT}.styles+xml"/>` +
    (numbering ? `<Override PartName="/word/numbering.xml" ContentType="${CT}.numbering+xml"/>` : '');
  const types =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`;
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`;
  const docRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/>` +
    (numbering ? `<Relationship Id="rId2" Type="${REL}/numbering" Target="numbering.xml"/>` : '') +
    '</Relationships>';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(types),
    '_rels/.rels': strToU8(rels),
    'word/document.xml': strToU8(document),
    'word/_rels/document.xml.rels': strToU8(docRels),
    'word/styles.xml': strToU8(STYLES),
  };
  if (numbering) files['word/numbering.xml'] = strToU8(numbering);
  return zipSync(files, { level: 6 });
}
