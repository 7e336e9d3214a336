import { expect } from 'chai';
import { parseDocx } from '../../src/parser/index.js';
import { makeDocx } from './support/build-docx.js';

async function latexOf(latex: string): Promise<string> {
  const out = parseDocx(await makeDocx([`Câu 1. [[m:${latex}]]`]));
  const q = out.questions[0] as { formulas: { latex: string }[]; content: string };
  expect(q.content).to.include(`$${q.formulas[0]!.latex}$`);
  return q.formulas[0]!.latex.replace(/\s+/g, '');
}

describe('docx parser: Office Math to LaTeX', () => {
  const cases: [string, string][] = [
    ['\\frac{a+1}{b}', '\\frac{a+1}{b}'],
    ['\\sqrt{x}', '\\sqrt{x}'],
    ['\\sqrt[3]{x}', '\\sqrt[3]{x}'],
    ['x^{2}', 'x^{2}'],
    ['a_{n}', 'a_{n}'],
    ['x_{1}^{2}', 'x_{1}^{2}'],
    ['\\int_{0}^{1} f(x) dx', '\\int_{0}^{1}f(x)dx'],
    ['\\sum_{k=1}^{n} k', '\\sum_{k=1}^{n}k'],
    ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '\\left(\\begin{matrix}1&2\\\\3&4\\end{matrix}\\right)'],
    ['\\left\\{ a; b \\right\\}', '\\left\\{a;b\\right\\}'],
    ['|x|', '|x|'],
    ['\\vec{AB}', '\\vec{AB}'],
    ['\\hat{x}', '\\hat{x}'],
    ['\\overline{z}', '\\overline{z}'],
    ['\\pi \\le \\alpha', '\\pi\\le\\alpha'],
  ];
  for (const [input, expected] of cases) {
    it(`converts ${input}`, async () => {
      expect(await latexOf(input)).to.equal(expected.replace(/\s+/g, ''));
    });
  }

  it('counts pictures, not formulas, in stats.total_images and keeps media in document order', async () => {
    const out = parseDocx(
      await makeDocx([
        'Câu 1. [[img]] [[m:\\frac{1}{2}]]',
        'A. [[img]]\tB. y\tC. z\tD. w',
        'Câu 2. [[img]]',
        'Đáp án: 2',
      ]),
    );
    expect(out.stats.total_images).to.equal(3);
    const qs = out.questions as { media: { index: number; url: string }[] }[];
    expect(qs[0]!.media.map((m) => m.index)).to.deep.equal([1, 2]);
    expect(qs[1]!.media.map((m) => m.index)).to.deep.equal([3]);
    expect(qs[0]!.media[0]!.url).to.match(/^word\/media\//);
  });
});
