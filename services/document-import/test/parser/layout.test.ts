import { expect } from 'chai';
import { parseDocx } from '../../src/parser/index.js';
import { openZip } from '../../src/parser/zip.js';
import { makeDocx } from './support/build-docx.js';

type Q = {
  number: number;
  group_id: string | null;
  type: string;
  content: string;
  correct_answer: unknown;
  options: { label: string; content: string }[];
};
type G = { group_id: string; kind: string; parent_group_id: string | null; title: string; content: string };

const OPTS = 'A. 1\tB. [[r:2]]\tC. 3\tD. 4';

describe('docx parser: section groups and two-column layouts', () => {
  it('groups questions under section headings and rangeless passages until the next heading', async () => {
    const out = parseDocx(
      await makeDocx([
        'I. TRẮC NGHIỆM (7 điểm)',
        'Câu 1. a',
        OPTS,
        'Đọc đoạn văn sau và trả lời các câu hỏi.',
        'Once upon a time there was a passage.',
        'Câu 2. b',
        OPTS,
        'Câu 3. c',
        OPTS,
        'II. Tự luận (3 điểm)',
        'Câu 1 (1,5 điểm). Giải phương trình x + 1 = 0',
        'I. am not a heading because I am written in lower case',
      ]),
    );
    const qs = out.questions as Q[];
    const gs = out.groups as G[];
    expect(gs.map((g) => [g.group_id, g.kind, g.parent_group_id])).to.deep.equal([
      ['g1', 'SECTION', null],
      ['g2', 'PASSAGE', 'g1'],
      ['g3', 'SECTION', null],
    ]);
    expect(gs[1]!.content).to.include('Once upon a time');
    expect(qs.map((q) => [q.number, q.group_id])).to.deep.equal([
      [1, 'g1'],
      [2, 'g2'],
      [3, 'g2'],
      [1, 'g3'],
    ]);
    expect(qs[3]!.type).to.equal('ESSAY');
    expect(qs[3]!.content).to.include('I. am not a heading');
  });

  it('makes each PHẦN a group that holds its passages; a ranged passage ends after its last question', async () => {
    const out = parseDocx(
      await makeDocx([
        'PHẦN I. Câu trắc nghiệm nhiều phương án lựa chọn',
        'Read the passage and answer the questions from 1 to 2.',
        'A short passage.',
        'Câu 1. a',
        OPTS,
        'Câu 2. b',
        OPTS,
        'Câu 3. c',
        OPTS,
        'PHẦN II. Câu trắc nghiệm đúng sai',
        'Câu 1. d',
        OPTS,
      ]),
    );
    const gs = out.groups as G[];
    expect(gs.map((g) => [g.kind, g.parent_group_id])).to.deep.equal([
      ['PART', null],
      ['PASSAGE', 'g1'],
      ['PART', null],
    ]);
    expect((out.questions as Q[]).map((q) => q.group_id)).to.deep.equal(['g2', 'g2', 'g1', 'g3']);
  });

  it('reads a two-column section in order across column breaks', async () => {
    const bytes = await makeDocx(
      [
        'Câu 1. Tính tổng',
        'A. 1\tB. [[r:2]][[col]]C. 3\tD. 4',
        'Câu 2. Số nào lớn[[col]] nhất?',
        'A. 5',
        'B. 6',
        '[[col]]',
        'C. [[r:7]]',
        'D. 0',
        'Câu 3. c',
        OPTS,
      ],
      { columns: 2 },
    );
    const xml = Buffer.from(openZip(bytes).read('word/document.xml')).toString('utf8');
    expect(xml).to.match(/<w:cols [^>]*w:num="2"/);
    expect(xml.match(/<w:br w:type="column"\/>/g)).to.have.length(3);
    const qs = parseDocx(bytes).questions as Q[];
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2, 3]);
    expect(qs.map((q) => q.options.map((o) => `${o.label}${o.content}`))).to.deep.equal([
      ['A1', 'B2', 'C3', 'D4'],
      ['A5', 'B6', 'C7', 'D0'],
      ['A1', 'B2', 'C3', 'D4'],
    ]);
    expect(qs[1]!.content.replace(/\s+/g, ' ')).to.equal('Số nào lớn nhất?');
    expect(qs.map((q) => q.correct_answer)).to.deep.equal(['B', 'C', 'B']);
  });

  it('numbers questions and options through their paragraph styles, basedOn included', async () => {
    const qs = parseDocx(
      await makeDocx([
        { style: 'CauHoi', text: 'Một cộng một bằng?' },
        { style: 'PhuongAn', text: '1' },
        { style: 'PhuongAn', text: '[[r:2]]' },
        { style: 'PhuongAn', text: '3' },
        { style: 'PhuongAn', text: '4' },
        { style: 'CauHoiPhu', text: 'Kiểu kế thừa?' },
        OPTS,
        { style: 'CauHoi', text: 'Ba' },
        OPTS,
      ]),
    ).questions as Q[];
    expect(qs.map((q) => [q.number, q.content])).to.deep.equal([
      [1, 'Một cộng một bằng?'],
      [2, 'Kiểu kế thừa?'],
      [3, 'Ba'],
    ]);
    expect(qs[0]!.options.map((o) => `${o.label}${o.content}`)).to.deep.equal(['A1', 'B2', 'C3', 'D4']);
    expect(qs.map((q) => q.correct_answer)).to.deep.equal(['B', 'B', 'B']);
  });
});
