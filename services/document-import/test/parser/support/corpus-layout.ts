// Corpus documents for section groups and two-column pages; the answers follow n so no random source is needed.
import type { Block } from './build-docx.js';
import type { CorpusDoc, Truth } from './corpus-types.js';

const LETTERS = ['A', 'B', 'C', 'D'];

function answerOf(n: number, seed: number): string {
  return LETTERS[(n * 7 + seed) % 4]!;
}

function marked(a: string, mark: (t: string) => string): string[] {
  return LETTERS.map((l, i) => (l === a ? `${l}. ${mark(`lựa chọn ${i}`)}` : `${l}. lựa chọn ${i}`));
}

const red = (t: string): string => `[[r:${t}]]`;
const under = (t: string): string => `[[u:${t}]]`;

function choice(n: number, a: string, opts: string[], group: string): { blocks: Block[]; truth: Truth } {
  return {
    blocks: [`Câu ${n}. Câu hỏi số ${n} của đề?`, opts.join('\t')],
    truth: { part: null, number: n, answer: a, type: 'SINGLE_CHOICE', group },
  };
}

function push(doc: CorpusDoc, q: { blocks: Block[]; truth: Truth }): void {
  doc.blocks.push(...q.blocks);
  doc.truth.push(q.truth);
}

const READ =
  'Read the following passage and mark the letter A, B, C, or D on your answer sheet to indicate the correct answer to each of the questions.';

export function sectionDoc(seed: number): CorpusDoc {
  const doc: CorpusDoc = { convention: 'section headings and passages as groups', blocks: [], truth: [] };
  doc.blocks.push('I. TRẮC NGHIỆM (6 điểm)');
  for (let n = 1; n <= 8; n++) push(doc, choice(n, answerOf(n, seed), marked(answerOf(n, seed), red), 'I. TRẮC'));
  doc.blocks.push(READ, 'The passage that the next questions share, in several sentences.');
  for (let n = 9; n <= 14; n++) push(doc, choice(n, answerOf(n, seed), marked(answerOf(n, seed), under), 'Read the'));
  doc.blocks.push('Đọc đoạn văn sau và trả lời các câu hỏi từ 15 đến 18.', 'Một đoạn văn chung.');
  for (let n = 15; n <= 20; n++) {
    const a = answerOf(n, seed);
    const q = choice(n, a, marked('', red), n <= 18 ? 'Đọc đoạn' : 'I. TRẮC');
    push(doc, { blocks: [...q.blocks, `Đáp án: ${a}`], truth: q.truth });
  }
  doc.blocks.push('II. TỰ LUẬN (4 điểm)');
  for (let n = 21; n <= 24; n++) {
    doc.blocks.push(`Câu ${n} (1 điểm). Giải phương trình`, 'a) x + 1 = 0', 'b) x - 2 = 3');
    doc.truth.push({ part: null, number: n, answer: null, type: 'ESSAY', group: 'II. TỰ LUẬN' });
  }
  return doc;
}

// Column breaks fall between options, inside a stem, between stem and options and in a paragraph of their own.
function columnQuestion(n: number, a: string): Block[] {
  const o = marked(a, red);
  switch (n % 4) {
    case 0:
      return [`Câu ${n}. Câu hỏi số ${n}?`, `${o[0]}\t${o[1]}[[col]]${o[2]}\t${o[3]}`];
    case 1:
      return [`Câu ${n}. Câu hỏi[[col]] số ${n}?`, ...o];
    case 2:
      return [`Câu ${n}. Câu hỏi số ${n}?[[col]]`, o.join('\t')];
    default:
      return [`Câu ${n}. Câu hỏi số ${n}?`, o[0]!, o[1]!, '[[col]]', o[2]!, o[3]!];
  }
}

export function twoColumnDoc(seed: number): CorpusDoc {
  const doc: CorpusDoc = { convention: 'two-column pages with column breaks', blocks: [], truth: [], columns: 2 };
  for (let n = 1; n <= 20; n++) {
    const a = answerOf(n, seed);
    doc.blocks.push(...columnQuestion(n, a));
    doc.truth.push({ part: null, number: n, answer: a, type: 'SINGLE_CHOICE' });
  }
  return doc;
}

export function styleNumberedDoc(seed: number): CorpusDoc {
  const doc: CorpusDoc = { convention: 'Word numbering from paragraph styles', blocks: [], truth: [] };
  for (let n = 1; n <= 20; n++) {
    const a = answerOf(n, seed);
    doc.blocks.push({ style: n % 2 ? 'CauHoi' : 'CauHoiPhu', text: `Câu hỏi đánh số theo kiểu ${n}?` });
    doc.blocks.push(marked(a, red).join('\t'));
    doc.truth.push({ part: null, number: n, answer: a, type: 'SINGLE_CHOICE' });
  }
  return doc;
}
