// A document in which no question is found is a failure naming what was seen, never `questions: []`.
import { expect } from 'chai';
import { DocxError, parseDocx } from '../../src/parser/index.js';
import { makeDocx, type Block } from './support/build-docx.js';

// Prose a teacher might upload by mistake: no labels, no options, no answers.
const LONG = `Kính gửi quý phụ huynh học sinh lớp 10A1, nhà trường xin thông báo lịch họp phụ huynh cuối học kỳ một ${'và các nội dung liên quan '.repeat(4)}`;
const NOTICE: Block[] = [
  'THÔNG BÁO',
  '',
  LONG,
  'Thời gian: sáng thứ Bảy tuần này.',
  {
    table: [
      ['Địa điểm', 'Phòng 204'],
      ['Người phụ trách', 'Cô Lan'],
    ],
  },
  'Trân trọng cảm ơn.',
  'Ban giám hiệu',
];

function refusal(bytes: Uint8Array): DocxError {
  try {
    parseDocx(bytes);
  } catch (err) {
    if (err instanceof DocxError) return err;
    throw err;
  }
  throw new Error('parseDocx returned a result');
}

describe('docx parser: a document without a question', () => {
  it('throws DOCX_NO_QUESTIONS_FOUND with the paragraphs, the tables and the first five non-empty lines', async () => {
    const err = refusal(await makeDocx(NOTICE));
    expect(err.code).to.equal('DOCX_NO_QUESTIONS_FOUND');
    expect(err.details).to.deep.equal({
      paragraphs: 6,
      tables: 1,
      firstLines: [
        'THÔNG BÁO',
        `${LONG.slice(0, 119)}…`,
        'Thời gian: sáng thứ Bảy tuần này.',
        'Địa điểm | Phòng 204',
        'Người phụ trách | Cô Lan',
      ],
    });
    expect(err.message).to.match(/^no question found in 6 paragraphs and 1 table; the first lines: "THÔNG BÁO", /);
    expect(err.message).to.include('"Người phụ trách | Cô Lan"');
    expect(err.message).to.not.include('Trân trọng');
  });

  it('says so when the document has no text at all', async () => {
    const err = refusal(await makeDocx(['', '']));
    expect(err.code).to.equal('DOCX_NO_QUESTIONS_FOUND');
    expect(err.details).to.deep.equal({ paragraphs: 2, tables: 0, firstLines: [] });
    expect(err.message).to.equal('no question found in 2 paragraphs and 0 tables; no text at all');
  });

  it('keeps the other refusals without details (a DocxError built without options)', () => {
    const err = new DocxError('DOCX_CORRUPT', 'truncated');
    expect([err.code, err.message, err.details]).to.deep.equal(['DOCX_CORRUPT', 'truncated', undefined]);
  });

  it('still returns the output when the same document holds one question', async () => {
    const out = parseDocx(await makeDocx([...NOTICE, 'Câu 1. Chọn số chẵn.', 'A. 1\tB. [[r:2]]\tC. 3\tD. 5']));
    expect(out.questions).to.have.length(1);
  });
});
