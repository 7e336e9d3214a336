// A generated corpus: one document per teachers' convention, each question with its known answer and type.
import type { Block } from './build-docx.js';
import { sectionDoc, styleNumberedDoc, twoColumnDoc } from './corpus-layout.js';
import type { CorpusDoc, Truth } from './corpus-types.js';

export type { CorpusDoc, Truth } from './corpus-types.js';

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = ['A', 'B', 'C', 'D'];
const SPELLINGS = ['Câu N.', 'Câu N:', 'Câu 0N.', 'CÂU N.', 'Câu N :', 'Question N.', 'Question N:'];
const STEMS = [
  'Tính giá trị của biểu thức [[m:\\frac{x^{2}+1}{\\sqrt{x}}]] tại x = 4.',
  'Cho hàm số y = f(x) có đồ thị như hình vẽ [[img]] Hỏi hàm số đồng biến trên khoảng nào?',
  'Tích phân [[m:\\int_{0}^{1} x^{2} dx]] bằng',
  'Choose the word that best completes the sentence: She ___ to school every day.',
  'Cho ma trận [[m:\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}]]. Định thức bằng',
  'Trong các mệnh đề sau, mệnh đề nào [[r:SAI]]?',
];

function label(n: number, r: () => number): string {
  const s = SPELLINGS[Math.floor(r() * SPELLINGS.length)]!;
  return s.replace('0N', String(n).padStart(2, '0')).replace('N', String(n));
}

type Mark = (text: string) => string;
const red: Mark = (t) => `[[r:${t}]]`;

function optionTexts(marks: Set<string>, mark: Mark, r: () => number): string[] {
  const style = Math.floor(r() * 3);
  return LETTERS.map((l, i) => {
    const body = `phương án ${i + 1}${i}`;
    if (!marks.has(l)) return `${l}. ${body}`;
    if (style === 0) return `${mark(`${l}.`)} ${body}`;
    if (style === 1) return `${l}. ${mark(body)}`;
    return `${l}. phương ${mark(`án ${i + 1}${i}`)}`;
  });
}

function layout(opts: string[], r: () => number): Block[] {
  switch (Math.floor(r() * 5)) {
    case 0:
      return opts;
    case 1:
      return [opts.join('\t')];
    case 2:
      return [`${opts[0]}\t${opts[1]}`, `${opts[2]}\t${opts[3]}`];
    case 3:
      return [
        {
          table: [
            [opts[0]!, opts[1]!],
            [opts[2]!, opts[3]!],
          ],
        },
      ];
    default:
      return [opts.join('\n')];
  }
}

function choiceDoc(
  convention: string,
  seed: number,
  count: number,
  { mark, multi = false }: { mark: Mark; multi?: boolean },
): CorpusDoc {
  const r = rng(seed);
  // a highlighted answer is the DGNL single choice of an exam that names itself a DGNL (aptitude) exam
  const blocks: Block[] = mark === HIGHLIGHT ? ['ĐỀ THI ĐÁNH GIÁ NĂNG LỰC (ĐGNL)'] : [];
  const truth: Truth[] = [];
  for (let n = 1; n <= count; n++) {
    const first = LETTERS[Math.floor(r() * 4)]!;
    const second = LETTERS[(LETTERS.indexOf(first) + 2) % 4]!;
    const marks = new Set(multi ? [first, second] : [first]);
    blocks.push(`${label(n, r)} ${STEMS[n % STEMS.length]}`);
    if (r() < 0.3) blocks.push('Dòng thứ hai của đề bài.\nvới ngắt dòng mềm.');
    blocks.push(...layout(optionTexts(marks, mark, r), r));
    const answer = multi ? [...marks].sort() : first;
    const type = multi ? 'MULTIPLE_CHOICE' : mark === HIGHLIGHT ? 'DGNL_SINGLE_CHOICE' : 'SINGLE_CHOICE';
    truth.push({ part: null, number: n, answer, type });
  }
  return { convention, blocks, truth };
}

const HIGHLIGHT: Mark = (t) => `[[h:${t}]]`;

function answerLineDoc(seed: number, count: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = [];
  const truth: Truth[] = [];
  for (let n = 1; n <= count; n++) {
    const a = LETTERS[Math.floor(r() * 4)]!;
    const decoy = LETTERS[(LETTERS.indexOf(a) + 1) % 4]!;
    blocks.push(`Câu ${n}. ${STEMS[n % STEMS.length]}`, 'A. 1\tB. 2\tC. 3\tD. 4');
    if (r() < 0.5) blocks.push(`Đáp án: ${a}`, `Lời giải`, `Phương án ${decoy} sai vì [[r:${decoy}]] không thỏa.`);
    else blocks.push('Hướng dẫn giải', `Xét ${decoy}: loại.`, `Chọn ${a}`);
    truth.push({ part: null, number: n, answer: a, type: 'SINGLE_CHOICE' });
  }
  return { convention: 'answer line + solution', blocks, truth };
}

const TF_WORDS = (v: boolean): string => (v ? 'Đúng' : 'Sai');

function tfQuestion(n: number, values: boolean[], style: number): Block[] {
  const lbl = ['a', 'b', 'c', 'd'];
  const head = `Câu ${n}. Xét tính đúng sai của các mệnh đề sau.`;
  if (style === 0) return [head, ...lbl.map((l, i) => (values[i] ? `[[r:${l})]] mệnh đề ${i}` : `${l}) mệnh đề ${i}`))];
  if (style === 1) return [head, ...lbl.map((l, i) => `${l}) mệnh đề ${i} (${TF_WORDS(values[i]!)})`)];
  if (style === 2) {
    return [
      head,
      ...lbl.map((l, i) => `${l}) mệnh đề ${i}`),
      `Đáp án: ${lbl.map((l, i) => `${l}) ${TF_WORDS(values[i]!)}`).join('; ')}`,
    ];
  }
  const rows = lbl.map((l, i) => [`${l}) mệnh đề ${i}`, values[i] ? 'X' : '', values[i] ? '' : 'X']);
  return [head, { table: [['Mệnh đề', 'Đúng', 'Sai'], ...rows] }];
}

function examDoc(seed: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = ['PHẦN I. Câu trắc nghiệm nhiều phương án lựa chọn'];
  const truth: Truth[] = [];
  const keyCells: string[] = [];
  for (let n = 1; n <= 12; n++) {
    const a = LETTERS[Math.floor(r() * 4)]!;
    blocks.push(`Câu ${n}. ${STEMS[n % STEMS.length]}`, 'A. 1\tB. 2\tC. 3\tD. 4');
    keyCells.push(`${n}.${a}`);
    truth.push({ part: 'I', number: n, answer: a, type: 'SINGLE_CHOICE' });
  }
  blocks.push('PHẦN II. Câu trắc nghiệm đúng sai');
  const tfKeys: string[][] = [['Câu', 'Đáp án']];
  for (let n = 1; n <= 4; n++) {
    const values = [0, 1, 2, 3].map(() => r() < 0.5);
    blocks.push(...tfQuestion(n, values, 2).slice(0, 5));
    tfKeys.push([String(n), ['a', 'b', 'c', 'd'].map((l, i) => `${l}) ${values[i] ? 'Đ' : 'S'}`).join(', ')]);
    truth.push({
      part: 'II',
      number: n,
      answer: Object.fromEntries(values.map((v, i) => ['abcd'[i], v])),
      type: 'TRUE_FALSE_GROUP',
    });
  }
  blocks.push('PHẦN III. Câu trắc nghiệm trả lời ngắn');
  const shortKeys: string[][] = [['Câu', 'Đáp án']];
  for (let n = 1; n <= 6; n++) {
    const v = `${r() < 0.5 ? '-' : ''}${Math.floor(r() * 100)},${Math.floor(r() * 9) + 1}`;
    blocks.push(`Câu ${n}. Tính [[m:\\sum_{k=1}^{${n + 2}} k^{2}]] rồi làm tròn.`);
    shortKeys.push([String(n), v]);
    truth.push({ part: 'III', number: n, answer: v, type: 'SHORT_NUMERIC_ANSWER' });
  }
  const rows: string[][] = [];
  for (let i = 0; i < keyCells.length; i += 6) rows.push(keyCells.slice(i, i + 6));
  blocks.push('ĐÁP ÁN', 'PHẦN I', { table: rows }, 'PHẦN II', { table: tfKeys }, 'PHẦN III', { table: shortKeys });
  return { convention: 'answer-key tables (Phần I/II/III)', blocks, truth };
}

function tfDoc(seed: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = ['PHẦN II. Câu trắc nghiệm đúng sai'];
  const truth: Truth[] = [];
  for (let n = 1; n <= 20; n++) {
    const values = [0, 1, 2, 3].map(() => r() < 0.5);
    if (!values.some(Boolean)) values[0] = true;
    blocks.push(...tfQuestion(n, values, n % 4));
    truth.push({
      part: 'II',
      number: n,
      answer: Object.fromEntries(values.map((v, i) => ['abcd'[i], v])),
      type: 'TRUE_FALSE_GROUP',
    });
  }
  return { convention: 'true/false (colour, suffix, line, X table)', blocks, truth };
}

function shortDoc(seed: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = ['PHẦN III. Trả lời ngắn'];
  const truth: Truth[] = [];
  for (let n = 1; n <= 20; n++) {
    const v = `${r() < 0.4 ? '-' : ''}${Math.floor(r() * 50)}${r() < 0.6 ? `,${Math.floor(r() * 99)}` : ''}`;
    blocks.push(`Câu ${n}. Giá trị của [[m:\\sqrt[3]{${n}}]] là bao nhiêu?`, `Đáp án: ${v}`);
    truth.push({ part: 'III', number: n, answer: v, type: 'SHORT_NUMERIC_ANSWER' });
  }
  return { convention: 'short numeric answers', blocks, truth };
}

function essayDoc(): CorpusDoc {
  const blocks: Block[] = ['PHẦN IV. Tự luận'];
  const truth: Truth[] = [];
  for (let n = 1; n <= 10; n++) {
    blocks.push(`Câu ${n} (${n % 2 ? '1,5' : '1'} điểm). Giải phương trình và hệ sau.`, 'a) x + 1 = 0', 'b) x - 2 = 3');
    truth.push({ part: 'IV', number: n, answer: null, type: 'ESSAY' });
  }
  return { convention: 'essays with points and sub-parts', blocks, truth };
}

function autoDoc(seed: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = [];
  const truth: Truth[] = [];
  for (let n = 1; n <= 20; n++) {
    const a = Math.floor(r() * 4);
    blocks.push({ auto: 'question', text: STEMS[n % STEMS.length]! });
    for (let i = 0; i < 4; i++)
      blocks.push({ auto: 'option', instance: n, text: i === a ? `[[r:đáp án ${i}]]` : `đáp án ${i}` });
    truth.push({ part: null, number: n, answer: LETTERS[a], type: 'SINGLE_CHOICE' });
  }
  return { convention: 'Word auto-numbering', blocks, truth };
}

function pronunciationDoc(seed: number): CorpusDoc {
  const r = rng(seed);
  const blocks: Block[] = ['Mark the letter A, B, C, or D to indicate the word whose underlined part differs.'];
  const truth: Truth[] = [];
  for (let n = 1; n <= 20; n++) {
    const a = Math.floor(r() * 4);
    const words = ['c[[u:a]]t', 'h[[u:a]]t', 'n[[u:a]]me', 'm[[u:a]]p'];
    blocks.push(
      `Question ${n}. Choose the [[r:odd]] one.`,
      words.map((w, i) => `${LETTERS[i]}. ${w}`).join('\t'),
      `Đáp án: ${LETTERS[a]}`,
    );
    truth.push({ part: null, number: n, answer: LETTERS[a], type: 'SINGLE_CHOICE' });
  }
  return { convention: 'pronunciation underlines + red stem words (not answers)', blocks, truth };
}

export function buildCorpus(): CorpusDoc[] {
  return [
    choiceDoc('red option (letter/text/part), all spellings and layouts', 1, 40, { mark: red }),
    choiceDoc('underlined option', 2, 30, { mark: (t) => `[[u:${t}]]` }),
    choiceDoc('yellow highlight (DGNL)', 3, 20, { mark: HIGHLIGHT }),
    choiceDoc('several red options (multiple choice)', 4, 20, { mark: red, multi: true }),
    answerLineDoc(5, 30),
    examDoc(6),
    tfDoc(7),
    shortDoc(8),
    essayDoc(),
    autoDoc(9),
    pronunciationDoc(10),
    sectionDoc(11),
    twoColumnDoc(12),
    styleNumberedDoc(13),
  ];
}
