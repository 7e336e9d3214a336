import { ommlToLatex, type OmmlContext } from './omml.js';
import type { MediaKind, MediaRef, Seg } from './types.js';
import { kid, kids, textOf, val, type XEl } from './xml.js';

export interface RunContext extends OmmlContext {
  rels: Map<string, string>;
  media: MediaRef[];
}

interface Style {
  red: boolean;
  underline: boolean;
  highlight: boolean;
}

function isRed(hex: string | undefined): boolean {
  if (!hex || !/^[0-9a-f]{6}$/i.test(hex)) return hex === 'red';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return r >= 0xb0 && g < 0x70 && b < 0x70;
}

function styleOf(rPr: XEl | undefined): Style {
  const u = kid(rPr, 'w:u');
  const hl = val(kid(rPr, 'w:highlight'));
  const shd = kid(rPr, 'w:shd')?.attrs['w:fill'];
  return {
    red: isRed(val(kid(rPr, 'w:color'))),
    underline: u !== undefined && val(u) !== 'none',
    highlight: (hl !== undefined && hl !== 'none') || /^ffff00$/i.test(shd ?? ''),
  };
}

const PLAIN: Style = { red: false, underline: false, highlight: false };

function findAll(el: XEl, name: string, out: XEl[] = []): XEl[] {
  for (const c of kids(el)) {
    if (c.name === name) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}

function mediaSeg(ctx: RunContext, relId: string | undefined, kind: MediaKind): Seg | undefined {
  const target = relId ? ctx.rels.get(relId) : undefined;
  if (!relId || !target) return undefined;
  const media: MediaRef = { index: ctx.media.length + 1, rel_id: relId, target, kind };
  ctx.media.push(media);
  return { kind: 'media', text: `[[media:${media.index}]]`, ...PLAIN, media };
}

function objectSeg(el: XEl, ctx: RunContext): Seg | undefined {
  const ole = findAll(el, 'o:OLEObject')[0];
  const kind: MediaKind = ole && /^Equation/i.test(ole.attrs.ProgID ?? '') ? 'equation_object' : 'ole_object';
  const img = findAll(el, 'v:imagedata')[0];
  return mediaSeg(ctx, img?.attrs['r:id'], ole ? kind : 'image');
}

function contentSeg(c: XEl, style: Style, ctx: RunContext): Seg | undefined {
  switch (c.name) {
    case 'w:t':
      return { kind: 'text', text: textOf(c), ...style };
    case 'w:tab':
      return { kind: 'text', text: '\t', ...PLAIN };
    case 'w:br':
    case 'w:cr':
      return { kind: 'text', text: '\n', ...PLAIN };
    case 'w:drawing':
      return mediaSeg(ctx, findAll(c, 'a:blip')[0]?.attrs['r:embed'], 'image');
    case 'w:pict':
    case 'w:object':
      return objectSeg(c, ctx);
    default:
      return undefined;
  }
}

function runSegs(r: XEl, ctx: RunContext, out: Seg[]): void {
  const style = styleOf(kid(r, 'w:rPr'));
  for (const c of kids(r)) {
    const seg = contentSeg(c, style, ctx);
    if (seg) out.push(seg);
  }
}

function mathSeg(m: XEl, ctx: RunContext): Seg {
  const latex = ommlToLatex(m, ctx);
  return { kind: 'math', text: `$${latex}$`, latex, ...PLAIN };
}

const WRAPPERS = new Set(['w:hyperlink', 'w:ins', 'w:smartTag', 'w:sdt', 'w:sdtContent', 'w:fldSimple', 'w:customXml']);

export function paragraphSegs(p: XEl, ctx: RunContext, out: Seg[] = []): Seg[] {
  for (const c of kids(p)) {
    if (c.name === 'w:r') runSegs(c, ctx, out);
    else if (c.name === 'm:oMath') out.push(mathSeg(c, ctx));
    else if (c.name === 'm:oMathPara') kids(c, 'm:oMath').forEach((m) => out.push(mathSeg(m, ctx)));
    else if (WRAPPERS.has(c.name)) paragraphSegs(c, ctx, out);
  }
  return mergeSegs(out);
}

function sameStyle(a: Seg, b: Seg): boolean {
  return a.red === b.red && a.underline === b.underline && a.highlight === b.highlight;
}

// Proofing marks and mid-word formatting split runs; adjacent text with the same marks is one text.
function mergeSegs(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (last && last.kind === 'text' && s.kind === 'text' && sameStyle(last, s)) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
