// Hostile DOCX files, built as raw WordprocessingML (fast at any size): what an attacker uploads.
import { rawDocx } from '../../services/document-import/test/sandbox/support.js';

const p = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** One ordinary question. */
export function smallExam(): Uint8Array {
  return rawDocx(p('Câu 1. 1 + 1 = ?') + p('A. 1') + p('B. 2') + p('C. 3') + p('D. 4') + p('Đáp án: B'));
}

/** One question whose stem continues for `lines` paragraphs (the parser was quadratic in these). */
export function continuationLines(lines: number): Uint8Array {
  const filler = Array.from({ length: lines }, (_, i) => p(`dòng ${i + 1} của đề bài`)).join('');
  return rawDocx(p('Câu 1. Cho đoạn văn sau.') + filler + p('A. 1') + p('B. 2') + p('Đáp án: B'));
}

/** Over a million tiny elements in a small file: under every byte limit, far past the element limits. */
export function manyElements(count = 1_200_000): Uint8Array {
  return rawDocx('<w:p/>'.repeat(count));
}

/** Elements nested far deeper than any real document. */
export function deepNesting(depth = 5000): Uint8Array {
  return rawDocx(`${'<w:sdt><w:sdtContent>'.repeat(depth)}${p('Câu 1. x')}${'</w:sdtContent></w:sdt>'.repeat(depth)}`);
}
