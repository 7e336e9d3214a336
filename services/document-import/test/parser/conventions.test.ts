// Issue 19: the conventions real teachers' files use, each in a small document of its own (no real file's text).
import { expect } from 'chai';
import { DocxError, parseDocx, type QasOutput } from '../../src/parser/index.js';
import { makeDocx, type Block } from './support/build-docx.js';

type Q = {
  number: number;
  type: string;
  content: string;
  options: { label: string; content: string }[];
  sub_items: { label: string; correct_boolean: boolean | null }[];
  correct_answer: unknown;
  solution: string | null;
  source_location: { answer_evidence: string | null; answer_source: string | null; answer_style: string | null };
};

async function parse(blocks: Block[]): Promise<{ out: QasOutput; qs: Q[] }> {
  const out = parseDocx(await makeDocx(blocks));
  return { out, qs: out.questions as Q[] };
}

const answers = (qs: Q[]): unknown[] => qs.map((q) => q.correct_answer);
const sources = (qs: Q[]): unknown[] => qs.map((q) => q.source_location.answer_source);
const stems = (qs: Q[]): string[] => qs.map((q) => q.content);
const optionTexts = (q: Q): string[] => q.options.map((o) => `${o.label}:${o.content}`);

describe('docx parser: question labels of real files', () => {
  it('reads typed labels 1. 1) 17: [1] Câu369: Q.1.21) //QZ1.11) and a number alone in its paragraph', async () => {
    const { qs } = await parse([
      '1. one?',
      'A. a\tB. b',
      'Đáp án: A',
      '2) two?',
      'A. a\tB. b',
      'Đáp án: B',
      '3: three?',
      'A. a\tB. b',
      'Đáp án: A',
      '[4] four?',
      'A. a\tB. b',
      'Đáp án: B',
      'Câu5: five?',
      'A. a\tB. b',
      'Đáp án: A',
      'Q.1.6) six?',
      'A. a\tB. b',
      'Đáp án: B',
      '//QZ1.7)',
      'seven?',
      'A. a\tB. b',
      'Đáp án: A',
      '8',
      'eight?',
      'A. a\tB. b',
      'Đáp án: B',
      'Question No. 9: nine?',
      'A. a\tB. b',
      'Key: A',
      'Câu hỏi số 10: ten?',
      'A. a\tB. b',
      'Đáp án: B',
    ]);
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(stems(qs)).to.deep.equal([
      'one?',
      'two?',
      'three?',
      'four?',
      'five?',
      'six?',
      'seven?',
      'eight?',
      'nine?',
      'ten?',
    ]);
    expect(answers(qs)).to.deep.equal(['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B']);
  });

  it('takes bare numbers only in sequence: a numbered list inside a stem or a solution stays text', async () => {
    const { qs } = await parse([
      'Câu 1. Cho các mệnh đề:',
      '1. mệnh đề một',
      '2. mệnh đề hai',
      'A. 1\tB. 2',
      'Lời giải',
      '1. Ta có',
      '2. Suy ra',
      'Câu 2. Hai?',
      'A. x\tB. y',
    ]);
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2]);
    expect(qs[0]!.content).to.contain('2. mệnh đề hai');
    expect(qs[0]!.solution).to.contain('2. Suy ra');
  });

  it('starts the next typed number after an explanation that holds no list, with no blank paragraph between', async () => {
    const bullet = (text: string) => ({ auto: 'bullet' as const, text });
    const { qs } = await parse([
      '1. First?',
      bullet('x'),
      bullet('y'),
      'Answer: B',
      'Explanation: because of y.',
      '2. Second?',
      bullet('x'),
      bullet('y'),
      'Answer: A',
      'Explanation: x is right.',
      '3. Third?',
      bullet('x'),
      bullet('y'),
    ]);
    expect(stems(qs)).to.deep.equal(['First?', 'Second?', 'Third?']);
    expect(answers(qs)).to.deep.equal(['B', 'A', null]);
  });

  it('restarts labels per section and accepts a label glued to the stem (12Which)', async () => {
    const { qs } = await parse([
      '1. a?',
      'A. x\tB. [[r:y]]',
      '2Which one?',
      'A. [[r:x]]\tB. y',
      'Part two',
      '1. c?',
      'A. [[r:x]]\tB. y',
    ]);
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2, 1]);
    expect(stems(qs)).to.deep.equal(['a?', 'Which one?', 'c?']);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'A']);
  });

  it('starts a question at a label in the middle of a paragraph (a PDF-to-Word merge)', async () => {
    const { qs } = await parse(['Câu 1: Một?', 'A. x\tB. y\tC. z\tD. [[u:w]] Câu 2: Hai?', 'A. [[u:x]]\tB. y']);
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2]);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:x', 'B:y', 'C:z', 'D:w']);
    expect(answers(qs)).to.deep.equal(['D', 'A']);
  });

  it('reads a question without a label after a finished one: its stem is the text before option A', async () => {
    const { qs } = await parse(['1. First?', 'A. [[r:x]]', 'B. y', '', 'Unlabelled second?', 'A. x', 'B. [[r:y]]']);
    expect(stems(qs)).to.deep.equal(['First?', 'Unlabelled second?']);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:x', 'B:y']);
    expect(answers(qs)).to.deep.equal(['A', 'B']);
  });

  it('reads unlabelled stems over Word-numbered options 1) 2) 3), each list its own, the number coloured on the answer', async () => {
    const item = (instance: number, text: string, mark?: string) => ({
      auto: 'numeric-paren' as const,
      text,
      instance,
      mark,
    });
    const { out, qs } = await parse([
      'Which planet is largest?',
      item(1, 'Mars'),
      item(1, 'Jupiter', 'r'),
      item(1, 'Venus'),
      'Which gas do plants take in?',
      item(2, 'Oxygen'),
      item(2, 'Helium'),
      item(2, 'Carbon dioxide', 'r'),
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:Oxygen', 'B:Helium', 'C:Carbon dioxide']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
    expect(out.stats.conventions).to.include('options:list-numbers');
    // an instruction over a numbered list of long questions is no question with options
    const essays = await parse([
      'Answer the following in full sentences.',
      item(3, 'Explain what a stylesheet is and why a page would use one.'),
      'A stylesheet holds the rules that give a page its look.',
      item(3, 'Explain what a grid system is and how its columns are counted.'),
      'A grid divides the page into twelve columns.',
    ]);
    expect(essays.qs.map((q) => q.type)).to.deep.equal(['ESSAY', 'ESSAY']);
  });

  it('reads Word-numbered questions over option lists of their own under an instruction, and a first question without text before it', async () => {
    const question = (text: string) => ({ auto: 'numeric' as const, text });
    const option = (instance: number, text: string) => ({ auto: 'numeric-paren' as const, text, instance });
    // the instruction is no stem: item 1 of the questions' list is followed by item 1 of another list (its options)
    const { qs } = await parse([
      'Circle the best answer to each question.',
      question('Which planet is largest?'),
      option(1, 'Mars'),
      option(1, 'Jupiter'),
      option(1, 'Venus'),
      question('Which gas do plants take in?'),
      option(2, 'Oxygen'),
      option(2, 'Carbon dioxide'),
      option(2, 'Helium'),
      {
        table: [
          ['Question', 'Answer'],
          ['1', '2'],
          ['2', '2'],
        ],
      },
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:Mars', 'B:Jupiter', 'C:Venus']);
    expect(answers(qs)).to.deep.equal(['B', 'B']);
    // two essays first, then questions with options: the first item has no text before it to be an option of
    const mixed = await parse([
      question('Explain why the sky is blue.'),
      question('Describe the water cycle.'),
      question('Which planet is largest?'),
      option(3, 'Mars'),
      option(3, '[[b:Jupiter]]'),
      question('Which gas do plants take in?'),
      option(4, '[[b:Carbon dioxide]]'),
      option(4, 'Helium'),
    ]);
    expect(stems(mixed.qs)).to.deep.equal([
      'Explain why the sky is blue.',
      'Describe the water cycle.',
      'Which planet is largest?',
      'Which gas do plants take in?',
    ]);
    expect(answers(mixed.qs)).to.deep.equal([null, null, 'B', 'A']);
  });

  it('reads unlabelled stems over bulleted options in a document without any question label', async () => {
    const bullet = (text: string) => ({ auto: 'bullet' as const, text });
    const { qs } = await parse([
      'Which planet is largest?',
      bullet('Mars'),
      bullet('Jupiter'),
      bullet('Venus'),
      'Answer: B',
      'Difficulty: Easy',
      'Which gas do plants take in?',
      bullet('Oxygen'),
      bullet('Helium'),
      bullet('Carbon dioxide'),
      'Answer: C',
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:Oxygen', 'B:Helium', 'C:Carbon dioxide']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
  });

  it('reads worded Word-numbered labels (Question 1.) over bullets as labels: the title above is no question', async () => {
    const bullet = (text: string) => ({ auto: 'bullet' as const, text });
    const question = (text: string) => ({ auto: 'question-en' as const, text });
    const { qs } = await parse([
      'CITY HIGH SCHOOL',
      'English test',
      'Choose the right answer.',
      question('Which planet is largest?'),
      bullet('Mars'),
      bullet('*Jupiter'),
      '',
      question('Which gas do plants take in?'),
      bullet('Oxygen'),
      bullet('*Carbon dioxide'),
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(answers(qs)).to.deep.equal(['B', 'B']);
  });

  it('reads an unlabelled stem after a solution whose options a) … d) are a table under it', async () => {
    const { qs } = await parse([
      'Which planet is largest?',
      { table: [['a) Mars', 'b) Jupiter', 'c) Venus', 'd) Earth']] },
      'Answer: B',
      'Explanation: Jupiter is the largest.',
      'Which gas do plants take in?',
      { table: [['a) Oxygen', 'b) Helium', 'c) Carbon dioxide', 'd) Neon']] },
      'Answer: C',
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
  });

  it('reads unlabelled stems over Word-lettered options after a solution: the next list is the next question', async () => {
    const lower = (instance: number, text: string) => ({ auto: 'lower' as const, text, instance });
    const { qs } = await parse([
      'Which planet is largest?',
      lower(1, 'Mars'),
      lower(1, 'Jupiter'),
      'b',
      'Solution: Jupiter is the largest planet.',
      '',
      'Which gas do plants take in?',
      lower(2, 'Oxygen'),
      lower(2, 'Carbon dioxide'),
      'b',
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(answers(qs)).to.deep.equal(['B', 'B']);
  });

  it('keeps the title block of a label-free paper with bulleted options out of its questions', async () => {
    const bullet = (text: string) => ({ auto: 'bullet' as const, text });
    const question = (stem: string) => [stem, bullet('one'), bullet('two'), bullet('three'), ''];
    const { qs } = await parse([
      'CITY HIGH SCHOOL',
      'Mid-term test',
      'Time: 45 minutes',
      '',
      ...question('Which planet is largest?'),
      ...question('Which gas do plants take in?'),
      ...question('Which metal is liquid?'),
    ]);
    expect(stems(qs)).to.deep.equal([
      'Which planet is largest?',
      'Which gas do plants take in?',
      'Which metal is liquid?',
    ]);
  });

  it('reads the Aiken format: no numbers, each question ended by its ANSWER line', async () => {
    const { qs } = await parse([
      'What is 2 + 2?',
      'A. 3',
      'B. 4',
      'ANSWER: B',
      '',
      'Which is a prime?',
      'A. 7',
      'B. 8',
      'Ans: A',
      'Pick the even one.',
      'A. 1',
      'B. 2',
      'ANSWER: B',
    ]);
    expect(stems(qs)).to.deep.equal(['What is 2 + 2?', 'Which is a prime?', 'Pick the even one.']);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'B']);
    expect(qs.map((q) => q.solution)).to.deep.equal([null, null, null]);
  });

  it('reads a document without labels: blocks between blank paragraphs, * marking the answer, > the solution', async () => {
    const { out, qs } = await parse([
      'Hợp chất nào là este?',
      'CH3Cl.',
      '*HCOOCH3.',
      'C2H5OH.',
      '>HCOOCH3 có nhóm COO.',
      '',
      'Giá trị của x là',
      '*1.',
      '2.',
      '3.',
      '',
      'Chọn đáp án đúng',
      '$x > 1$',
      '$x < 1$',
      '* $x = 1$',
    ]);
    expect(qs).to.have.length(3);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:CH3Cl.', 'B:HCOOCH3.', 'C:C2H5OH.']);
    expect(qs[0]!.solution).to.contain('nhóm COO');
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:1.', 'B:2.', 'C:3.']);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'C']);
    expect(sources(qs)).to.deep.equal(['marker', 'marker', 'marker']);
    expect(out.stats.conventions).to.include('blocks-without-labels');
  });

  it('keeps a key, explanation or metadata block of a label-free document with the question before it', async () => {
    const { qs } = await parse([
      'What is 2 + 2?',
      '3',
      '4',
      '',
      'Answer: B',
      '',
      'Explanation: two and two make four, as counting on the fingers shows.',
      '',
      'Which is a prime?',
      '7',
      '8',
      '',
      'Difficulty: easy',
    ]);
    expect(stems(qs)).to.deep.equal(['What is 2 + 2?', 'Which is a prime?']);
    expect(answers(qs)).to.deep.equal(['B', null]);
    expect(qs[0]!.solution).to.contain('two and two');
  });
});

describe('docx parser: options of real files', () => {
  it('reads Word-numbered a.–d. options and lower-case options on soft breaks or one line', async () => {
    const { qs } = await parse([
      'Câu 1. Word numbered?',
      { auto: 'lower', text: 'x' },
      { auto: 'lower', text: '[[r:y]]' },
      { auto: 'lower', text: 'z' },
      'Câu 2. One line?',
      'a. x\tb. y\tc. [[r:z]]\td. w',
    ]);
    expect(qs.map((q) => q.type)).to.deep.equal(['SINGLE_CHOICE', 'SINGLE_CHOICE']);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:x', 'B:y', 'C:z']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
    const en = await parse(['1. Which is a maven goal?\na) clean\nb) [[g:package]]\nc) debug']);
    expect(optionTexts(en.qs[0]!)).to.deep.equal(['A:clean', 'B:package', 'C:debug']);
    expect(en.qs[0]!.correct_answer).to.equal('B');
  });

  it('keeps a) … d) as true/false statements in a Vietnamese Phần II', async () => {
    const { qs } = await parse([
      'PHẦN II',
      'Câu 1. Xét các mệnh đề',
      'a) p',
      'b) q',
      'c) r',
      'd) s',
      'Đáp án: Đ-S-S-Đ',
    ]);
    expect(qs[0]!.type).to.equal('TRUE_FALSE_GROUP');
    expect(qs[0]!.correct_answer).to.deep.equal({ a: true, b: false, c: false, d: true });
  });

  it('reads bulleted options without letters (letters by order) and a ✅ after the right one', async () => {
    const { qs } = await parse([
      'Câu 1: Giao thức nào?',
      { auto: 'bullet', text: 'TCP' },
      { auto: 'bullet', text: 'UDP ✅' },
      { auto: 'bullet', text: 'ICMP' },
    ]);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:TCP', 'B:UDP', 'C:ICMP']);
    expect(qs[0]!.correct_answer).to.equal('B');
    expect(qs[0]!.source_location.answer_evidence).to.equal('ANSWER_MARKER');
  });

  it('reads option A typed at the end of the stem, stray characters glued before A., and 3 to 7 options', async () => {
    const { qs } = await parse([
      'Câu 1. Theo luật, việc này là: A. được phép.',
      'B. [[u:không được phép.]]',
      'Câu 2.',
      'xyzqA. 3\tB. 4',
      'C. [[r:5]]',
      'Câu 3. Seven?',
      'A. 1\tB. 2\tC. 3\tD. 4\tE. 5\tF. 6\tG. [[r:7]]',
    ]);
    expect(qs[0]!.content).to.equal('Theo luật, việc này là:');
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:được phép.', 'B:không được phép.']);
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:3', 'B:4', 'C:5']);
    expect(qs[2]!.options).to.have.length(7);
    expect(answers(qs)).to.deep.equal(['B', 'C', 'G']);
  });

  it('reads unlabelled stems over bulleted options with blank paragraphs between them, under an instruction', async () => {
    const bullet = (text: string) => ({ auto: 'bullet' as const, text });
    const { qs } = await parse([
      'Choose the best answer for each of the following questions.',
      '',
      'Which planet is largest?',
      '',
      bullet('Mars'),
      bullet('[[b:Jupiter]]'),
      bullet('Venus'),
      '',
      'Which gas do plants take in?',
      bullet('[[b:Carbon dioxide]]'),
      bullet('Helium'),
      bullet('Neon'),
      '',
      '',
      'Which metal is liquid?',
      '',
      bullet('Iron'),
      bullet('Copper'),
      bullet('[[b:Mercury]]'),
    ]);
    expect(stems(qs)).to.deep.equal([
      'Which planet is largest?',
      'Which gas do plants take in?',
      'Which metal is liquid?',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'C']);
  });

  it('takes a title block and the instruction off a label-free paper whose options are lettered a. to d.', async () => {
    const question = (stem: string, marked: number, why: string) => [
      stem,
      ...['Mars', 'Jupiter', 'Venus', 'Earth'].map((o, i) => `${i === marked ? '*' : ''}${'abcd'[i]}. ${o}`),
      `Erklärung: ${why}`,
      '',
    ];
    const { qs } = await parse([
      'GYMNASIUM AM SEE',
      'KLASSENARBEIT ERDKUNDE',
      'Zeit: 45 Minuten',
      '',
      'Wähle jeweils die richtige Antwort aus.',
      '',
      ...question('Which planet is largest?', 1, 'it is the largest.'),
      ...question('Which planet is second from the Sun?', 2, 'Venus is second.'),
      ...question('Which planet do we live on?', 3, 'we live here.'),
    ]);
    expect(stems(qs)).to.deep.equal([
      'Which planet is largest?',
      'Which planet is second from the Sun?',
      'Which planet do we live on?',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'C', 'D']);
  });

  it('splits lower-case options typed on one line at a starred label too, and keys the starred one', async () => {
    const { qs } = await parse([
      '1) Which planet is largest?',
      'a. Mars\t*b. Jupiter\tc. Venus\td. Earth\te. Pluto\tf. Moon',
      '2) Which planet has rings?',
      '*a. Saturn\tb. Mercury\tc. Venus\td. Mars\te. Pluto\tf. Moon',
      '3) Which planet is red?',
      'a. Saturn\tb. Mercury\tc. Venus\td. Earth\te. Pluto\t*f. Mars',
    ]);
    expect(qs.map((q) => q.options.length)).to.deep.equal([6, 6, 6]);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'F']);
  });

  it("reads unlabelled stems over lower-case options, each after the last one's explanation, blank paragraphs or not", async () => {
    const { qs } = await parse([
      'Choose the best answer for each of the following questions.',
      '',
      'Which planet is largest?',
      '',
      'a) Mars\nb) Venus\n*c) Jupiter\nd) Earth',
      'Explanation: it is the largest by far.',
      '',
      'Which gas do plants take in?',
      '*a) Carbon dioxide\nb) Helium\nc) Neon\nd) Argon',
      '',
      'Explanation: they need it for photosynthesis.',
      '',
      'Which metals are liquid at room temperature?',
      '',
      '*a) Mercury\nb) Iron\n*c) Gallium in a warm room\nd) Copper',
      'Explanation: both melt below body heat.',
    ]);
    expect(stems(qs)).to.deep.equal([
      'Which planet is largest?',
      'Which gas do plants take in?',
      'Which metals are liquid at room temperature?',
    ]);
    expect(answers(qs)).to.deep.equal(['C', 'A', ['A', 'C']]);
  });

  it('reads a Word multilevel list under a title: questions at level 0, numbered options at level 1, keyed by number', async () => {
    const q = (text: string) => ({ auto: 'question-paren-numeric' as const, text });
    const o = (text: string) => ({ auto: 'question-paren-numeric' as const, level: 1, text });
    const { qs } = await parse([
      'TRƯỜNG THPT NGUYỄN TRÃI',
      'Môn: Địa lí – Lớp 12',
      q('Sông nào dài nhất?'),
      o('Sông Nin'),
      o('Sông Hồng'),
      o('Sông Mê Kông'),
      'Đáp án: 1',
      'Giải thích: dài hơn 6.600 km.',
      '',
      q('Sa mạc nào lớn nhất?'),
      o('Gobi'),
      o('Sahara'),
      o('Kalahari'),
      'Đáp án: 2',
      '',
      q('Đại dương nào sâu nhất?'),
      o('Đại Tây Dương'),
      o('Ấn Độ Dương'),
      o('Thái Bình Dương'),
      'Đáp án: 3',
    ]);
    expect(stems(qs)).to.deep.equal(['Sông nào dài nhất?', 'Sa mạc nào lớn nhất?', 'Đại dương nào sâu nhất?']);
    expect(qs.map((x) => x.options.length)).to.deep.equal([3, 3, 3]);
    expect(answers(qs)).to.deep.equal(['A', 'B', 'C']);
  });

  it('takes the first unlabelled stem from between its blank paragraphs, not the title above it', async () => {
    const { qs } = await parse([
      'SỞ GIÁO DỤC VÀ ĐÀO TẠO HÀ NỘI',
      'Môn: Sinh học – Lớp 12',
      '',
      'Bào quan nào tổng hợp protein?',
      '',
      'A) Ribosome\tB) Ti thể\tC) Lục lạp\tD) Nhân',
      'ĐÁP ÁN: A',
      '',
      'Bào quan nào tạo năng lượng?',
      'A) Ribosome\tB) Ti thể\tC) Lục lạp\tD) Nhân',
      'ĐÁP ÁN: B',
    ]);
    expect(stems(qs)).to.deep.equal(['Bào quan nào tổng hợp protein?', 'Bào quan nào tạo năng lượng?']);
    expect(answers(qs)).to.deep.equal(['A', 'B']);
  });

  it('reads a label-free paper: a title and instructions over it are no question, a letter alone after a blank keys the question before', async () => {
    const options = (...texts: string[]): Block => ({ table: texts.map((t, i) => [`(${'ABCD'[i]}) ${t}`]) });
    const { out, qs } = await parse([
      'RIVERSIDE ACADEMY',
      'FINAL EXAMINATION – GEOGRAPHY',
      'Time allowed: 45 minutes',
      '',
      'Circle the best answer to each question.',
      '',
      'Which river is longest?',
      options('Nile', 'Rhine', 'Thames', 'Amazon'),
      '',
      'D',
      'Solution: it carries the most water.',
      'Difficulty: Medium',
      '',
      'Which desert is largest?',
      options('Gobi', 'Sahara', 'Kalahari', 'Atacama'),
      'B',
      '',
      'Which ocean is deepest?',
      options('Atlantic', 'Indian', 'Pacific', 'Arctic'),
      '',
      'C',
      'Solution: the Mariana Trench is there.',
      'Category: Oceans',
    ]);
    expect(stems(qs)).to.deep.equal(['Which river is longest?', 'Which desert is largest?', 'Which ocean is deepest?']);
    expect(answers(qs)).to.deep.equal(['D', 'B', 'C']);
    expect(qs[0]!.solution).to.contain('most water');
    expect(out.warnings.map((w) => w.code)).to.not.include('DOCX_NATIVE_ANSWER_MISSING');
  });

  it("ends the last lettered option at a blank paragraph, and takes Word's repeated letter as the next one", async () => {
    const { qs } = await parse([
      '1. Which?\na) x\nb) y\nc) [[b:z]]',
      '',
      { auto: 'bullet', text: '[[b:Part two – bold heading]]' },
      'Question 2. Two?',
      { auto: 'lower', text: 'x\t\tb. y' },
      '',
      { auto: 'lower', text: '[[r:z]]\t\td. w' },
    ]);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:x', 'B:y', 'C:z']);
    expect(qs[0]!.correct_answer).to.equal('C');
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:x', 'B:y', 'C:z', 'D:w']);
    expect(qs[1]!.correct_answer).to.equal('C');
  });

  it('reads options written out of order (A, C, B, D) by the letter the teacher typed', async () => {
    const { qs } = await parse(['1. Which?', 'A. one', '[[b:C]]. three', 'B. two', 'D. four']);
    expect(qs[0]!.options.map((o) => o.label)).to.deep.equal(['A', 'C', 'B', 'D']);
    expect(qs[0]!.correct_answer).to.equal('C');
  });
});

describe('docx parser: answers of real files', () => {
  it('reads the option formatted unlike its siblings: any colour, bold, italic', async () => {
    const { qs } = await parse([
      'Câu 1. green',
      'A. x\tB. [[g:y]]\tC. z',
      'Câu 2. bold',
      'A. x\tB. y\tC. [[b:z]]',
      'Câu 3. italic',
      'A. [[i:x]]\tB. y\tC. z',
      'Câu 4. bold letter only',
      '[[b:A]]. x\tB. y\tC. z',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'C', 'A', 'A']);
    expect(qs.map((q) => q.source_location.answer_style)).to.deep.equal(['color', 'bold', 'italic', 'bold']);
    expect(sources(qs)).to.deep.equal(['format-distinct', 'format-distinct', 'format-distinct', 'format-distinct']);
  });

  it("learns the document's answer look: a question with a red and a green option takes the green one", async () => {
    const blocks: Block[] = [1, 2, 3].flatMap((n) => [`${n}. q${n}?`, 'A. x\tB. [[g:y]]\tC. z']);
    const { qs } = await parse([...blocks, '4. mixed?', 'A. x\tB. [[r:y]]\tC. z\tD. [[g:w]]']);
    expect(answers(qs)).to.deep.equal(['B', 'B', 'B', 'D']);
  });

  it('treats a look every option wears as layout: red underlined letters on every option are not an answer', async () => {
    const { qs } = await parse([
      'Câu 1. layout only',
      '[[ru:A.]] x\t[[ru:B.]] y\t[[ru:C.]] z\t[[ru:D.]] w',
      'Câu 2. layout and a key line',
      '[[ru:A.]] x\t[[ru:B.]] y\t[[ru:C.]] z\t[[ru:D.]] w',
      'Lời giải: C',
      'Câu 3. layout plus a distinct option',
      '[[b:A.]] x\t[[b:B.]] [[r:y]]\t[[b:C.]] z',
    ]);
    expect(answers(qs)).to.deep.equal([null, 'C', 'B']);
    expect(sources(qs)).to.deep.equal([null, 'key-line', 'format-distinct']);
  });

  it('reads key lines in their usual spellings', async () => {
    const lines = [
      'Đáp án: C',
      'Lời giải: C',
      'Chọn C',
      'ANSWER: C',
      'Correct Answer : C',
      '→ Answer: C',
      'Key: C',
      '✅ Answer: (C)',
      'Đáp án đúng là C',
    ];
    const blocks: Block[] = lines.flatMap((l, i) => [`Câu ${i + 1}. q`, 'A. a\tB. b\tC. c\tD. d', l]);
    const { qs } = await parse([...blocks, 'Câu 10. short', 'Trả lời: 36']);
    expect(answers(qs)).to.deep.equal([...lines.map(() => 'C'), '36']);
    expect(new Set(sources(qs))).to.deep.equal(new Set(['key-line']));
    expect(qs[9]!.type).to.equal('SHORT_NUMERIC_ANSWER');
  });

  it('reads true/false keys as S-Đ-Đ-Đ, a-Đ, b-S, a) Đúng … d) Sai and ĐĐSS', async () => {
    const keys = [
      'Lời giải: S-Đ-Đ-Đ',
      'Đáp án: a-Đ, b-Đ, c-S, d-S',
      'Đáp án: a) Đúng b) Sai c) Sai d) Đúng',
      'Đáp án: ĐĐSS',
    ];
    const blocks: Block[] = keys.flatMap((k, i) => [
      `Câu ${i + 1}. Xét tính đúng sai`,
      'a) p',
      'b) q',
      'c) r',
      'd) s',
      k,
    ]);
    const { qs } = await parse(['PHẦN II. Câu trắc nghiệm đúng sai', ...blocks]);
    const tf = (...v: boolean[]): Record<string, boolean> => Object.fromEntries(v.map((b, i) => ['abcd'[i]!, b]));
    expect(answers(qs)).to.deep.equal([
      tf(false, true, true, true),
      tf(true, true, false, false),
      tf(true, false, false, true),
      tf(true, true, false, false),
    ]);
    expect(qs[0]!.sub_items.map((s) => s.correct_boolean)).to.deep.equal([false, true, true, true]);
  });

  it('reads a key that quotes the option text (a Moodle export: Select one:, The correct answer is: …)', async () => {
    const { qs } = await parse([
      'Question 1',
      'Which planet is the largest?',
      'Select one:',
      'a. Mars',
      'b. Jupiter',
      'c. Venus',
      'The correct answer is: Jupiter',
      'Question 2',
      'Pick the noble gas.',
      'a. Neon\nb. Iron',
      'Lời giải: Ta có neon là khí hiếm.',
      'Đáp án: A',
    ]);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:Mars', 'B:Jupiter', 'C:Venus']);
    expect(answers(qs)).to.deep.equal(['B', 'A']);
    expect(sources(qs)).to.deep.equal(['key-line', 'key-line']);
  });

  it('reads a key list after the questions (Đáp án: 01. B 02. C … 03. A,C,D)', async () => {
    const { out, qs } = await parse([
      '1. one?',
      'A. a\tB. b\tC. c\tD. d',
      '2. two?',
      'A. a\tB. b\tC. c\tD. d',
      '3. three (several)?',
      'A. a\tB. b\tC. c\tD. d',
      'Đáp án: 01. B 02. C 03. A,C,D',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'C', ['A', 'C', 'D']]);
    expect(sources(qs)).to.deep.equal(['key-list', 'key-list', 'key-list']);
    expect(qs[2]!.type).to.equal('MULTIPLE_CHOICE');
    expect(out.stats.answer_sources).to.deep.equal({ 'key-list': 3 });
  });

  it('reads a lower-case key list after the last part, keying every part when no number is used twice', async () => {
    const { qs } = await parse([
      'PHẦN I',
      '1. Một?',
      'A. x\tB. y',
      'PHẦN II',
      '2. Hai?',
      'A. x\tB. y',
      'Đáp án: 1.b 2.a',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'A']);
    // numbers that restart per part stay keyed by part
    const restart = await parse([
      'PHẦN I',
      '1. Một?',
      'A. x\tB. y',
      '2. Hai?',
      'A. x\tB. y',
      'PHẦN II',
      '1. Ba?',
      'A. x\tB. y',
      '2. Bốn?',
      'A. x\tB. y',
      'Đáp án: 1.b 2.a',
    ]);
    expect(answers(restart.qs)).to.deep.equal([null, null, 'B', 'A']);
  });

  it('reads a key table captioned in another language (Frage | 1 | 2 over Antwort | B | A)', async () => {
    const { qs } = await parse([
      '1. Eins?',
      'A. x\tB. y',
      '2. Zwei?',
      'A. x\tB. y',
      {
        table: [
          ['Frage', '1', '2'],
          ['Antwort', 'B', 'A'],
        ],
      },
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'A']);
    expect(stems(qs)).to.deep.equal(['Eins?', 'Zwei?']);
  });

  it('reads a key list wrapped onto a short second line (… 10. A, then 11.B)', async () => {
    const blocks = Array.from({ length: 11 }, (_, i) => [`${i + 1}. Câu ${i + 1}?`, 'A. x\tB. y']).flat();
    const { qs } = await parse([...blocks, '1.A 2.B 3.A 4.B 5.A 6.B 7.A 8.B 9.A 10.A', '11.B']);
    expect(answers(qs)).to.deep.equal(['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'A', 'B']);
    expect(qs.at(-1)!.options.map((o) => o.content)).to.deep.equal(['x', 'y']);
  });

  it('reads a key table of a number row over a letter row without captions', async () => {
    const { qs } = await parse([
      ...[1, 2, 3].flatMap((n) => [`Câu ${n}. q${n}`, 'A. a\tB. b\tC. c\tD. d']),
      'BẢNG ĐÁP ÁN',
      {
        table: [
          ['1', '2', '3'],
          ['C', 'A', 'D'],
        ],
      },
    ]);
    expect(answers(qs)).to.deep.equal(['C', 'A', 'D']);
    expect(sources(qs)).to.deep.equal(['key-table', 'key-table', 'key-table']);
  });

  it('names both sides when a key disagrees with a coloured option, and keeps the key', async () => {
    const { out, qs } = await parse(['Câu 1. conflict', 'A. x\tB. y\t[[r:C. z]]\tD. w', 'Đáp án: B']);
    expect(qs[0]!.correct_answer).to.equal('B');
    const w = out.warnings.find((x) => x.code === 'DOCX_NATIVE_ANSWER_CONFLICT');
    expect(w?.message).to.equal('key-line B disagrees with red option C');
    expect(w?.question_id).to.equal('q1');
  });

  it('reads a fill-in answer marked in a stem without options', async () => {
    const { qs } = await parse(['1. The tool named [[g:Maven]] manages the dependencies of a project.']);
    expect(qs[0]!.correct_answer).to.equal('Maven');
    expect(qs[0]!.type).to.equal('SHORT_ANSWER');
  });
});

describe('docx parser: exams in tables and boundaries', () => {
  it('reads a mixer table: Noidung, A–D rows, an x column for the answer, statements a–d, Loigiai', async () => {
    const { out, qs } = await parse([
      {
        table: [
          ['Style', '', 'ABCD'],
          ['Noidung', '', 'Thủ đô là?'],
          ['A', '', 'Huế'],
          ['B', 'x', 'Hà Nội'],
          ['C', '', 'Vinh'],
          ['Loigiai', '', 'Hà Nội là thủ đô.'],
          ['Style', '', 'DS'],
          ['Noidung', '', 'Xét các ý'],
          ['a', 'x', 'p'],
          ['b', '', 'q'],
          ['Loigiai', '', ''],
        ],
      },
    ]);
    expect(qs).to.have.length(2);
    expect(optionTexts(qs[0]!)).to.deep.equal(['A:Huế', 'B:Hà Nội', 'C:Vinh']);
    expect(qs[0]!.correct_answer).to.equal('B');
    expect(qs[0]!.solution).to.equal('Hà Nội là thủ đô.');
    expect(qs[1]!.type).to.equal('TRUE_FALSE_GROUP');
    expect(qs[1]!.correct_answer).to.deep.equal({ a: true, b: false });
    expect(out.stats.conventions).to.include('exam-table');
  });

  it('reads an exam table with one question per row under a header (Câu | Nội dung | A | B | C | Đáp án)', async () => {
    const { qs } = await parse([
      {
        table: [
          ['Câu', 'Nội dung', 'A', 'B', 'C', 'Đáp án'],
          ['1', 'Thủ đô là?', 'Huế', 'Hà Nội', 'Vinh', 'B'],
          ['2', '2 + 2 = ?', '3', '5', '4', 'C'],
        ],
      },
    ]);
    expect(stems(qs)).to.deep.equal(['Thủ đô là?', '2 + 2 = ?']);
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:3', 'B:5', 'C:4']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
    const bank = await parse([
      {
        table: [
          ['STT', 'Nội dung câu hỏi', 'Đáp án A', 'Đáp án B', 'Đáp án C', 'Đáp án đúng'],
          ['1', 'Sông dài nhất?', 'Hồng', 'Mê Kông', 'Đà', 'Mê Kông'],
        ],
      },
    ]);
    expect(optionTexts(bank.qs[0]!)).to.deep.equal(['A:Hồng', 'B:Mê Kông', 'C:Đà']);
    expect(bank.qs[0]!.correct_answer).to.equal('B');
  });

  it('reads a table per question whose key row names its field in a cell of its own (Đáp án | B)', async () => {
    const table = (n: number, stem: string, key: string) => ({
      table: [[`Q ${n}.`], [stem], ['A)', 'one'], ['B)', 'two'], ['Đáp án', key], ['Chủ đề: Số học']],
    });
    const { qs } = await parse([table(1, 'First?', 'B'), '', 'PHẦN II', table(2, 'Second?', 'A')]);
    expect(stems(qs)).to.deep.equal(['First?', 'Second?']);
    expect(answers(qs)).to.deep.equal(['B', 'A']);
  });

  it('reads a bank table under a row of captions: the captions are no text, the key and solution columns are fields', async () => {
    const { qs } = await parse([
      {
        table: [
          ['STT', 'Câu hỏi', 'Phương án', 'Đáp án', 'Giải thích'],
          ['1', 'Thủ đô là?', 'a) Huế\nb) Hà Nội\nc) Vinh', 'B', 'Hà Nội là thủ đô.'],
          ['2', '2 + 2 = ?', 'a) 3\nb) 5\nc) 4', 'C', 'Cộng hai với hai.'],
        ],
      },
    ]);
    expect(stems(qs)).to.deep.equal(['Thủ đô là?', '2 + 2 = ?']);
    expect(optionTexts(qs[1]!)).to.deep.equal(['A:3', 'B:5', 'C:4']);
    expect(answers(qs)).to.deep.equal(['B', 'C']);
    expect(qs[1]!.solution).to.contain('Cộng hai với hai.');
  });

  it("reads a bank table without captions whose number cells repeat a number (a teacher's slip)", async () => {
    const { qs } = await parse([
      {
        table: [
          ['1', 'Thủ đô là?', 'A. Huế\nB. [[b:Hà Nội]]'],
          ['2', 'Sông dài nhất?', 'A. [[b:Mê Kông]]\nB. Hồng'],
          ['2', 'Núi cao nhất?', 'A. Ba Vì\nB. [[b:Phan Xi Păng]]'],
        ],
      },
    ]);
    expect(stems(qs)).to.deep.equal(['Thủ đô là?', 'Sông dài nhất?', 'Núi cao nhất?']);
    expect(answers(qs)).to.deep.equal(['B', 'A', 'B']);
  });

  it('reads an essay in a table of its own (a number alone over its text) after a choice question in one', async () => {
    const { qs } = await parse([
      { table: [['1.'], ['Which planet is largest?'], ['A)', 'Mars'], ['*B)', 'Jupiter']] },
      '',
      { table: [['2.'], ['Describe the water cycle. (2 points)']] },
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Describe the water cycle. (2 points)']);
    expect(qs.map((q) => q.type)).to.deep.equal(['SINGLE_CHOICE', 'ESSAY']);
  });

  it("keeps numbered statements inside a bank table's stem cell in the stem; the number column numbers the questions", async () => {
    const stem = (topic: string) =>
      `Consider ${topic} and the following statements:\n\n1. It is hot.\n\n2. It is large.\n\n3. It is far.\n\nHow many of the statements above are true?`;
    const { qs } = await parse([
      {
        table: [
          ['No.', 'Question', 'Options'],
          ['1', stem('the Sun'), '[[r:(A) three]]\n(B) two\n(C) one'],
          ['2', stem('Mars'), '(A) three\n[[r:(B) two]]\n(C) one'],
          ['3', 'Which planet is largest?', '(A) Mars\n[[r:(B) Jupiter]]\n(C) Venus'],
        ],
      },
    ]);
    expect(qs).to.have.length(3);
    expect(stems(qs)[0]).to.contain('1. It is hot.').and.contain('3. It is far.');
    expect(answers(qs)).to.deep.equal(['A', 'B', 'B']);
  });

  it('reads a bank table without numbers: each row a stem, its options cell and its solution', async () => {
    const { qs } = await parse([
      {
        table: [
          ['Which planet is largest?', 'a) Mars\n[[r:b) Jupiter]]', 'Solution: it is the largest one.'],
          ['Which gas do plants take in?', '[[r:a) Carbon dioxide]]\nb) Helium', 'Solution: they breathe it in.'],
        ],
      },
    ]);
    expect(stems(qs)).to.deep.equal(['Which planet is largest?', 'Which gas do plants take in?']);
    expect(answers(qs)).to.deep.equal(['B', 'A']);
  });

  it("reads one table per unlabelled question: each table's first cell is the next stem, after its solution", async () => {
    const question = (stem: string, key: string, why: string): Block => ({
      table: [
        [stem],
        ['a.', 'Mars'],
        ['b.', 'Jupiter'],
        ['c.', 'Venus'],
        ['d.', 'Earth'],
        [key],
        [`Giải thích: ${why}`],
      ],
    });
    const { qs } = await parse([
      question('Hành tinh nào lớn nhất?', 'B', 'nó lớn nhất.'),
      '',
      question('Hành tinh nào gần Mặt Trời nhất?', 'C', 'nó gần nhất.'),
      '',
      question('Hành tinh nào có sự sống?', 'D', 'chúng ta sống ở đó.'),
    ]);
    expect(stems(qs)).to.deep.equal([
      'Hành tinh nào lớn nhất?',
      'Hành tinh nào gần Mặt Trời nhất?',
      'Hành tinh nào có sự sống?',
    ]);
    expect(answers(qs)).to.deep.equal(['B', 'C', 'D']);
  });

  it('keeps a table that belongs to a stem in the stem', async () => {
    const { qs } = await parse([
      'Câu 1. Bảng số liệu:',
      {
        table: [
          ['Nhóm', '[1;2)', '[2;3)'],
          ['Số HS', '3', '5'],
        ],
      },
      'A. 1\tB. [[r:2]]',
    ]);
    expect(qs[0]!.content).to.contain('Nhóm | [1;2) | [2;3)');
    expect(qs[0]!.correct_answer).to.equal('B');
  });

  it('ends an option at a level heading or a solution block, whose formatting never marks it', async () => {
    const { qs } = await parse([
      'Câu 1. a?',
      'A. x\tB. y',
      '// [[r:Nhận biết:]]',
      'Câu 2. b?',
      'A. x',
      'B. y',
      '[[r:Giải thích:]] B đúng vì [[r:y]].',
      'Câu 3. c?',
      'A. x',
      'B. y',
      'Mức độ 2',
      'Câu 4. d?',
      'A. [[r:x]]\tB. y',
      '[[b:Chương 2 – Hàm số]]',
      'Câu 5. e?',
      'A. x\tB. [[r:y]]',
      '----- HẾT -----',
    ]);
    expect(qs.map((q) => q.options.map((o) => o.content))).to.deep.equal([
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(answers(qs)).to.deep.equal([null, null, null, 'A', 'B']);
    expect(qs[1]!.solution).to.contain('B đúng');
  });

  it('fails clearly when no question is found, naming what was seen', async () => {
    const bytes = await makeDocx(['THÔNG BÁO', 'Lịch thi học kì được gửi kèm.']);
    expect(() => parseDocx(bytes))
      .to.throw(DocxError)
      .with.property('code', 'DOCX_NO_QUESTIONS_FOUND');
  });
});
