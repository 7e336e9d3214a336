import { expect } from 'chai';
import { parseDocx, type QasOutput } from '../../src/parser/index.js';
import { parseRaw } from '../../src/parser/answers.js';
import { keyLineEntries, lowerKeySectionEntries } from '../../src/parser/keys.js';
import { makeDocx, type Block } from './support/build-docx.js';

type Q = Record<string, unknown> & {
  correct_answer: unknown;
  type: string;
  source_location: { answer_evidence: string | null };
  sub_items: { label: string; content: string; correct_boolean: boolean | null }[];
};

async function parse(blocks: Block[]): Promise<{ out: QasOutput; qs: Q[] }> {
  const out = parseDocx(await makeDocx(blocks));
  return { out, qs: out.questions as Q[] };
}

function codes(out: QasOutput): string[] {
  return out.warnings.map((w) => w.code);
}

describe('docx parser: answers', () => {
  it('takes a red or underlined option: the letter only, the text only, or part of it', async () => {
    const { out, qs } = await parse([
      'Câu 1. letter red',
      'A. x\t[[r:B.]] y\tC. z\tD. w',
      'Câu 2. text red',
      'A. x\tB. y\tC. [[r:z]]\tD. w',
      'Câu 3. part underlined',
      'A. x\tB. y\tC. z\tD. w[[u:ord]]',
      'Câu 4. red and underlined',
      'A. [[ru:x]]\tB. y\tC. z\tD. w',
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal(['B', 'C', 'D', 'A']);
    expect(qs.every((q) => q.source_location.answer_evidence === 'DOCX_STYLE_HINT')).to.equal(true);
    expect(codes(out)).to.include('DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED');
    expect(codes(out)).not.to.include('DOCX_NATIVE_DGNL_FALLBACK');
  });

  it('reads a yellow highlight as DGNL single choice with its warning in an exam that names itself DGNL', async () => {
    const { out, qs } = await parse(['ĐỀ THI ĐÁNH GIÁ NĂNG LỰC', 'Câu 1. dgnl', 'A. x\tB. y\t[[h:C. z]]\tD. w']);
    expect(qs[0]!.type).to.equal('DGNL_SINGLE_CHOICE');
    expect(qs[0]!.correct_answer).to.equal('C');
    expect(codes(out)).to.include('DOCX_NATIVE_DGNL_FALLBACK');
  });

  it('takes a key typed after a statement out of the stem, keys the statement and records the removal', async () => {
    const { out, qs } = await parse(['Câu 1. Chiến thắng Ấp Bắc diễn ra năm 1962. → Sai (Đáp án đúng: năm 1963.)']);
    expect(qs[0]!.type).to.equal('TRUE_FALSE_GROUP');
    expect(qs[0]!.correct_answer).to.deep.equal({ a: false });
    expect(qs[0]!.content).to.equal('Chiến thắng Ấp Bắc diễn ra năm 1962.');
    expect(qs[0]!.solution).to.contain('năm 1963');
    expect(out.warnings.find((w) => w.code === 'DOCX_NATIVE_KEY_REMOVED')?.question_id).to.equal('q1');
  });

  it('gives a paper whose key fields are empty no answers, a warning each, and keeps the field out of option D', async () => {
    const lines = [1, 2, 3].flatMap((n) => [
      `${n}. Which one, ${n}?`,
      'a) one',
      'b) two',
      'c) three',
      'd) four\n[[b:Answer:]]',
    ]);
    const { out, qs } = await parse(lines);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal([null, null, null]);
    expect(qs.map((q) => (q.options as { content: string }[]).at(-1)?.content)).to.deep.equal(['four', 'four', 'four']);
    expect(out.warnings.filter((w) => w.code === 'DOCX_NATIVE_ANSWER_MISSING')).to.have.length(3);
  });

  it('reads a highlighted answer elsewhere as an ordinary single choice', async () => {
    const { out, qs } = await parse(['Câu 1. Thủ đô của Việt Nam?', 'A. Huế\tB. Hà Nội\t[[h:C. z]]\tD. w']);
    expect(qs[0]!.type).to.equal('SINGLE_CHOICE');
    expect(qs[0]!.correct_answer).to.equal('C');
    expect(codes(out)).not.to.include('DOCX_NATIVE_DGNL_FALLBACK');
  });

  it('reads several marked options as MULTIPLE_CHOICE', async () => {
    const { qs } = await parse(['Câu 1. multi', 'A. [[r:x]]\tB. y\tC. [[r:z]]\tD. w']);
    expect(qs[0]!.type).to.equal('MULTIPLE_CHOICE');
    expect(qs[0]!.correct_answer).to.deep.equal(['A', 'C']);
  });

  it('reads Đáp án and Chọn lines; keeps Lời giải as the solution and never takes its letters', async () => {
    const { qs } = await parse([
      'Câu 1. line',
      'A. x\tB. y\tC. z\tD. w',
      'Đáp án: B',
      'Câu 2. choose',
      'A. x\tB. y\tC. z\tD. w',
      'Lời giải',
      'Xét phương án A sai vì [[r:C]] không thỏa, D cũng sai.',
      'Chọn D',
      'Câu 3. solution only',
      'A. x\tB. y\tC. z\tD. w',
      'Hướng dẫn giải: đáp án A là sai, [[r:B]] cũng sai.',
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal(['B', 'D', null]);
    expect(qs[1]!.solution).to.include('Xét phương án A sai');
    expect(qs[2]!.solution).to.include('Hướng dẫn giải');
    expect(qs[0]!.source_location.answer_evidence).to.equal('ANSWER_LINE');
  });

  it('reads answer-key tables at the end: 1.B cells, Câu | Chọn rows, Phần II and Phần III keys', async () => {
    const { qs } = await parse([
      'PHẦN I',
      'Câu 1. a',
      'A. x\tB. y\tC. z\tD. w',
      'Câu 2. b',
      'A. x\tB. y\tC. z\tD. w',
      'Câu 3. c',
      'A. x\tB. y\tC. z\tD. w',
      'PHẦN II. Câu trắc nghiệm đúng sai',
      'Câu 1. statements',
      'a) s1',
      'b) s2',
      'c) s3',
      'd) s4',
      'PHẦN III. Trả lời ngắn',
      'Câu 1. numeric',
      'BẢNG ĐÁP ÁN',
      'PHẦN I',
      { table: [['1.B', '2.D']] },
      {
        table: [
          ['Câu', '3'],
          ['Chọn', 'A'],
        ],
      },
      'PHẦN II',
      {
        table: [
          ['Câu', 'Đáp án'],
          ['1', 'a) Đ, b) S, c) Đ, d) S'],
        ],
      },
      'PHẦN III',
      {
        table: [
          ['Câu', 'Đáp án'],
          ['1', '-0,75'],
        ],
      },
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal([
      'B',
      'D',
      'A',
      { a: true, b: false, c: true, d: false },
      '-0,75',
    ]);
    expect(qs[4]!.correct_answer_numeric).to.equal(-0.75);
    expect(qs[4]!.type).to.equal('SHORT_NUMERIC_ANSWER');
    expect(qs[3]!.type).to.equal('TRUE_FALSE_GROUP');
    expect(qs[0]!.source_location.answer_evidence).to.equal('ANSWER_KEY_TABLE');
  });

  it('reads a Phần II key grid: Câu | a | b | c | d with Đ/S cells', async () => {
    const { qs } = await parse([
      'PHẦN II',
      'Câu 1. x',
      'a) s1',
      'b) s2',
      'c) s3',
      'd) s4',
      'Câu 2. y',
      'a) s1',
      'b) s2',
      'c) s3',
      'd) s4',
      'ĐÁP ÁN',
      'PHẦN II',
      {
        table: [
          ['Câu', 'a', 'b', 'c', 'd'],
          ['1', 'Đ', 'S', 'S', 'Đ'],
          ['2', 'Sai', 'Đúng', 'Đúng', 'Sai'],
        ],
      },
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal([
      { a: true, b: false, c: false, d: true },
      { a: false, b: true, c: true, d: false },
    ]);
  });

  it('reads true/false groups by colour, underline, suffix, answer line and X table', async () => {
    const { qs } = await parse([
      'Câu 1. by colour',
      '[[r:a)]] s1',
      'b) s2',
      '[[r:c) s3]]',
      'd) s4',
      'Câu 2. by underline',
      'a) s1',
      '[[u:b)]] s2',
      'c) s3',
      'd) s4',
      'Câu 3. by suffix',
      'a) s1 (Sai)',
      'b) s2 (Đúng)',
      'c) s3 (Sai)',
      'd) s4 (Đúng)',
      'Câu 4. by line',
      'a) s1',
      'b) s2',
      'c) s3',
      'd) s4',
      'Đáp án: a) Đúng; b) Đúng; c) Sai; d) Sai',
      'Câu 5. by table',
      {
        table: [
          ['Mệnh đề', 'Đúng', 'Sai'],
          ['a) s1', 'X', ''],
          ['b) s2', '', 'X'],
          ['c) s3', '', 'X'],
          ['d) s4', 'X', ''],
        ],
      },
    ]);
    const tf = (a: boolean, b: boolean, c: boolean, d: boolean): Record<string, boolean> => ({ a, b, c, d });
    expect(qs.map((q) => q.correct_answer)).to.deep.equal([
      tf(true, false, true, false),
      tf(false, true, false, false),
      tf(false, true, false, true),
      tf(true, true, false, false),
      tf(true, false, false, true),
    ]);
    expect(qs.every((q) => q.type === 'TRUE_FALSE_GROUP')).to.equal(true);
    expect(qs[2]!.sub_items[0]).to.deep.equal({ label: 'a', content: 's1', correct_boolean: false });
    expect(qs[4]!.sub_items.map((s) => s.content)).to.deep.equal(['s1', 's2', 's3', 's4']);
  });

  it('reads short numeric answers with comma decimals and negatives', async () => {
    const { qs } = await parse(['PHẦN III', 'Câu 1. a', 'Đáp án: -12,5', 'Câu 2. b', 'Đáp án: 3']);
    expect(qs.map((q) => [q.type, q.correct_answer, q.correct_answer_numeric])).to.deep.equal([
      ['SHORT_NUMERIC_ANSWER', '-12,5', -12.5],
      ['SHORT_NUMERIC_ANSWER', '3', 3],
    ]);
  });

  it('never takes red words in a stem or pronunciation underlines on every option as the answer', async () => {
    const { out, qs } = await parse([
      'Câu 1. Chọn câu [[r:KHÔNG]] đúng về [[u:vocabulary]]',
      'A. x\tB. y\tC. z\tD. w',
      'Câu 2. Mark the word whose underlined part differs',
      'A. [[u:c]]at\tB. h[[u:a]]t\tC. n[[u:a]]me\tD. m[[u:a]]p',
      'Câu 3. Pronunciation with a red answer',
      'A. [[u:c]]at\tB. h[[u:a]]t\t[[r:C.]] n[[u:a]]me\tD. m[[u:a]]p',
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal([null, null, 'C']);
    expect(codes(out)).to.include('DOCX_NATIVE_ANSWER_MISSING');
  });

  it('warns when style marks disagree with the answer line; the line wins', async () => {
    const { out, qs } = await parse(['Câu 1. conflict', 'A. x\t[[r:B. y]]\tC. z\tD. w', 'Đáp án: C']);
    expect(qs[0]!.correct_answer).to.equal('C');
    expect(codes(out)).to.include('DOCX_NATIVE_ANSWER_CONFLICT');
  });

  it('reads a lower-case key list of three numbered one after another, or one under a key heading; never one that skips', () => {
    const keys = (text: string) => keyLineEntries(text, null).map((e) => `${e.number}${e.raw}`);
    expect(keys('1.d\t2.d\t3.c')).to.deep.equal(['1D', '2D', '3C']);
    expect(keys('1.a 3.b 7.c'), 'numbers that skip: a list of things, not a key').to.deep.equal([]);
    expect(keys('1.a 2.b'), 'two alone').to.deep.equal([]);
    expect(keys('1.a 2.b 3.c are the sections'), 'not only entries').to.deep.equal([]);
    expect(keys('1.a 3.b 5.c 7.d 9.e'), 'five at least, in any order').to.have.length(5);
    const section = (text: string) => lowerKeySectionEntries(text, null).map((e) => `${e.number}${e.raw}`);
    expect(section('1. b ⇥ 2.b ⇥ 3. a'.replace(/⇥/g, '\t'))).to.deep.equal(['1B', '2B', '3A']);
    expect(section('1. b is the answer')).to.deep.equal([]);
    const wrapped = (text: string, after: number) => lowerKeySectionEntries(text, null, after).map((e) => e.number);
    expect(wrapped('21. d', 20), 'the last entry wrapped onto a line of its own').to.deep.equal([21]);
    expect(wrapped('21. d', 5), 'one entry that goes on from nothing').to.deep.equal([]);
    expect(keys('Risposta: 01.c  02. c  03. d'), 'a key word of another language before the list').to.deep.equal([
      '1C',
      '2C',
      '3D',
    ]);
    expect(keys('Lösungen: 1.A 2.B')).to.deep.equal(['1A', '2B']);
  });

  it('reads Soluzione with a letter as the key and over a sentence as the solution only, which names no truth values', async () => {
    const { out, qs } = await parse([
      '1) Quale?',
      'A. uno\tB. due\tC. tre\tD. quattro',
      'Soluzione: B',
      '2) Quale ancora?',
      'A. uno\tB. due\tC. tre\tD. quattro',
      "Soluzione: Planet and engine. L'opzione A è sbagliata perché planet and library harbor.",
    ]);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal(['B', null]);
    expect(qs[1]!.type).to.equal('SINGLE_CHOICE');
    expect(out.warnings.filter((w) => w.code === 'DOCX_NATIVE_ANSWER_MISSING').map((w) => w.question_id)).to.deep.equal(
      ['q2'],
    );
    expect(
      parseRaw("Planet and engine. L'opzione A è sbagliata"),
      'letters inside words are no statements',
    ).to.deep.equal({
      text: "Planet and engine. L'opzione A è sbagliata",
    });
    expect(parseRaw('a) Đ, b) S, c)Đ, d) Sai')).to.deep.equal({ tf: { a: true, b: false, c: true, d: false } });
  });
});
