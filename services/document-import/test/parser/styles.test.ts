import { expect } from 'chai';
import { paragraphNumbering, styleNumbering } from '../../src/parser/styles.js';
import { parseXml } from '../../src/parser/xml.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function style(id: string, inner: string): string {
  return `<w:style w:type="paragraph" w:styleId="${id}">${inner}</w:style>`;
}

const STYLES = parseXml(
  `<w:styles ${W}>` +
    style('Q', '<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="5"/></w:numPr></w:pPr>') +
    style('Child', '<w:basedOn w:val="Q"/>') +
    style('LoopA', '<w:basedOn w:val="LoopB"/>') +
    style('LoopB', '<w:basedOn w:val="LoopA"/>') +
    '</w:styles>',
  'styles.xml',
);

function pPr(inner: string): ReturnType<typeof parseXml> {
  return parseXml(`<w:pPr ${W}>${inner}</w:pPr>`, 'document.xml');
}

describe('docx parser: numbering from paragraph styles', () => {
  const styles = styleNumbering(STYLES);

  it('resolves a style list through basedOn and stops on a basedOn cycle', () => {
    expect(styles.get('Q')).to.deep.equal({ numId: '5', ilvl: '1' });
    expect(styles.get('Child')).to.deep.equal({ numId: '5', ilvl: '1' });
    expect(styles.has('LoopA')).to.equal(false);
  });

  it('lets the paragraph override level or list, and numId 0 switch numbering off', () => {
    const ilvl = pPr('<w:pStyle w:val="Q"/><w:numPr><w:ilvl w:val="0"/></w:numPr>');
    expect(paragraphNumbering(ilvl, styles)).to.deep.equal({ numId: '5', ilvl: '0' });
    const off = pPr('<w:pStyle w:val="Child"/><w:numPr><w:numId w:val="0"/></w:numPr>');
    expect(paragraphNumbering(off, styles)).to.equal(undefined);
    expect(paragraphNumbering(pPr('<w:pStyle w:val="Other"/>'), styles)).to.equal(undefined);
  });
});
