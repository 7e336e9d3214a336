// The parser sandbox (src/sandbox) on real worker threads: hostile documents are refused with their code, the
// caller's event loop keeps turning while a document is parsed, and a thread ended by a limit is replaced.
import { expect } from 'chai';
import { AppError } from '../../../kit/src/core/index.js';
import { DocxError, parseDocx } from '../../src/parser/index.js';
import { createParserSandbox, type ParserSandbox } from '../../src/sandbox/index.js';
import { longDocx, smallDocx, tooManyElements } from './support.js';

async function refusal(p: Promise<unknown>): Promise<DocxError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the parse was refused').to.be.instanceOf(DocxError);
  return err as DocxError;
}

/** Runs `work` while a chain of setImmediate callbacks counts the turns this event loop makes meanwhile. */
async function turnsDuring(work: () => Promise<unknown> | unknown): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}

describe('parser sandbox', () => {
  const open: ParserSandbox[] = [];
  const sandbox = (options: Parameters<typeof createParserSandbox>[0] = {}) => {
    const s = createParserSandbox(options);
    open.push(s);
    return s;
  };
  after(async () => Promise.all(open.map((s) => s.close())));

  it('parses in a thread exactly as in process, and refuses a corrupt file with the parser code', async () => {
    const s = sandbox();
    const bytes = longDocx(2000);
    const { latency_ms: _a, ...inThread } = await s.parse(bytes, { documentId: 'd1' });
    const { latency_ms: _b, ...inProcess } = parseDocx(bytes, { documentId: 'd1' });
    expect(inThread).to.deep.equal(inProcess);
    expect((await refusal(s.parse(new Uint8Array([1, 2, 3, 4])))).code).to.equal('DOCX_NOT_ZIP');
    expect((await refusal(s.parse(new Uint8Array(0)))).code).to.equal('DOCX_NOT_ZIP');
  });

  it('refuses a file of a million empty paragraphs with DOCX_TOO_COMPLEX, parse and precheck alike', async () => {
    const s = sandbox();
    const bytes = tooManyElements();
    expect(bytes.length, 'the upload is under the 50 MB limit').to.be.below(50 * 1024 * 1024);
    for (const attempt of [s.parse(bytes), s.precheck(bytes)]) {
      const err = await refusal(attempt);
      expect(err.code).to.equal('DOCX_TOO_COMPLEX');
      expect(err.details).to.deep.include({ part: 'word/document.xml', limit: 'paragraphs (w:p)', max: 100_000 });
    }
    await s.precheck(smallDocx());
  });

  it("keeps the caller's event loop turning while a long document is parsed (it stops in process)", async () => {
    const s = sandbox();
    await s.parse(smallDocx()); // the thread is up
    const bytes = longDocx();
    const inThread = await turnsDuring(() => s.parse(bytes));
    const inProcess = await turnsDuring(() => parseDocx(bytes));
    expect(inThread, 'event-loop turns during a sandboxed parse').to.be.above(10);
    expect(inProcess, 'event-loop turns during an in-process parse').to.equal(0);
  });

  it('ends a thread that runs out of memory, refuses its document DOCX_TOO_COMPLEX, and parses the next one', async () => {
    const s = sandbox({ maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 });
    const err = await refusal(s.parse(longDocx(90_000)));
    expect(err.code).to.equal('DOCX_TOO_COMPLEX');
    expect(err.details).to.deep.include({ limit: 'parse memory (MB)', max: 16 });
    expect(s.stats().replaced).to.equal(1);
    const next = await s.parse(smallDocx());
    expect(next.questions.map((q) => q.correct_answer)).to.deep.equal(['B']);
  });

  it('ends a thread past the time limit with DOCX_PARSE_TIMEOUT and serves the next document on a new thread', async () => {
    const s = sandbox({ timeLimitMs: 1 });
    const err = await refusal(s.parse(longDocx()));
    expect(err.code).to.equal('DOCX_PARSE_TIMEOUT');
    expect(err.details).to.deep.include({ limit: 'parse time (ms)', max: 1 });
    expect(s.stats().replaced).to.equal(1);
    // the next document gets a new thread (refused by the same 1 ms limit, or parsed: either way answered)
    const next = await s.precheck(smallDocx()).then(
      () => 'answered',
      (e: unknown) => (e instanceof DocxError ? 'answered' : e),
    );
    expect(next).to.equal('answered');
  });

  it('answers 503 DOCX_PARSER_BUSY with Retry-After when the queue is full, and still parses what it took', async () => {
    const s = sandbox({ threads: 1, maxQueue: 1, retryAfterSeconds: 7 });
    await s.parse(smallDocx()); // the thread is up and idle: the next document runs, the one after waits
    const bytes = longDocx(5000);
    const taken = [s.parse(bytes), s.parse(bytes)];
    const err = await s.parse(bytes).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(AppError);
    expect(err).to.include({ code: 'DOCX_PARSER_BUSY', status: 503 });
    expect((err as AppError).headers).to.deep.equal({ 'Retry-After': '7' });
    for (const out of await Promise.all(taken)) expect(out.questions).to.have.length(1);
  });
});
