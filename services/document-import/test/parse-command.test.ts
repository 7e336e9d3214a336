import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDocxParse } from '../src/parse-command.js';
import { makeDocx } from './parser/support/build-docx.js';

function capture(): { out: string[]; err: string[]; io: { stdout: (s: string) => void; stderr: (s: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s) => out.push(s), stderr: (s) => err.push(s) } };
}

describe('docx-parse command', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docx-parse-'));
    await writeFile(join(dir, 'exam.docx'), await makeDocx(['Câu 1. x', 'A. 1\tB. [[r:2]]\tC. 3\tD. 4']));
    await writeFile(join(dir, 'bad.docx'), 'not a zip');
    await writeFile(join(dir, 'notice.docx'), await makeDocx(['Thông báo họp phụ huynh', '', 'Thời gian: thứ Bảy']));
    await writeFile(join(dir, 'notes.txt'), 'x');
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('writes DIR/<name>.json for each file', async () => {
    const c = capture();
    const code = await runDocxParse(['--out', join(dir, 'out'), join(dir, 'exam.docx')], c.io);
    expect(code).to.equal(0);
    const qas = JSON.parse(await readFile(join(dir, 'out', 'exam.json'), 'utf8'));
    expect(qas.questions[0].correct_answer).to.equal('B');
    expect(qas).to.have.keys(['document_id', 'latency_ms', 'questions', 'groups', 'warnings', 'stats']);
  });

  it('prints to stdout without --out and reports bad files with their code, exit 1', async () => {
    const c = capture();
    const code = await runDocxParse(
      [join(dir, 'exam.docx'), join(dir, 'bad.docx'), join(dir, 'notes.txt'), join(dir, 'missing.docx')],
      c.io,
    );
    expect(code).to.equal(1);
    expect(JSON.parse(c.out.join('')).stats.total_questions).to.equal(1);
    expect(c.err.join('')).to.include('bad.docx: DOCX_NOT_ZIP');
    expect(c.err.join('')).to.include('notes.txt: DOCX_UNSUPPORTED');
    expect(c.err.join('')).to.include('missing.docx: DOCX_READ_FAILED');
  });

  it('fails a document without a question with DOCX_NO_QUESTIONS_FOUND and what was seen, exit 1, no JSON', async () => {
    const c = capture();
    const out = join(dir, 'out-empty');
    const code = await runDocxParse(['--out', out, join(dir, 'notice.docx'), join(dir, 'exam.docx')], c.io);
    expect(code).to.equal(1);
    expect(c.err.join('')).to.equal(
      `${join(dir, 'notice.docx')}: DOCX_NO_QUESTIONS_FOUND: no question found in 3 paragraphs and 0 tables; ` +
        'the first lines: "Thông báo họp phụ huynh", "Thời gian: thứ Bảy"\n',
    );
    expect((await readdir(out)).sort()).to.deep.equal(['exam.json']);
  });

  it('exits 2 with usage on bad arguments', async () => {
    const c = capture();
    expect(await runDocxParse([], c.io)).to.equal(2);
    expect(await runDocxParse(['--out'], c.io)).to.equal(2);
    expect(await runDocxParse(['--bogus', 'x.docx'], c.io)).to.equal(2);
    expect(c.err.join('')).to.include('usage: docx-parse');
  });
});
