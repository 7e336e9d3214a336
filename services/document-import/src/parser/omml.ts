import { kid, kids, textOf, val, type XEl } from './xml.js';

const SYMBOLS: Record<string, string> = {
  π: '\\pi',
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  Δ: '\\Delta',
  δ: '\\delta',
  θ: '\\theta',
  λ: '\\lambda',
  μ: '\\mu',
  σ: '\\sigma',
  φ: '\\varphi',
  ω: '\\omega',
  Ω: '\\Omega',
  '≤': '\\le ',
  '≥': '\\ge ',
  '≠': '\\ne ',
  '≈': '\\approx ',
  '∞': '\\infty ',
  '·': '\\cdot ',
  '×': '\\times ',
  '÷': '\\div ',
  '±': '\\pm ',
  '→': '\\to ',
  '∈': '\\in ',
  '∉': '\\notin ',
  '⊂': '\\subset ',
  '∪': '\\cup ',
  '∩': '\\cap ',
  '∅': '\\emptyset ',
  '°': '^{\\circ}',
  '∀': '\\forall ',
  '∃': '\\exists ',
  '⇒': '\\Rightarrow ',
  '⇔': '\\Leftrightarrow ',
  '−': '-',
};

const NARY: Record<string, string> = {
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '∑': '\\sum',
  '∏': '\\prod',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
};

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat',
  '\u0304': '\\bar',
  '\u0305': '\\overline',
  '\u20d7': '\\vec',
  '\u0303': '\\tilde',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u030c': '\\check',
};

const FUNCS = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'log',
  'ln',
  'lim',
  'exp',
  'max',
  'min',
  'arcsin',
  'arccos',
  'arctan',
]);

const DELIMS: Record<string, string> = {
  '{': '\\{',
  '}': '\\}',
  '': '.',
  '|': '|',
  '‖': '\\|',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
};

export interface OmmlContext {
  unsupported: Set<string>;
}

function mapText(t: string): string {
  return [...t].map((ch) => SYMBOLS[ch] ?? ch).join('');
}

function prop(el: XEl, pr: string, name: string): string | undefined {
  return val(kid(kid(el, pr), name), 'm:val');
}

function part(el: XEl, name: string, ctx: OmmlContext): string {
  const p = kid(el, name);
  return p ? children(p, ctx) : '';
}

function children(el: XEl, ctx: OmmlContext): string {
  return kids(el)
    .map((c) => node(c, ctx))
    .join('');
}

function run(el: XEl): string {
  const t = kids(el, 'm:t')
    .map((x) => textOf(x))
    .join('');
  return FUNCS.has(t.trim()) ? `\\${t.trim()} ` : mapText(t);
}

function fraction(el: XEl, ctx: OmmlContext): string {
  const num = part(el, 'm:num', ctx);
  const den = part(el, 'm:den', ctx);
  const type = prop(el, 'm:fPr', 'm:type');
  if (type === 'lin') return `${num}/${den}`;
  if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
  return `\\frac{${num}}{${den}}`;
}

function radical(el: XEl, ctx: OmmlContext): string {
  const deg = part(el, 'm:deg', ctx);
  const e = part(el, 'm:e', ctx);
  return deg && prop(el, 'm:radPr', 'm:degHide') !== '1' ? `\\sqrt[${deg}]{${e}}` : `\\sqrt{${e}}`;
}

function nary(el: XEl, ctx: OmmlContext): string {
  const chr = prop(el, 'm:naryPr', 'm:chr') ?? '∫';
  let out = NARY[chr] ?? mapText(chr);
  const sub = part(el, 'm:sub', ctx);
  const sup = part(el, 'm:sup', ctx);
  if (sub && prop(el, 'm:naryPr', 'm:subHide') !== '1') out += `_{${sub}}`;
  if (sup && prop(el, 'm:naryPr', 'm:supHide') !== '1') out += `^{${sup}}`;
  return `${out} ${part(el, 'm:e', ctx)}`;
}

function delimiter(el: XEl, ctx: OmmlContext): string {
  const beg = prop(el, 'm:dPr', 'm:begChr') ?? '(';
  const end = prop(el, 'm:dPr', 'm:endChr') ?? ')';
  const sep = prop(el, 'm:dPr', 'm:sepChr') ?? '|';
  const inner = kids(el, 'm:e')
    .map((e) => children(e, ctx))
    .join(sep === '|' ? ' | ' : mapText(sep));
  return `\\left${DELIMS[beg] ?? beg}${inner}\\right${DELIMS[end] ?? end}`;
}

function matrix(el: XEl, ctx: OmmlContext): string {
  const rows = kids(el, 'm:mr').map((r) =>
    kids(r, 'm:e')
      .map((e) => children(e, ctx))
      .join(' & '),
  );
  return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
}

function accent(el: XEl, ctx: OmmlContext): string {
  const chr = prop(el, 'm:accPr', 'm:chr') ?? '\u0302';
  return `${ACCENTS[chr] ?? '\\hat'}{${part(el, 'm:e', ctx)}}`;
}

function bar(el: XEl, ctx: OmmlContext): string {
  const pos = prop(el, 'm:barPr', 'm:pos') ?? 'top';
  return `${pos === 'bot' ? '\\underline' : '\\overline'}{${part(el, 'm:e', ctx)}}`;
}

function eqArray(el: XEl, ctx: OmmlContext): string {
  return `\\begin{array}{l}${kids(el, 'm:e')
    .map((e) => children(e, ctx))
    .join(' \\\\ ')}\\end{array}`;
}

// A one-character base needs no braces: x^{2}, not {x}^{2}.
function base(el: XEl, ctx: OmmlContext): string {
  const e = part(el, 'm:e', ctx).trim();
  return e.length === 1 ? e : `{${e}}`;
}

type Handler = (el: XEl, ctx: OmmlContext) => string;

const HANDLERS: Record<string, Handler> = {
  'm:r': run,
  'm:f': fraction,
  'm:rad': radical,
  'm:nary': nary,
  'm:d': delimiter,
  'm:m': matrix,
  'm:acc': accent,
  'm:bar': bar,
  'm:eqArr': eqArray,
  'm:sSup': (el, c) => `${base(el, c)}^{${part(el, 'm:sup', c)}}`,
  'm:sSub': (el, c) => `${base(el, c)}_{${part(el, 'm:sub', c)}}`,
  'm:sSubSup': (el, c) => `${base(el, c)}_{${part(el, 'm:sub', c)}}^{${part(el, 'm:sup', c)}}`,
  'm:sPre': (el, c) => `{}_{${part(el, 'm:sub', c)}}^{${part(el, 'm:sup', c)}}{${part(el, 'm:e', c)}}`,
  'm:func': (el, c) => `${part(el, 'm:fName', c)}${part(el, 'm:e', c)}`,
  'm:limLow': (el, c) => `${part(el, 'm:e', c)}_{${part(el, 'm:lim', c)}}`,
  'm:limUpp': (el, c) => `${part(el, 'm:e', c)}^{${part(el, 'm:lim', c)}}`,
  'm:groupChr': (el, c) => `\\underbrace{${part(el, 'm:e', c)}}`,
};

// Containers whose content is rendered as is.
const TRANSPARENT = new Set(['m:oMath', 'm:e', 'm:box', 'm:borderBox', 'm:phant', 'w:r', 'm:oMathPara']);
const IGNORED = /Pr$|^w:|^m:argPr$/;

function node(el: XEl, ctx: OmmlContext): string {
  const h = HANDLERS[el.name];
  if (h) return h(el, ctx);
  if (TRANSPARENT.has(el.name)) return children(el, ctx);
  if (IGNORED.test(el.name)) return '';
  ctx.unsupported.add(el.name);
  return children(el, ctx);
}

export function ommlToLatex(el: XEl, ctx: OmmlContext): string {
  return children(el, ctx).replace(/\s+/g, ' ').trim();
}
