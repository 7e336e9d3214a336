// The external formula parser is outside the platform; a small real HTTP server stands in for it here
// (it records what it received and answers a payload the test chooses).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { after, before, describe, it } from 'mocha';
import {
  ANNOTATED_FALLBACK,
  ExternalParserClient,
  PARSER_FAILED_NATIVE_USED,
  PARSER_NOT_CONNECTED,
  STYLE_HINT_EVIDENCE,
  parseWithEngines,
} from '../../src/integrations/index.js';
import { DocxError } from '../../src/parser/index.js';
import { makeDocx } from '../parser/support/build-docx.js';

interface Received {
  url: string;
  fileName?: string;
  bytes?: Buffer;
}

function readMultipart(req: IncomingMessage): Promise<{ fileName?: string; bytes?: Buffer }> {
  return new Promise((resolve, reject) => {
    const bb = busboy({ headers: req.headers });
    const out: { fileName?: string; bytes?: Buffer } = {};
    bb.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      out.fileName = info.filename;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (out.bytes = Buffer.concat(chunks)));
    });
    bb.on('close', () => resolve(out));
    bb.on('error', reject);
    req.pipe(bb);
  });
}

function fakeParser(answer: () => { status: number; body: unknown }, received: Received[]): Promise<Server> {
  const server = createServer((req, res) => {
    void readMultipart(req).then((part) => {
      received.push({ url: req.url ?? '', ...part });
      const { status, body } = answer();
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

describe('parser client and the combination of parsers', () => {
  let docx: Uint8Array;
  let notice: Uint8Array;
  let server: Server;
  let reply: { status: number; body: unknown };
  const received: Received[] = [];

  before(async () => {
    docx = await makeDocx([
      'Câu 1. Một cộng một?',
      'A. 1',
      '[[r:B. 2]]',
      'C. 3',
      'D. 4',
      'Câu 2. Hai nhân hai?',
      'A. 4',
      'B. 5',
    ]);
    notice = await makeDocx(['Thông báo họp phụ huynh', 'Thời gian: thứ Bảy']);
    server = await fakeParser(() => reply, received);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('without a parser URL: the native result plus PARSER_ENGINE_NOT_CONNECTED', async () => {
    const out = await parseWithEngines({ bytes: docx, fileName: 'de.docx' });
    assert.equal(out.questions.length, 2);
    assert.equal(out.questions[0]!.correct_answer, 'B');
    assert.ok(out.warnings.some((w) => w.code === PARSER_NOT_CONNECTED));
  });

  it('streams the file to /v1/import/docx/simple with the three flags and takes its questions and style hints', async () => {
    reply = {
      status: 200,
      body: {
        questions: [
          {
            content: 'Một cộng một?',
            html: '<p>Một cộng một?</p>',
            options: ['1', '2', '3', '4'],
            style_answer_hint: 'B',
          },
          { content: 'Hai nhân hai?', options: ['4', '5'] },
        ],
        stats: { total_images: 0 },
      },
    };
    const parser = new ExternalParserClient({ baseUrl: `${urlOf(server)}/` });
    const out = await parseWithEngines({ bytes: docx, fileName: 'de.docx', parser });
    const last = received[received.length - 1]!;
    const url = new URL(last.url, 'http://x');
    assert.equal(url.pathname, '/v1/import/docx/simple');
    assert.equal(url.searchParams.get('include_html'), '1');
    assert.equal(url.searchParams.get('include_meta'), '1');
    assert.equal(url.searchParams.get('include_solution'), '1');
    assert.equal(last.fileName, 'de.docx');
    assert.ok(last.bytes && Buffer.compare(last.bytes, Buffer.from(docx)) === 0, 'the parser got the file bytes');
    assert.equal(out.questions[0]!.html, '<p>Một cộng một?</p>');
    assert.equal(out.questions[0]!.correct_answer, 'B');
    assert.equal((out.questions[0]!.source_location as Record<string, unknown>).answer_evidence, STYLE_HINT_EVIDENCE);
    assert.equal(out.questions[1]!.correct_answer, null, 'no answer in the document nor the payload');
    assert.ok(!out.warnings.some((w) => w.code === PARSER_NOT_CONNECTED));
    assert.equal(out.stats.total_questions, 2);
  });

  it('fills an unanswered external question from the native pass when both found the same questions', async () => {
    reply = {
      status: 200,
      body: {
        questions: [
          { content: 'Một cộng một?', options: ['1', '2', '3', '4'] },
          { content: 'Hai nhân hai?', options: ['4', '5'] },
        ],
      },
    };
    const out = await parseWithEngines({
      bytes: docx,
      fileName: 'de.docx',
      parser: new ExternalParserClient({ baseUrl: urlOf(server) }),
    });
    assert.equal(out.questions[0]!.correct_answer, 'B');
    assert.equal((out.questions[0]!.source_location as Record<string, unknown>).answer_evidence, 'DOCX_STYLE_HINT');
  });

  it('zero questions with annotated segments: warning-safe questions and FORMULA_DOCX_ANNOTATED_FALLBACK', async () => {
    reply = {
      status: 200,
      body: { questions: [], annotated_segments: [{ text: 'Câu 1. Ba trừ một?' }, { text: 'A. 2' }, { text: 'B. 1' }] },
    };
    const out = await parseWithEngines({
      bytes: docx,
      fileName: 'de.docx',
      parser: new ExternalParserClient({ baseUrl: urlOf(server) }),
    });
    assert.equal(out.questions.length, 1);
    assert.equal(out.questions[0]!.content, 'Ba trừ một?');
    assert.equal(out.questions[0]!.review_reason, 'ANNOTATED_FALLBACK');
    assert.ok(out.warnings.some((w) => w.code === ANNOTATED_FALLBACK));
  });

  it('a failing or unreachable parser leaves the native result with FORMULA_PARSER_FAILED_NATIVE_USED', async () => {
    reply = { status: 500, body: { message: 'boom', error: { code: 'INTERNAL' } } };
    const failed = await parseWithEngines({
      bytes: docx,
      fileName: 'de.docx',
      parser: new ExternalParserClient({ baseUrl: urlOf(server) }),
    });
    assert.equal(failed.questions.length, 2);
    const warning = failed.warnings.find((w) => w.code === PARSER_FAILED_NATIVE_USED);
    assert.match(warning?.message ?? '', /500/);

    const closed = await fakeParser(() => reply, []);
    const deadUrl = urlOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await parseWithEngines({
      bytes: docx,
      fileName: 'de.docx',
      parser: new ExternalParserClient({ baseUrl: deadUrl }),
    });
    assert.equal(down.questions.length, 2);
    assert.match(down.warnings.find((w) => w.code === PARSER_FAILED_NATIVE_USED)?.message ?? '', /unreachable/);
  });

  it('the client reports an upstream error with its status and no request details', async () => {
    reply = { status: 422, body: { message: 'bad docx', error: { code: 'UNPROCESSABLE' } } };
    const client = new ExternalParserClient({ baseUrl: urlOf(server), internalToken: 'secret-token-123456' });
    await assert.rejects(
      client.parse(new Blob([docx]), 'de.docx'),
      (err: Error & { code?: string; details?: unknown }) => {
        assert.equal(err.code, 'UPSTREAM_ERROR');
        assert.deepEqual(err.details, {
          service: 'formula parser',
          upstreamStatus: 422,
          upstreamCode: 'UNPROCESSABLE',
          upstreamMessage: 'bad docx',
        });
        assert.ok(!JSON.stringify(err.details).includes('secret-token'));
        return true;
      },
    );
  });

  describe('a document in which the native parser finds no question', () => {
    const noQuestions = (err: unknown) => {
      assert.ok(err instanceof DocxError);
      assert.equal(err.code, 'DOCX_NO_QUESTIONS_FOUND');
      assert.deepEqual(err.details, {
        paragraphs: 2,
        tables: 0,
        firstLines: ['Thông báo họp phụ huynh', 'Thời gian: thứ Bảy'],
      });
      return true;
    };
    const parser = () => new ExternalParserClient({ baseUrl: urlOf(server) });

    it('without a parser URL: throws DOCX_NO_QUESTIONS_FOUND with what was seen', async () => {
      await assert.rejects(parseWithEngines({ bytes: notice, fileName: 'tb.docx' }), noQuestions);
    });

    it('with a parser that finds none either, or fails: throws the native DOCX_NO_QUESTIONS_FOUND', async () => {
      reply = { status: 200, body: { questions: [] } };
      await assert.rejects(parseWithEngines({ bytes: notice, fileName: 'tb.docx', parser: parser() }), noQuestions);
      reply = { status: 500, body: { message: 'boom' } };
      await assert.rejects(parseWithEngines({ bytes: notice, fileName: 'tb.docx', parser: parser() }), noQuestions);
    });

    it('with a parser that finds questions: the external result (the native pass only failed to read it)', async () => {
      reply = { status: 200, body: { questions: [{ content: 'Ba trừ một?', options: ['2', '1'] }] } };
      const out = await parseWithEngines({ bytes: notice, fileName: 'tb.docx', documentId: 'd-1', parser: parser() });
      assert.equal(out.document_id, 'd-1');
      assert.equal(out.questions.length, 1);
      assert.equal(out.stats.total_questions, 1);
      assert.ok(!out.warnings.some((w) => w.code === PARSER_FAILED_NATIVE_USED));
    });
  });
});
