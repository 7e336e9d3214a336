// Documents for the sandbox tests, as raw WordprocessingML (fast to build at any size).
import { strToU8, zipSync } from 'fflate';

const NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const CT = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

const p = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

export function rawDocx(body: string): Uint8Array {
  const document = `<?xml version="1.0"?><w:document ${NS}><w:body>${body}</w:body></w:document>`;
  return zipSync({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(document) });
}

/** One question and its options. */
export function smallDocx(): Uint8Array {
  return rawDocx(p('Câu 1. 1 + 1 = ?') + p('A. 1\tB. 2\tC. 3\tD. 4') + p('Đáp án: B'));
}

/** A valid question whose stem runs on for `lines` paragraphs: real work for a parse (the default 40,000 lines take
 * hundreds of milliseconds to seconds, and some tens of MB). */
export function longDocx(lines = 40_000): Uint8Array {
  const filler = Array.from({ length: lines }, (_, i) => p(`dòng ${i + 1} của đề bài, nội dung ngắn.`)).join('');
  return rawDocx(p('Câu 1. Cho hàm số sau.') + filler + p('A. 1') + p('B. 2') + p('Đáp án: B'));
}

/** 30 MB of paragraphs that carry only a revision id (as Word writes them) in a 0.3 MB file, under every byte and ratio limit:
 * more than a million elements, far past the paragraph limit. */
export function tooManyElements(): Uint8Array {
  let seed = 20;
  const rsid = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 0).toString(16).toUpperCase().padStart(8, '0');
  const paras = Array.from({ length: 1_200_000 }, () => `<w:p w:rsidR="${rsid()}"/>`);
  return rawDocx(paras.join(''));
}
