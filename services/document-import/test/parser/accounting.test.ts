// Accounting for the document's text (issue 32, item 2): the share of the text that ends in a field, and the fields
// that hold more than a field should.
import { expect } from 'chai';
import { parseDocx, type QasOutput } from '../../src/parser/index.js';
import { makeDocx, type Block } from './support/build-docx.js';

async function parse(blocks: Block[]): Promise<QasOutput> {
  return parseDocx(await makeDocx(blocks));
}

const codes = (out: QasOutput, code: string): (string | undefined)[] =>
  out.warnings.filter((w) => w.code === code).map((w) => w.question_id);

const sentence = (n: number): string => `Step ${n} of the reasoning adds one more fact to what the reader knows.`;

describe('docx parser: accounting for every block', () => {
  it('assigns almost all of a fully read paper and warns of none', async () => {
    const out = await parse(['1. Which planet is largest?', 'A. Mars', 'B. Jupiter', 'Answer: B']);
    expect(out.stats.text_assigned).to.be.above(0.7);
    expect(out.warnings.map((w) => w.code)).to.not.include('DOCX_NATIVE_TEXT_UNREAD');
    expect(codes(out, 'DOCX_NATIVE_FIELD_SUSPECT')).to.deep.equal([]);
  });

  it('names the question whose solution holds many times its stem, even with no sibling solution', async () => {
    const long = Array.from({ length: 12 }, (_, i) => sentence(i + 1)).join(' ');
    const out = await parse(['1. Which planet is largest?', 'A. Mars', 'B. Jupiter', 'Answer: B', `Solution: ${long}`]);
    expect(codes(out, 'DOCX_NATIVE_FIELD_SUSPECT')).to.deep.equal(['q1']);
    expect(out.warnings.find((w) => w.code === 'DOCX_NATIVE_FIELD_SUSPECT')!.message).to.match(/solution .*paragraphs/);
  });

  it('warns when most of the text is in no field (notes above the first question are in none)', async () => {
    const notes = Array.from({ length: 8 }, (_, i) => `Teacher's note ${i + 1}: ${sentence(i)}`);
    const out = await parse([...notes, '1. Which planet is largest?', 'A. Mars', 'B. Jupiter']);
    expect(out.stats.text_assigned).to.be.below(0.75);
    expect(out.warnings.map((w) => w.code)).to.include('DOCX_NATIVE_TEXT_UNREAD');
  });
});
