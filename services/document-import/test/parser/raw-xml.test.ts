// Constructs Word has but the docx library does not write: MathType OLE objects, VML pictures, runs split by
// proofing marks, tracked insertions, hyperlinks, and equation elements the converter does not know.
import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { parseDocx } from '../../src/parser/index.js';

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"';

function p(inner: string): string {
  return `<w:p>${inner}</w:p>`;
}
function r(text: string, rPr = ''): string {
  return `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
}

function docx(body: string, parts: Record<string, string> = {}): Uint8Array {
  const rels =
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rIdEq" Type="image" Target="media/image1.wmf"/>' +
    '<Relationship Id="rIdOle" Type="oleObject" Target="embeddings/oleObject1.bin"/>' +
    '<Relationship Id="rIdPic" Type="image" Target="media/image2.png"/>' +
    '<Relationship Id="rIdWeb" Type="hyperlink" Target="https://example.org" TargetMode="External"/></Relationships>';
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="x"/>'),
    'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${NS}><w:body>${body}</w:body></w:document>`),
    'word/_rels/document.xml.rels': strToU8(rels),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])),
  });
}

const RED = '<w:color w:val="C00000"/>';

describe('docx parser: Word constructs beyond the generator', () => {
  it('keeps MathType OLE equations as media (not images) and VML pictures as images, in order', () => {
    const out = parseDocx(
      docx(
        p(
          r('Câu 1. Tính ') +
            '<w:r><w:object><v:shape><v:imagedata r:id="rIdEq"/></v:shape><o:OLEObject ProgID="Equation.DSMT4" r:id="rIdOle"/></w:object></w:r>' +
            r(' theo hình ') +
            '<w:r><w:pict><v:shape><v:imagedata r:id="rIdPic"/></v:shape></w:pict></w:r>',
        ) + p(r('A. 1\tB. 2\tC. 3\tD. 4')),
      ),
    );
    const q = out.questions[0] as { media: { kind: string; url: string; index: number }[] };
    expect(q.media.map((m) => [m.index, m.kind, m.url])).to.deep.equal([
      [1, 'equation_object', 'word/media/image1.wmf'],
      [2, 'image', 'word/media/image2.png'],
    ]);
    expect(out.stats.total_images).to.equal(1);
    expect(out.stats.total_equation_objects).to.equal(1);
    expect(out.warnings.map((w) => w.code)).to.include('DOCX_NATIVE_OLE_EQUATION_KEPT');
  });

  it('reads runs split by proofing marks, insertions and hyperlinks as one text; dark red counts as red', () => {
    const out = parseDocx(
      docx(
        p(
          r('Câ') + '<w:proofErr w:type="spellStart"/>' + r('u 1') + '<w:proofErr w:type="spellEnd"/>' + r('. Thủ đô'),
        ) +
          p(
            '<w:ins w:id="1">' +
              r('A. Huế\t') +
              '</w:ins><w:hyperlink r:id="rIdWeb">' +
              r('B. ', RED) +
              r('Hà ', RED) +
              r('Nội', RED) +
              '</w:hyperlink>' +
              r('\tC. Vinh') +
              r('\tD. Đà Lạt'),
          ) +
          '<w:del w:id="2"><w:r><w:delText>xoá</w:delText></w:r></w:del>',
      ),
    );
    const q = out.questions[0] as {
      number: number;
      content: string;
      options: { content: string }[];
      correct_answer: string;
    };
    expect(q.number).to.equal(1);
    expect(q.content).to.equal('Thủ đô');
    expect(q.options.map((o) => o.content.trim())).to.deep.equal(['Huế', 'Hà Nội', 'Vinh', 'Đà Lạt']);
    expect(q.correct_answer).to.equal('B');
  });

  it('flags equation elements it cannot convert exactly, and keeps their text', () => {
    const math = '<m:oMath><m:unknownThing><m:r><m:t>x</m:t></m:r></m:unknownThing></m:oMath>';
    const out = parseDocx(docx(p(r('Câu 1. ') + math) + p(r('Đáp án: 2'))));
    expect((out.questions[0] as { content: string }).content).to.include('$x$');
    expect(out.warnings.map((w) => w.code)).to.include('DOCX_NATIVE_EQUATION_PARTIAL');
  });

  // Past the default structure limits (limits.ts): raised here, the walks must still not overflow the stack.
  it('parses huge documents within the part limit without overflowing the stack (150,000 loose lines, a 150,000-row table)', () => {
    const limits = { maxParagraphs: 400_000, maxRuns: 400_000, maxTableCells: 200_000 };
    const loose = Array.from({ length: 150_000 }, (_, i) => p(r(`dòng ${i}`))).join('');
    const a = parseDocx(docx(loose + p(r('A. một')) + p(r('B. hai'))), { limits });
    expect(a.questions).to.have.length(1);
    expect((a.questions[0] as { options: unknown[] }).options).to.have.length(2);
    const rows = Array.from({ length: 150_000 }, (_, i) => `<w:tr><w:tc>${p(r(`ô ${i}`))}</w:tc></w:tr>`).join('');
    const b = parseDocx(docx(p(r('Câu 1. Bảng:')) + `<w:tbl>${rows}</w:tbl>` + p(r('A. x')) + p(r('B. y'))), {
      limits,
    });
    expect((b.questions[0] as { content: string }).content.split('\n')).to.have.length(150_001);
  });

  it('draws a Word number as the paragraph mark is formatted: a red mark makes a red option letter', () => {
    const numbering =
      `<?xml version="1.0"?><w:numbering ${NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>` +
      '<w:numFmt w:val="upperLetter"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>';
    const option = (text: string, mark = ''): string =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>${mark ? `<w:rPr>${mark}</w:rPr>` : ''}</w:pPr>${r(text)}</w:p>`;
    const out = parseDocx(
      docx(p(r('Câu 1. Chọn một')) + option('x') + option('y', RED) + option('z'), { 'word/numbering.xml': numbering }),
    );
    const q = out.questions[0] as { options: { label: string }[]; correct_answer: unknown };
    expect(q.options.map((o) => o.label)).to.deep.equal(['A', 'B', 'C']);
    expect(q.correct_answer).to.equal('B');
  });

  it('reads the shaded cell of an options table as the marked option, and leaves a shaded header alone', () => {
    const cell = (text: string, fill = ''): string =>
      `<w:tc>${fill ? `<w:tcPr><w:shd w:val="clear" w:fill="${fill}"/></w:tcPr>` : ''}${p(r(text))}</w:tc>`;
    const out = parseDocx(
      docx(
        p(r('Câu 1. Bảng:')) +
          `<w:tbl><w:tr>${cell('Năm', 'D9D9D9')}${cell('Số')}</w:tr><w:tr>${cell('2020')}${cell('5')}</w:tr></w:tbl>` +
          `<w:tbl><w:tr>${cell('A. 1')}${cell('B. 2')}</w:tr><w:tr>${cell('C. 3', 'FFFF00')}${cell('D. 4')}</w:tr></w:tbl>`,
      ),
    );
    const q = out.questions[0] as { content: string; correct_answer: unknown; options: unknown[] };
    expect(q.content).to.contain('Năm | Số');
    expect(q.options).to.have.length(4);
    expect(q.correct_answer).to.equal('C');
  });

  it('reads questions inside text boxes once (the DrawingML box, not its VML fallback), after their anchor paragraph', () => {
    const box = (inner: string): string =>
      '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">' +
      `<mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="wp"><a:graphic xmlns:a="a"><a:graphicData><wps:wsp xmlns:wps="wps"><wps:txbx><w:txbxContent>${inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>` +
      `<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${inner}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>` +
      '</mc:AlternateContent></w:r>';
    const out = parseDocx(
      docx(
        p(r('Câu 1. Ngoài hộp?') + box(p(r('Câu 2. Trong hộp?')) + p(r('A. x')) + p(r('B. ', RED) + r('y', RED)))) +
          p(r('Câu 3. Sau hộp?')),
      ),
    );
    const qs = out.questions as { number: number; options: unknown[]; correct_answer: unknown }[];
    expect(qs.map((q) => q.number)).to.deep.equal([1, 2, 3]);
    expect(qs[1]!.options).to.have.length(2);
    expect(qs[1]!.correct_answer).to.equal('B');
  });
});
