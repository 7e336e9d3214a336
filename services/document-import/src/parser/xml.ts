import { DocxError } from './errors.js';
import { ComplexityBudget } from './limits.js';

export interface XEl {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}
export type XNode = XEl | string;

// Sticky over what openTag accepted (blanks, then name="value", again): no scan restarts inside a name.
const ATTR_RE = /\s+([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const ENTITY_RE = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos)?;?/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function invalid(part: string, why: string): DocxError {
  return new DocxError('DOCX_XML_INVALID', `${part} is not well-formed XML: ${why}`);
}

// Only the five predefined entities and character references exist without a DOCTYPE; anything else is refused.
function decode(text: string, part: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY_RE, (m, ref: string | undefined) => {
    if (!ref || !m.endsWith(';')) throw invalid(part, `undeclared entity or stray & near "${m}"`);
    if (ref[0] !== '#') return NAMED[ref]!;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    if (code > 0x10ffff) throw invalid(part, 'character reference out of range');
    return String.fromCodePoint(code);
  });
}

function attributes(raw: string, part: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  ATTR_RE.lastIndex = 0;
  for (let m = ATTR_RE.exec(raw); m; m = ATTR_RE.exec(raw)) attrs[m[1]!] = decode(m[2] ?? m[3] ?? '', part);
  return attrs;
}

const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;

// Most attributes (rsids, sizes) are never read: they are split only when asked for. Entities are still
// checked at once, so a bad reference fails the part whether or not anyone reads it.
class Element implements XEl {
  readonly children: XNode[] = [];
  private parsed: Record<string, string> | undefined;

  constructor(
    readonly name: string,
    private readonly raw: string,
    private readonly part: string,
  ) {
    if (!raw) this.parsed = NO_ATTRS;
    else if (raw.includes('&')) this.parsed = attributes(raw, part);
  }

  get attrs(): Record<string, string> {
    return (this.parsed ??= attributes(this.raw, this.part));
  }
}

interface Cursor {
  text: string;
  part: string;
  at: number;
  stack: XEl[];
  /** counts elements, text nodes and depth as they are read (limits.ts); the nesting limit keeps every recursive
   * walk far from the stack's end */
  budget: ComplexityBudget;
}

function skipTo(c: Cursor, end: string): void {
  const i = c.text.indexOf(end, c.at);
  if (i < 0) throw invalid(c.part, `unterminated ${end}`);
  c.at = i + end.length;
}

// Markup that starts with "<!" or "<?": comments, CDATA and the declaration pass; a DOCTYPE never does.
function special(c: Cursor): void {
  const t = c.text;
  if (t.startsWith('<?', c.at)) return skipTo(c, '?>');
  if (t.startsWith('<!--', c.at)) return skipTo(c, '-->');
  if (t.startsWith('<![CDATA[', c.at)) {
    const end = t.indexOf(']]>', c.at);
    if (end < 0) throw invalid(c.part, 'unterminated CDATA');
    c.budget.text(c.part);
    c.stack[c.stack.length - 1]!.children.push(t.slice(c.at + 9, end));
    c.at = end + 3;
    return;
  }
  if (/^<!DOCTYPE/i.test(t.slice(c.at, c.at + 9))) {
    throw new DocxError('DOCX_XML_DOCTYPE', `${c.part} declares a DOCTYPE, which is refused`);
  }
  throw invalid(c.part, 'unexpected markup declaration');
}

// `</name blanks? >`, the name the open element's: compared in place, never cut out of the text.
function closeTag(c: Cursor): void {
  const t = c.text;
  const top = c.stack.pop();
  const end = c.at + 2 + (top?.name.length ?? 0);
  const i = blanksEnd(t, end);
  const named = top !== undefined && t.startsWith(top.name, c.at + 2) && !nameChar(t.charCodeAt(end));
  if (!named || t.charCodeAt(i) !== 62 || c.stack.length === 0) throw invalid(c.part, `mismatched closing tag`);
  c.at = i + 1;
}

// Character classes of a name and of the blanks between attributes, by char code: [A-Za-z_], [\w:.-] and \s (a
// blank outside ASCII is rare enough to ask a regex about).
function nameStart(ch: number): boolean {
  return (ch >= 97 && ch <= 122) || (ch >= 65 && ch <= 90) || ch === 95;
}

function nameChar(ch: number): boolean {
  return nameStart(ch) || (ch >= 48 && ch <= 58) || ch === 46 || ch === 45;
}

function blank(ch: number): boolean {
  return ch === 32 || ch === 10 || ch === 9 || ch === 13 || (ch > 127 && /\s/.test(String.fromCharCode(ch)));
}

function nameEnd(t: string, i: number): number {
  while (nameChar(t.charCodeAt(i))) i++;
  return i;
}

function blanksEnd(t: string, i: number): number {
  while (blank(t.charCodeAt(i))) i++;
  return i;
}

/** Where the attribute at `i` (its name's first character) ends, or -1 when it is not `name = "value"` (a value
 * holds no `<`). */
function attributeEnd(t: string, i: number): number {
  let j = blanksEnd(t, nameEnd(t, i + 1));
  if (t.charCodeAt(j) !== 61) return -1;
  j = blanksEnd(t, j + 1);
  const quote = t.charCodeAt(j);
  if (quote !== 34 && quote !== 39) return -1;
  for (j++; j < t.length; j++) {
    const ch = t.charCodeAt(j);
    if (ch === quote) return j + 1;
    if (ch === 60) return -1;
  }
  return -1;
}

// `<name (blanks name = "value")* blanks? /? >`, scanned by hand: a regex's match array and captures were a tenth
// of a parse.
function openTag(c: Cursor): void {
  const t = c.text;
  if (!nameStart(t.charCodeAt(c.at + 1))) throw invalid(c.part, `bad tag at offset ${c.at}`);
  const end = nameEnd(t, c.at + 2);
  let attrsEnd = end;
  let i = blanksEnd(t, end);
  while (i > attrsEnd && nameStart(t.charCodeAt(i))) {
    attrsEnd = attributeEnd(t, i);
    if (attrsEnd < 0) throw invalid(c.part, `bad tag at offset ${c.at}`);
    i = blanksEnd(t, attrsEnd);
  }
  const selfClosing = t.charCodeAt(i) === 47;
  if (selfClosing) i++;
  if (t.charCodeAt(i) !== 62) throw invalid(c.part, `bad tag at offset ${c.at}`);
  const name = t.slice(c.at + 1, end);
  // the root holder is not an element of the part: the first element is at depth 1
  c.budget.element(c.part, name, c.stack.length);
  const el = new Element(name, t.slice(end, attrsEnd), c.part);
  c.stack[c.stack.length - 1]!.children.push(el);
  if (!selfClosing) c.stack.push(el);
  c.at = i + 1;
}

function markup(c: Cursor): void {
  const next = c.text[c.at + 1];
  if (next === '!' || next === '?') special(c);
  else if (next === '/') closeTag(c);
  else openTag(c);
}

function textNode(c: Cursor, end: number): void {
  if (end <= c.at || c.stack.length <= 1) return;
  c.budget.text(c.part);
  c.stack[c.stack.length - 1]!.children.push(decode(c.text.slice(c.at, end), c.part));
}

/**
 * A small strict XML reader for OOXML parts: DOCTYPE and unknown entities are refused (no expansion bombs), and
 * the budget (one per document, shared by its parts) refuses a part with too many nodes or too deep a nesting
 * (DOCX_TOO_COMPLEX) while it is read, before the tree grows past it.
 */
export function parseXml(text: string, part: string, budget = new ComplexityBudget()): XEl {
  const root: XEl = { name: '#root', attrs: {}, children: [] };
  const c: Cursor = { text, part, at: 0, stack: [root], budget };
  while (c.at < text.length) {
    const lt = text.indexOf('<', c.at);
    const end = lt < 0 ? text.length : lt;
    textNode(c, end);
    c.at = end;
    if (lt >= 0) markup(c);
  }
  if (c.stack.length !== 1) throw invalid(part, 'unclosed elements at the end');
  const top = root.children.find((n): n is XEl => typeof n !== 'string');
  if (!top) throw new DocxError('DOCX_XML_INVALID', `${part} has no root element`);
  return top;
}

export function kids(el: XEl, name?: string): XEl[] {
  return el.children.filter((c): c is XEl => typeof c !== 'string' && (!name || c.name === name));
}

export function kid(el: XEl | undefined, name: string): XEl | undefined {
  return el?.children.find((c): c is XEl => typeof c !== 'string' && c.name === name);
}

export function textOf(el: XEl): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

export function val(el: XEl | undefined, attr = 'w:val'): string | undefined {
  return el?.attrs[attr];
}
