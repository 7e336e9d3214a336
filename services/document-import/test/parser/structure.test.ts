import { expect } from 'chai';
import { parseDocx } from '../../src/parser/index.js';
import { makeDocx, type Block } from './support/build-docx.js';

type Q = {
  number: number;
  part: string | null;
  content: string;
  options: { label: string; content: string }[];
} & Record<string, unknown>;

async function parse(blocks: Block[]): Promise<Q[]> {
  return parseDocx(await makeDocx(blocks)).questions as Q[];
}

const OPTS = 'A. 1\tB. 2\tC. 3\tD. 4';

describe('docx parser: structure', () => {
  it('finds Câu N in all its spellings and Question N', async () => {
    const qs = await parse(
      ['Câu 1. a', 'Câu 2: b', 'Câu 03. c', 'CÂU 4. d', 'Câu 5 : e', 'Question 6. f', 'Question 7: g'].flatMap((s) => [
        s,
        OPTS,
      ]),
    );
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(qs.map((q) => q.content)).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('restarts numbering in each PHẦN and records the part', async () => {
    const qs = await parse(['PHẦN I. Trắc nghiệm', 'Câu 1. a', OPTS, 'Câu 2. b', OPTS, 'PHẦN II', 'Câu 1. c', OPTS]);
    expect(qs.map((q) => [q.part, q.number])).to.deep.equal([
      ['I', 1],
      ['I', 2],
      ['II', 1],
    ]);
  });

  it('reads options one per line, with tabs, two per line, with soft breaks and in tables', async () => {
    const qs = await parse([
      'Câu 1. one per line',
      'A. x',
      'B. y',
      'C. z',
      'D. w',
      'Câu 2. two per line',
      'A. x\tB. y',
      'C. z\tD. w',
      'Câu 3. spaces',
      'A. x    B. y    C. z    D. w',
      'Câu 4. soft breaks',
      'A. x\nB. y\nC. z\nD. w',
      'Câu 5. table',
      {
        table: [
          ['A. x', 'B. y'],
          ['C. z', 'D. w'],
        ],
      },
      'Câu 6. five options',
      'A. x\tB. y\tC. z\tD. w\tE. v',
    ]);
    for (const q of qs.slice(0, 5)) {
      expect(
        q.options.map((o) => `${o.label}:${o.content}`),
        q.content,
      ).to.deep.equal(['A:x', 'B:y', 'C:z', 'D:w']);
    }
    expect(qs[5]!.options.map((o) => o.label)).to.deep.equal(['A', 'B', 'C', 'D', 'E']);
  });

  it('keeps several stem paragraphs, soft breaks, stem tables and pictures; a stray B. in a stem is not an option', async () => {
    const qs = await parse([
      'Câu 1. Cho tam giác ABC. B. là một điểm',
      'B. nằm trên cạnh AC\nvà thêm dòng',
      {
        table: [
          ['x', '1'],
          ['y', '2'],
        ],
      },
      '[[img]]',
      'A. x\tB. y\tC. z\tD. w',
    ]);
    const q = qs[0]!;
    expect(q.content).to.include('Cho tam giác ABC. B. là một điểm');
    expect(q.content).to.include('B. nằm trên cạnh AC\nvà thêm dòng');
    expect(q.content).to.include('x | 1');
    expect(q.options).to.have.length(4);
    expect(q.media).to.have.length(1);
  });

  it('splits options written on the question line or after the stem on one line', async () => {
    const qs = await parse([
      'Câu 1. 2 + 2 = ? A. 3 B. [[r:4]] C. 5 D. 6',
      'Câu 2. Cho tam giác ABC. B. là trung điểm',
      'Tính góc. A. 30°\tB. 45°\tC. 60°\tD. 90°',
      'Câu 3. Điểm A. và điểm B. nằm trên đường tròn',
      'A. x\tB. y\tC. z\tD. w',
    ]);
    expect(qs.map((q) => q.options.map((o) => o.content))).to.deep.equal([
      ['3', '4', '5', '6'],
      ['30°', '45°', '60°', '90°'],
      ['x', 'y', 'z', 'w'],
    ]);
    expect(qs.map((q) => q.content)).to.deep.equal([
      '2 + 2 = ?',
      'Cho tam giác ABC. B. là trung điểm\nTính góc.',
      'Điểm A. và điểm B. nằm trên đường tròn',
    ]);
    expect(qs[0]!.correct_answer).to.equal('B');
  });

  it('reads Word auto-numbered questions and options', async () => {
    const qs = await parse([
      { auto: 'question', text: 'Tự động một' },
      { auto: 'option', text: 'x' },
      { auto: 'option', text: '[[r:y]]' },
      { auto: 'option', text: 'z' },
      { auto: 'option', text: 'w' },
      { auto: 'question', text: 'Tự động hai' },
      'A. x\tB. y\tC. z\tD. w',
    ]);
    expect(qs.map((q) => [q.number, q.content])).to.deep.equal([
      [1, 'Tự động một'],
      [2, 'Tự động hai'],
    ]);
    expect(qs[0]!.options.map((o) => o.content)).to.deep.equal(['x', 'y', 'z', 'w']);
    expect(qs[0]!.correct_answer).to.equal('B');
  });

  it('puts questions of a shared passage into one group', async () => {
    const out = parseDocx(
      await makeDocx([
        'Đọc đoạn văn sau và trả lời các câu hỏi từ 1 đến 2',
        'Once upon a time there was a passage.',
        'Câu 1. a',
        OPTS,
        'Câu 2. b',
        OPTS,
        'Câu 3. c',
        OPTS,
      ]),
    );
    const qs = out.questions as Q[];
    expect(out.groups).to.have.length(1);
    expect((out.groups[0] as { content: string }).content).to.include('Once upon a time');
    expect(qs.map((q) => q.group_id)).to.deep.equal(['g1', 'g1', null]);
  });

  it('keeps essays with points and a), b) sub-parts that are not true/false statements', async () => {
    const qs = await parse(['Câu 1 (1,5 điểm). Giải phương trình', 'a) x + 1 = 0', 'b) x - 2 = 0']);
    expect(qs[0]!.type).to.equal('ESSAY');
    expect(qs[0]!.points).to.equal(1.5);
    expect(qs[0]!.content).to.include('a) x + 1 = 0');
    expect(qs[0]!.sub_items).to.deep.equal([]);
  });
});
