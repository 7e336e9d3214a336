import { lookOf } from './runs.js';
import type { Look } from './types.js';
import { kid, kids, val, type XEl } from './xml.js';

export interface NumRef {
  numId: string | undefined;
  ilvl: string | undefined;
}

interface StyleDef {
  basedOn: string | undefined;
  num: NumRef | undefined;
}

function numRef(numPr: XEl | undefined): NumRef | undefined {
  if (!numPr) return undefined;
  return { numId: val(kid(numPr, 'w:numId')), ilvl: val(kid(numPr, 'w:ilvl')) };
}

// A style's list comes from its own w:numPr or, failing that, from the style it is based on; the chain is cut at
// ten links so a cycle in a hostile styles.xml cannot loop.
function resolve(defs: Map<string, StyleDef>, id: string): NumRef | undefined {
  let def = defs.get(id);
  for (let hops = 0; def && hops < 10; hops++) {
    if (def.num) return def.num;
    def = def.basedOn ? defs.get(def.basedOn) : undefined;
  }
  return undefined;
}

/** Paragraph style id → the list its paragraphs are numbered by (styles.xml `w:pPr/w:numPr`). */
export function styleNumbering(root: XEl | undefined): Map<string, NumRef> {
  const defs = new Map<string, StyleDef>();
  for (const s of root ? kids(root, 'w:style') : []) {
    if (s.attrs['w:type'] !== 'paragraph' || !s.attrs['w:styleId']) continue;
    defs.set(s.attrs['w:styleId'], { basedOn: val(kid(s, 'w:basedOn')), num: numRef(kid(kid(s, 'w:pPr'), 'w:numPr')) });
  }
  const out = new Map<string, NumRef>();
  for (const id of defs.keys()) {
    const num = resolve(defs, id);
    if (num?.numId) out.set(id, num);
  }
  return out;
}

/** The paragraph's list: its own w:numPr wins field by field over its style's (numId 0 switches numbering off). */
export function paragraphNumbering(pPr: XEl | undefined, styles: Map<string, NumRef>): NumRef | undefined {
  const direct = numRef(kid(pPr, 'w:numPr'));
  const styleId = val(kid(pPr, 'w:pStyle'));
  const fromStyle = styleId ? styles.get(styleId) : undefined;
  const numId = direct?.numId ?? fromStyle?.numId;
  if (!numId || numId === '0') return undefined;
  return { numId, ilvl: direct?.ilvl ?? fromStyle?.ilvl };
}

interface LookDef {
  basedOn: string | undefined;
  look: Partial<Look>;
}

function lookDefs(root: XEl | undefined): Map<string, LookDef> {
  const defs = new Map<string, LookDef>();
  for (const s of root ? kids(root, 'w:style') : []) {
    const type = s.attrs['w:type'];
    const id = s.attrs['w:styleId'];
    if ((type === 'paragraph' || type === 'character') && id) {
      defs.set(id, { basedOn: val(kid(s, 'w:basedOn')), look: lookOf(kid(s, 'w:rPr')) });
    }
  }
  return defs;
}

/** A style's run properties over those of the styles it is based on (ten links at most: a cycle cannot loop). */
function chainLook(defs: Map<string, LookDef>, id: string): Partial<Look> {
  const chain: Partial<Look>[] = [];
  let def = defs.get(id);
  for (let hops = 0; def && hops < 10; hops++) {
    chain.unshift(def.look);
    def = def.basedOn ? defs.get(def.basedOn) : undefined;
  }
  return Object.assign({}, ...chain) as Partial<Look>;
}

/** Paragraph and character style id → the run properties it sets, its basedOn chain included. */
export function styleLooks(root: XEl | undefined): Map<string, Partial<Look>> {
  const defs = lookDefs(root);
  const out = new Map<string, Partial<Look>>();
  for (const id of defs.keys()) {
    const look = chainLook(defs, id);
    if (Object.keys(look).length > 0) out.set(id, look);
  }
  return out;
}
