import { expect } from 'chai';
import { DocxError } from '../../src/parser/errors.js';
import { parseXml, textOf } from '../../src/parser/xml.js';

function code(xml: string): string {
  try {
    parseXml(xml, 'part.xml');
    return 'ok';
  } catch (err) {
    expect(err).to.be.instanceOf(DocxError);
    return (err as DocxError).code;
  }
}

describe('docx parser: XML reader', () => {
  it('reads elements, attributes, predefined entities, character references, CDATA and comments', () => {
    const el = parseXml(
      `<?xml version="1.0"?><!-- c --><a x="1 &amp; 2" y='q'><b>&lt;&#65;&#x42;&quot;</b><![CDATA[<raw>]]><c/></a>`,
      'p',
    );
    expect(el.name).to.equal('a');
    expect(el.attrs).to.deep.equal({ x: '1 & 2', y: 'q' });
    expect(textOf(el)).to.equal('<AB"<raw>');
  });

  it('refuses DOCTYPE, unknown entities, stray ampersands and broken nesting', () => {
    expect(code('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>')).to.equal('DOCX_XML_DOCTYPE');
    expect(code('<a>&e;</a>')).to.equal('DOCX_XML_INVALID');
    expect(code('<a>fish & chips</a>')).to.equal('DOCX_XML_INVALID');
    expect(code('<a><b></a></b>')).to.equal('DOCX_XML_INVALID');
    expect(code('<a><b>')).to.equal('DOCX_XML_INVALID');
    expect(code('<a x=1/>')).to.equal('DOCX_XML_INVALID');
    expect(code('')).to.equal('DOCX_XML_INVALID');
    expect(code('<a/>')).to.equal('ok');
  });

  it('refuses nesting deeper than the limit as DOCX_TOO_COMPLEX while reading, and reads it up to the limit', () => {
    expect(code('<a>'.repeat(100_000) + '</a>'.repeat(100_000))).to.equal('DOCX_TOO_COMPLEX');
    expect(code('<a>'.repeat(129) + '</a>'.repeat(129))).to.equal('DOCX_TOO_COMPLEX');
    expect(code('<a>'.repeat(128) + '</a>'.repeat(128))).to.equal('ok');
  });
});
