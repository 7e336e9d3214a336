// Damaged files must end in a DocxError (a clear 4xx), never another exception.
import { expect } from 'chai';
import { strToU8, strFromU8, unzipSync, zipSync } from 'fflate';
import { DocxError, parseDocx } from '../../src/parser/index.js';
import { makeDocx } from './support/build-docx.js';

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function outcome(bytes: Uint8Array): string {
  try {
    parseDocx(bytes);
    return 'parsed';
  } catch (err) {
    if (err instanceof DocxError) return err.code;
    throw err;
  }
}

describe('docx parser: damaged files', () => {
  let good: Uint8Array;
  before(async () => {
    good = await makeDocx([
      'PHẦN I',
      'Câu 1. [[m:\\frac{1}{2}]] [[img]]',
      'A. [[r:x]]\tB. y\tC. z\tD. w',
      { table: [['1.A', '2.B']] },
      'Câu 2. a',
      'a) s (Đúng)',
      'b) t (Sai)',
    ]);
  });

  it('flipped bytes anywhere in the archive give a DocxError or a result', () => {
    const r = rng(7);
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const b = good.slice();
      for (let k = 0; k < 1 + Math.floor(r() * 8); k++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
      seen.add(outcome(b));
    }
    expect(seen.size).to.be.greaterThan(1);
  });

  it('damaged document.xml text gives a DocxError or a result', () => {
    const files = unzipSync(good);
    const xml = strFromU8(files['word/document.xml']!);
    const r = rng(11);
    const junk = [
      '<',
      '>',
      '&',
      '"',
      '</w:p>',
      '<w:p>',
      '<m:f>',
      '&#xFFFFFF;',
      '<!DOCTYPE x>',
      '<w:numPr><w:numId w:val="9"/>',
    ];
    for (let i = 0; i < 300; i++) {
      const at = Math.floor(r() * xml.length);
      const cut = Math.floor(r() * 20);
      const damaged = xml.slice(0, at) + junk[Math.floor(r() * junk.length)] + xml.slice(at + cut);
      outcome(zipSync({ ...files, 'word/document.xml': strToU8(damaged) }));
    }
  });
});
