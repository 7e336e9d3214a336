import { Numbering } from './numbering.js';
import type { DocxPackage } from './package.js';
import { lookOf, paragraphLook, paragraphSegs, withLook, type RunContext } from './runs.js';
import { paragraphNumbering, styleLooks, styleNumbering, type NumRef } from './styles.js';
import { type Block, type MediaRef, type Para, type Table, pushAll } from './types.js';
import { kid, kids, type XEl } from './xml.js';

export interface DocModel {
  blocks: Block[];
  media: MediaRef[];
  unsupportedMath: string[];
}

interface Walk {
  ctx: RunContext;
  numbering: Numbering;
  styles: Map<string, NumRef>;
  blocks: Block[];
  counter: number;
}

function para(p: XEl, w: Walk): Para {
  const out: Para = { kind: 'p', index: w.counter++, segs: paragraphSegs(p, w.ctx) };
  const num = paragraphNumbering(kid(p, 'w:pPr'), w.styles);
  if (num) {
    const level = Number(num.ilvl ?? 0);
    const label = w.numbering.next(num.numId!, level);
    if (label) {
      out.autoLabel = label;
      out.autoLevel = level;
      out.autoList = num.numId!;
      out.labelLook = withLook(paragraphLook(p, w.ctx), lookOf(kid(kid(p, 'w:pPr'), 'w:rPr')));
    } else if (label === '') out.bullet = true;
  }
  return out;
}

function cellParas(tc: XEl, w: Walk): Para[] {
  const out: Para[] = [];
  for (const c of kids(tc)) {
    if (c.name === 'w:p') out.push(para(c, w));
    else if (c.name === 'w:tbl') pushAll(out, flattenTable(table(c, w)));
  }
  const fill = kid(kid(tc, 'w:tcPr'), 'w:shd')?.attrs['w:fill'];
  return fill !== undefined && !/^(auto|ffffff)$/i.test(fill) ? shadedOption(out) : out;
}

// An option in a cell whose background is filled (the answer of an options table) reads as highlighted text; other
// shaded cells (a table's header row) keep their look.
function shadedOption(paras: Para[]): Para[] {
  const text = paras[0]?.segs.map((s) => s.text).join('') ?? '';
  if (!/^\s*\(?[A-G]\s*[.)]/.test(text)) return paras;
  return paras.map((p) => ({ ...p, segs: p.segs.map((s) => (s.kind === 'text' ? { ...s, highlight: true } : s)) }));
}

function flattenTable(t: Table): Para[] {
  return t.rows.flatMap((r) => r.flat());
}

function table(tbl: XEl, w: Walk): Table {
  const index = w.counter++;
  const rows = kids(tbl, 'w:tr').map((tr) => kids(tr, 'w:tc').map((tc) => cellParas(tc, w)));
  return { kind: 'table', index, rows };
}

// Properties and text hold no text box: their subtrees are not searched.
const NO_BOXES = new Set(['w:pPr', 'w:rPr', 'w:t', 'm:oMath', 'm:oMathPara']);

/** The text boxes anchored in an element, outermost only; a VML fallback (`mc:Fallback`) repeats them, so it is
 * skipped. */
function textBoxes(el: XEl, out: XEl[] = []): XEl[] {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'w:txbxContent') out.push(c);
    else if (c.name !== 'mc:Fallback' && !NO_BOXES.has(c.name)) textBoxes(c, out);
  }
  return out;
}

// A paragraph's text boxes (a PDF-to-Word conversion puts whole questions in them) are read after it, in order.
function walk(container: XEl, w: Walk): void {
  for (const c of kids(container)) {
    if (c.name === 'w:p') {
      w.blocks.push(para(c, w));
      for (const box of textBoxes(c)) walk(box, w);
    } else if (c.name === 'w:tbl') w.blocks.push(table(c, w));
    else if (c.name === 'w:sdt' || c.name === 'w:sdtContent' || c.name === 'w:customXml') walk(c, w);
  }
}

export function buildModel(pkg: DocxPackage): DocModel {
  const body = kid(pkg.document, 'w:body');
  const ctx: RunContext = { rels: pkg.rels, media: [], unsupported: new Set(), looks: styleLooks(pkg.styles) };
  const numbering = new Numbering(pkg.numbering);
  const w: Walk = { ctx, numbering, styles: styleNumbering(pkg.styles), blocks: [], counter: 0 };
  if (body) walk(body, w);
  return { blocks: w.blocks, media: ctx.media, unsupportedMath: [...ctx.unsupported] };
}
