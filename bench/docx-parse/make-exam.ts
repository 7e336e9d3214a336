// The bench document: a 120-question exam in the THPT shape (Phần I choice, Phần II true/false, Phần III short
// answers) with a picture and an equation in many questions, red-marked answers and an answer-key table.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { makeDocx, type Block } from '../../services/document-import/test/parser/support/build-docx.js';

const EQUATIONS = [
  '\\frac{x^{2}+1}{\\sqrt{x-1}}',
  '\\int_{0}^{\\pi} \\sin x dx',
  '\\sum_{k=1}^{n} k^{2}',
  '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
  '\\vec{AB} \\cdot \\vec{AC}',
];

export async function makeExam(questions = 120): Promise<Uint8Array> {
  const choice = Math.round(questions * 0.6);
  const tf = Math.round(questions * 0.2);
  const blocks: Block[] = ['PHẦN I. Câu trắc nghiệm nhiều phương án lựa chọn'];
  for (let n = 1; n <= choice; n++) {
    blocks.push(
      `Câu ${n}. Cho hàm số có đồ thị như hình ${n % 2 ? '[[img]]' : ''} và biểu thức [[m:${EQUATIONS[n % 5]}]].`,
    );
    blocks.push('Tính giá trị lớn nhất của biểu thức trên đoạn đã cho.');
    blocks.push(['A. 1', 'B. 2', 'C. 3', 'D. 4'].map((o, i) => (i === n % 4 ? `[[r:${o}]]` : o)).join('\t'));
  }
  blocks.push('PHẦN II. Câu trắc nghiệm đúng sai');
  for (let n = 1; n <= tf; n++) {
    blocks.push(`Câu ${n}. Cho [[m:${EQUATIONS[n % 5]}]]. Xét các mệnh đề sau. ${n % 3 ? '[[img]]' : ''}`);
    for (const l of ['a', 'b', 'c', 'd'])
      blocks.push(`${l}) Mệnh đề ${l} về hàm số (${(n + l.charCodeAt(0)) % 2 ? 'Đúng' : 'Sai'})`);
  }
  blocks.push('PHẦN III. Câu trắc nghiệm trả lời ngắn');
  for (let n = 1; n <= questions - choice - tf; n++) {
    blocks.push(`Câu ${n}. Tính [[m:${EQUATIONS[n % 5]}]] và làm tròn đến hàng phần mười.`, `Đáp án: ${n},5`);
  }
  return makeDocx(blocks);
}

// `node --import tsx bench/docx-parse/make-exam.ts exam.docx [questions]` writes a sample exam (README walk-through).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [out, count] = process.argv.slice(2);
  if (!out) throw new Error('usage: make-exam.ts <out.docx> [questions]');
  writeFileSync(out, await makeExam(Number(count ?? 120)));
}
