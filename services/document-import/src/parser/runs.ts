import { ommlToLatex, type OmmlContext } from './omml.js';
import { PLAIN, type Look, type MediaKind, type MediaRef, type Seg } from './types.js';
import { kid, kids, textOf, val, type XEl } from './xml.js';

export interface RunContext extends OmmlContext {
  rels: Map<string, string>;
  media: MediaRef[];
  /** paragraph and character style id → the run properties it sets (styles.xml) */
  looks: Map<string, Partial<Look>>;
}

const OFF = new Set(['0', 'false', 'off']);

function toggle(el: XEl | undefined): boolean | undefined {
  return el === undefined ? undefined : !OFF.has(val(el) ?? 'true');
}

function colorOf(hex: string | undefined): string | null | undefined {
  if (hex === undefined) return undefined;
  if (!/^[0-9a-f]{6}$/i.test(hex)) return hex === 'auto' ? null : hex.toLowerCase();
  const c = hex.toLowerCase();
  // Near-black text (Word themes write 000000, 0d0d0d, 1f1f1f …) is the default colour, not a mark.
  return [0, 2, 4].every((i) => parseInt(c.slice(i, i + 2), 16) < 0x40) ? null : c;
}

function isRed(color: string | null): boolean {
  if (color === null || !/^[0-9a-f]{6}$/.test(color)) return color === 'red';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  return r >= 0xb0 && g < 0x70 && b < 0x70;
}

function shaded(fill: string | undefined): boolean | undefined {
  if (fill === undefined) return undefined;
  return !/^(auto|ffffff|000000)$/i.test(fill);
}

function highlightOf(rPr: XEl): boolean | undefined {
  const hl = val(kid(rPr, 'w:highlight'));
  const shd = shaded(kid(rPr, 'w:shd')?.attrs['w:fill']);
  if (hl === undefined && shd === undefined) return undefined;
  return (hl !== undefined && hl !== 'none') || shd === true;
}

/** The properties an rPr sets; those it leaves out (undefined) come from the styles beneath it. */
export function lookOf(rPr: XEl | undefined): Partial<Look> {
  const found: Partial<Look> = {};
  if (!rPr) return found;
  const u = kid(rPr, 'w:u');
  if (u) found.underline = val(u) !== 'none';
  const highlight = highlightOf(rPr);
  if (highlight !== undefined) found.highlight = highlight;
  const color = colorOf(val(kid(rPr, 'w:color')));
  if (color !== undefined) found.color = color;
  const bold = toggle(kid(rPr, 'w:b'));
  if (bold !== undefined) found.bold = bold;
  const italic = toggle(kid(rPr, 'w:i'));
  if (italic !== undefined) found.italic = italic;
  return found;
}

export function withLook(base: Look, over: Partial<Look>): Look {
  const look = { ...base, ...over };
  look.red = isRed(look.color);
  return look;
}

function findAll(el: XEl, name: string, out: XEl[] = []): XEl[] {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
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

function contentSeg(c: XEl, style: Look, ctx: RunContext): Seg | undefined {
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

function runSegs(r: XEl, ctx: RunContext, base: Look, out: Seg[]): void {
  const rPr = kid(r, 'w:rPr');
  const charStyle = val(kid(rPr, 'w:rStyle'));
  const charLook = charStyle && ctx.looks.get(charStyle);
  const style = withLook(charLook ? withLook(base, charLook) : base, lookOf(rPr));
  for (const c of kids(r)) {
    const seg = contentSeg(c, style, ctx);
    if (seg) out.push(seg);
  }
}

// An equation's look is its first math run's (a teacher colours the whole formula of the right option).
function mathSeg(m: XEl, ctx: RunContext, base: Look): Seg {
  const latex = ommlToLatex(m, ctx);
  const rPr = kid(findAll(m, 'm:r')[0], 'w:rPr');
  return { kind: 'math', text: `$${latex}$`, latex, ...withLook(base, lookOf(rPr)) };
}

const WRAPPERS = new Set(['w:hyperlink', 'w:ins', 'w:smartTag', 'w:sdt', 'w:sdtContent', 'w:fldSimple', 'w:customXml']);

/** The look a paragraph's runs start from: its paragraph style's run properties. */
export function paragraphLook(p: XEl, ctx: RunContext): Look {
  const styleId = val(kid(kid(p, 'w:pPr'), 'w:pStyle'));
  return withLook(PLAIN, (styleId && ctx.looks.get(styleId)) || {});
}

export function paragraphSegs(p: XEl, ctx: RunContext, base = paragraphLook(p, ctx), out: Seg[] = []): Seg[] {
  for (const c of kids(p)) {
    if (c.name === 'w:r') runSegs(c, ctx, base, out);
    else if (c.name === 'm:oMath') out.push(mathSeg(c, ctx, base));
    else if (c.name === 'm:oMathPara') kids(c, 'm:oMath').forEach((m) => out.push(mathSeg(m, ctx, base)));
    else if (WRAPPERS.has(c.name)) paragraphSegs(c, ctx, base, out);
  }
  return mergeSegs(out);
}

export function sameLook(a: Look, b: Look): boolean {
  return (
    a.color === b.color &&
    a.underline === b.underline &&
    a.highlight === b.highlight &&
    a.bold === b.bold &&
    a.italic === b.italic
  );
}

// Proofing marks and mid-word formatting split runs; adjacent text with the same marks is one text.
function mergeSegs(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (last && last.kind === 'text' && s.kind === 'text' && sameLook(last, s)) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
