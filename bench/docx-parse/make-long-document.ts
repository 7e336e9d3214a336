// The long bench document: about 40,000 short lines (1.9 MiB of text; word/document.xml 4.6 MiB with its markup),
// shaped so that work done per line over everything gathered so far shows. Long runs of continuation lines land in
// each place the parser accumulates them: a passage group's content, a stem, an option (separate paragraphs, and one
// paragraph of soft line breaks), a solution and a true/false statement; then about 2,000 short questions with an
// answer-key list, so a per-question search of all questions or keys shows a little too.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { makeDocx, type Block } from '../../services/document-import/test/parser/support/build-docx.js';

// Runs that continue an option or a statement are the longest, 10,000 lines each: a per-line copy of everything
// appended so far (what these cost at a33b25b) takes seconds there and hides at a few thousand lines. Stem, solution
// and passage runs: 2,500 lines each.
const LONG_RUN = 10000;
const RUN = 2500;
// Short questions: parts of numbers 1..PER_PART (a written label has at most three digits).
const PER_PART = 990;
const SHORT_PARTS = ['III', 'IV'];

// Lower-case and label-free, so a continuation line never reads as a question, option, answer or heading.
function filler(kind: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `dòng ${i + 1} của ${kind}, nội dung ngắn.`);
}

function longQuestions(): Block[] {
  return [
    'PHẦN I. Câu trắc nghiệm nhiều phương án lựa chọn',
    'Đọc đoạn văn sau và trả lời các câu hỏi từ 1 đến 3',
    ...filler('đoạn văn', RUN),
    'Câu 1. Cho đoạn văn trên, chọn ý đúng.',
    ...filler('đề bài', RUN),
    'A. một',
    '[[r:B. hai]]',
    ...filler('phương án B', LONG_RUN),
    'C. ba',
    'D. bốn',
    'Câu 2. Chọn ý đúng về đoạn văn.',
    'A. một',
    'B. hai',
    'C. ba',
    ['[[r:D. bốn]]', ...filler('ngắt dòng mềm', LONG_RUN)].join('\n'),
    'Câu 3. Tính tổng hai số đã cho.',
    'A. 1\tB. 2\t[[r:C. 3]]\tD. 4',
    'Lời giải',
    ...filler('lời giải', RUN),
    'Đáp án: C',
    'PHẦN II. Câu trắc nghiệm đúng sai',
    'Câu 1. Cho hàm số bậc ba. Xét các mệnh đề sau.',
    'a) Hàm số đồng biến',
    ...filler('mệnh đề a', LONG_RUN - 1),
    'hết mệnh đề a (Đúng)',
    'b) Hàm số có cực trị (Sai)',
    'c) Đồ thị cắt trục hoành (Đúng)',
    'd) Hàm số lẻ (Sai)',
  ];
}

function shortQuestions(): Block[] {
  const blocks: Block[] = [];
  for (const part of SHORT_PARTS) {
    blocks.push(`PHẦN ${part}. Câu trắc nghiệm nhiều phương án lựa chọn`);
    for (let n = 1; n <= PER_PART; n++) blocks.push(`Câu ${n}. Tính ${n} + 1.`, 'A. 1\tB. 2\tC. 3\tD. 4');
  }
  blocks.push('BẢNG ĐÁP ÁN');
  for (const part of SHORT_PARTS) {
    blocks.push(`PHẦN ${part}`);
    for (let n = 1; n <= PER_PART; n += 10) {
      const row = Array.from({ length: Math.min(10, PER_PART - n + 1) }, (_, i) => `${n + i}.${'ABCD'[(n + i) % 4]}`);
      blocks.push(row.join(' '));
    }
  }
  return blocks;
}

/** Questions in the document: the four long ones and the short ones. */
export const LONG_DOCUMENT_QUESTIONS = 4 + PER_PART * SHORT_PARTS.length;

export function longDocumentBlocks(): Block[] {
  return [...longQuestions(), ...shortQuestions()];
}

/** Lines as the parser sees them: a paragraph, plus one per soft line break. */
export function lineCount(blocks: Block[]): number {
  return blocks.reduce((n, b) => n + (typeof b === 'string' ? b.split('\n').length : 1), 0);
}

export async function makeLongDocument(): Promise<Uint8Array> {
  return makeDocx(longDocumentBlocks());
}

// `node --import tsx bench/docx-parse/make-long-document.ts long.docx` writes the document (for profiling).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [out] = process.argv.slice(2);
  if (!out) throw new Error('usage: make-long-document.ts <out.docx>');
  writeFileSync(out, await makeLongDocument());
}
