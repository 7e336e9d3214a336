import { expect } from 'chai';
import { zipSync, strToU8 } from 'fflate';
import { readDocxPackage } from '../../src/parser/package.js';
import { DocxError } from '../../src/parser/errors.js';
import { DEFAULT_LIMITS } from '../../src/parser/zip.js';

const CT = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
const DOC =
  '<?xml version="1.0"?><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Câu 1. x</w:t></w:r></w:p></w:body></w:document>';

function pkg(files: Record<string, Uint8Array>, level = 6): Uint8Array {
  return zipSync(files, { level: level as 6 });
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(DocxError);
    return (err as DocxError).code;
  }
  return 'no error';
}

describe('docx package reading', () => {
  it('reads a minimal package and ignores path-like entry names', () => {
    const p = readDocxPackage(
      pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(DOC), '../evil.xml': strToU8('x') }),
    );
    expect(p.document.name).to.equal('w:document');
    expect(p.zip.has('../evil.xml')).to.equal(false);
  });

  it('refuses a file with the wrong magic', () => {
    expect(codeOf(() => readDocxPackage(strToU8('%PDF-1.7 not a zip at all')))).to.equal('DOCX_NOT_ZIP');
  });

  it('refuses a truncated archive', () => {
    const whole = pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(DOC.repeat(50)) });
    expect(codeOf(() => readDocxPackage(whole.subarray(0, Math.floor(whole.length / 2))))).to.equal('DOCX_CORRUPT');
  });

  it('refuses a package without word/document.xml', () => {
    expect(codeOf(() => readDocxPackage(pkg({ '[Content_Types].xml': strToU8(CT) })))).to.equal(
      'DOCX_MISSING_DOCUMENT',
    );
  });

  it('refuses a zip bomb by ratio while inflating', () => {
    const zeros = new Uint8Array(40 * 1024 * 1024);
    const bomb = pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': zeros }, 9);
    expect(bomb.length).to.be.lessThan(1024 * 1024);
    expect(codeOf(() => readDocxPackage(bomb))).to.equal('DOCX_COMPRESSION_RATIO');
  });

  it('refuses an entry that inflates beyond its declared size (lying header)', () => {
    const big = strToU8(DOC.padEnd(300_000, ' '));
    const z = pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': big });
    // Patch the central directory's uncompressed size of document.xml down to 100 bytes.
    const view = new DataView(z.buffer, z.byteOffset, z.byteLength);
    for (let i = 0; i < z.length - 46; i++) {
      if (view.getUint32(i, true) !== 0x02014b50) continue;
      const name = new TextDecoder().decode(z.subarray(i + 46, i + 46 + view.getUint16(i + 28, true)));
      if (name === 'word/document.xml') view.setUint32(i + 24, 100, true);
    }
    expect(codeOf(() => readDocxPackage(z))).to.equal('DOCX_TOO_LARGE');
  });

  it('refuses too many entries and a declared total over the limit', () => {
    const files: Record<string, Uint8Array> = { '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(DOC) };
    for (let i = 0; i < 30; i++) files[`word/media/x${i}.bin`] = strToU8('x');
    expect(codeOf(() => readDocxPackage(pkg(files), { ...DEFAULT_LIMITS, maxEntries: 10 }))).to.equal(
      'DOCX_TOO_MANY_ENTRIES',
    );
    expect(codeOf(() => readDocxPackage(pkg(files), { ...DEFAULT_LIMITS, maxTotalUncompressed: 100 }))).to.equal(
      'DOCX_TOO_LARGE',
    );
  });

  it('refuses an XML part over 32 MB even when the archive limits allow it', () => {
    const huge = strToU8(DOC.replace('x</w:t>', 'x'.repeat(33 * 1024 * 1024) + '</w:t>'));
    const z = pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': huge }, 1);
    expect(codeOf(() => readDocxPackage(z, { ...DEFAULT_LIMITS, maxRatio: 10_000 }))).to.equal('DOCX_TOO_LARGE');
  });

  it('refuses a DOCTYPE (entity expansion) in any XML part', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>' +
      '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>';
    const z = pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(laughs) });
    expect(codeOf(() => readDocxPackage(z))).to.equal('DOCX_XML_DOCTYPE');
  });

  it('refuses an undeclared entity and malformed XML', () => {
    const bad = DOC.replace('x</w:t>', '&xxe;</w:t>');
    expect(
      codeOf(() => readDocxPackage(pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(bad) }))),
    ).to.equal('DOCX_XML_INVALID');
    const broken = DOC.slice(0, -20);
    expect(
      codeOf(() => readDocxPackage(pkg({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(broken) }))),
    ).to.equal('DOCX_XML_INVALID');
  });
});
