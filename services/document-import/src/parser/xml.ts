import { SaxesParser } from 'saxes';
import { DocxError } from './errors.js';

export interface XEl {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}
export type XNode = XEl | string;

// DOCTYPE is refused outright: without it no entity can be declared, so no expansion bomb is possible.
export function parseXml(text: string, part: string): XEl {
  const parser = new SaxesParser({ xmlns: false });
  const root: XEl = { name: '#root', attrs: {}, children: [] };
  const stack: XEl[] = [root];
  parser.on('doctype', () => {
    throw new DocxError('DOCX_XML_DOCTYPE', `${part} declares a DOCTYPE, which is refused`);
  });
  parser.on('error', (err) => {
    throw new DocxError('DOCX_XML_INVALID', `${part} is not well-formed XML: ${err.message}`);
  });
  parser.on('opentag', (tag) => {
    const el: XEl = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [] };
    stack[stack.length - 1]!.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (t) => {
    stack[stack.length - 1]!.children.push(t);
  });
  parser.write(text).close();
  const top = root.children.find((c): c is XEl => typeof c !== 'string');
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
