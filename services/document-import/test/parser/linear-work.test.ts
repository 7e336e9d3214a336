// Issue 20: parsing must take work linear in the document. Each shape is parsed at two sizes (n and 2n of the part
// that grows) and the work is counted (support/work-meter.ts: regex characters read, array elements walked, joined
// characters), never timed: a parser that re-reads what it gathered so far for each new line doubles its per-line
// work with the document and shows as a ratio near 4; linear work stays near 2.
import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { parseDocx } from '../../src/parser/index.js';
import { measureWork } from './support/work-meter.js';

const NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const LINEAR = 2.3;
const N = 1500;

const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const p = (inner: string) => `<w:p>${inner}</w:p>`;
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');
const filler = (n: number, kind: string) => lines(n, (i) => p(r(`dòng ${i + 1} của ${kind}, nội dung ngắn.`)));
const OPTIONS = p(r('A. một')) + p(r('B. hai')) + p(r('C. ba')) + p(r('D. bốn'));

function docx(body: string, parts: Record<string, string> = {}): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="x"/>'),
    'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${NS}><w:body>${body}</w:body></w:document>`),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])),
  });
}

function numbering(n: number): string {
  const abstract = lines(
    n,
    (i) =>
      `<w:abstractNum w:abstractNumId="${i}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>` +
      '<w:lvlText w:val="Câu %1."/></w:lvl></w:abstractNum>',
  );
  const nums = lines(n, (i) => `<w:num w:numId="${i + 1}"><w:abstractNumId w:val="${i}"/></w:num>`);
  return `<?xml version="1.0"?><w:numbering ${NS}>${abstract}${nums}</w:numbering>`;
}

const numbered = (id: number, text: string) =>
  `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${id}"/></w:numPr></w:pPr>${r(text)}</w:p>`;

/** Documents whose growing part has n items. */
const SHAPES: Record<string, (n: number) => Uint8Array> = {
  'continuation lines of a stem': (n) => docx(p(r('Câu 1. Cho hàm số.')) + filler(n, 'đề bài') + OPTIONS),
  'plain lines without any label, then options': (n) => docx(filler(n, 'đề bài') + OPTIONS),
  'continuation lines of an option': (n) =>
    docx(p(r('Câu 1. Chọn.')) + p(r('A. một')) + filler(n, 'phương án A') + p(r('B. hai'))),
  'soft line breaks in one paragraph': (n) =>
    docx(p(r('Câu 1. Cho.')) + p(lines(n, (i) => r(`dòng ${i} nội dung`) + '<w:r><w:br/></w:r>')) + OPTIONS),
  'continuation lines of a true/false statement': (n) =>
    docx(p(r('PHẦN II. Đúng sai')) + p(r('Câu 1. Xét các mệnh đề.')) + p(r('a) Hàm số')) + filler(n, 'mệnh đề a')),
  'continuation lines of a solution': (n) =>
    docx(p(r('Câu 1. Tính.')) + OPTIONS + p(r('Lời giải')) + filler(n, 'lời giải') + p(r('Đáp án: B'))),
  'a passage before its questions': (n) =>
    docx(
      p(r('Đọc đoạn văn sau và trả lời các câu hỏi từ 1 đến 2')) +
        filler(n, 'đoạn văn') +
        p(r('Câu 1. Ý chính?')) +
        OPTIONS,
    ),
  'rows of a table in a stem': (n) =>
    docx(
      p(r('Câu 1. Bảng số liệu:')) +
        `<w:tbl>${lines(n, (i) => `<w:tr><w:tc>${p(r(`ô ${i}`))}</w:tc><w:tc>${p(r(`${i * 2}`))}</w:tc></w:tr>`)}</w:tbl>` +
        OPTIONS,
    ),
  'runs in one paragraph': (n) => docx(p(r('Câu 1. Cho')) + p(lines(n, (i) => r(`x${i} `))) + OPTIONS),
  'questions and their answer-key list': (n) =>
    docx(
      lines(n, (i) => p(r(`Câu ${(i % 900) + 1}. Tính ${i}.`)) + p(r('A. 1\tB. 2\tC. 3\tD. 4'))) +
        p(r('ĐÁP ÁN')) +
        lines(n / 10, (k) => p(r(lines(10, (j) => `${((k * 10 + j) % 900) + 1}.${'ABCD'[j % 4]} `)))),
    ),
  'numbering definitions and numbered questions': (n) =>
    docx(
      lines(n, (i) => numbered(i + 1, `Tính ${i}.`) + p(r('A. 1\tB. 2'))),
      { 'word/numbering.xml': numbering(n) },
    ),
  'worded labels in the middle of one paragraph': (n) =>
    docx(p(r('Câu 1. Cho.')) + p(lines(n, (i) => r(`ý ${i}. `) + r(`Câu ${(i % 3) + 2}. `))) + OPTIONS),
};

function work(make: (n: number) => Uint8Array, n: number): number {
  const bytes = make(n);
  return measureWork(() => parseDocx(bytes));
}

describe('docx parser: work grows linearly with the document (counted, not timed)', () => {
  it('the meter tells quadratic work (a growing text re-read per line) from linear work', () => {
    const quadratic = (n: number) => () => {
      const seen: string[] = [];
      for (let i = 0; i < n; i++) {
        seen.push(`dòng ${i}`);
        /dòng 0 x/.test(seen.join('\n'));
      }
    };
    const linear = (n: number) => () => {
      const seen: string[] = [];
      for (let i = 0; i < n; i++) seen.push(`dòng ${i}`);
      /dòng 0 x/.test(seen.join('\n'));
    };
    expect(measureWork(quadratic(2 * N)) / measureWork(quadratic(N))).to.be.above(3.5);
    expect(measureWork(linear(2 * N)) / measureWork(linear(N))).to.be.below(LINEAR);
  });

  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`${shape}: ${2 * N} items take at most ${LINEAR}× the work of ${N}`, () => {
      const small = work(make, N);
      const large = work(make, 2 * N);
      expect(large / small, `work ${small} → ${large}`).to.be.below(LINEAR);
    });
  }

  it('nesting: runs wrapped twice as deep take at most twice the work per element', () => {
    const nested = (depth: number) =>
      docx(
        p(r('Câu 1. Cho')) + lines(100, () => p('<w:ins>'.repeat(depth) + r('x') + '</w:ins>'.repeat(depth))) + OPTIONS,
      );
    const small = measureWork(() => parseDocx(nested(50)));
    const large = measureWork(() => parseDocx(nested(100)));
    expect(large / small, `work ${small} → ${large}`).to.be.below(LINEAR);
  });
});
