import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { UPLOAD_TEMP_PREFIX } from '../../../kit/src/http/index.js';
import { startTestService, type TestService } from '../../../kit/test/support/harness.js';
import { documentImportService } from '../../src/service.js';
import {
  entityExpansion,
  headers,
  NOTICE_SEEN,
  noticeDocx,
  notAWordPackage,
  rawUpload,
  sendUpload,
  simpleDocx,
  sseEvents,
  teacher,
  until,
  zipBomb,
} from './support.js';

type Svc = TestService<
  Record<string, unknown> & { PORT: number },
  Awaited<ReturnType<typeof documentImportService.build>>
>;

const tempFiles = async () => (await readdir(tmpdir())).filter((n) => n.startsWith(UPLOAD_TEMP_PREFIX));

describe('document-import: synchronous QAS routes', () => {
  let svc: Svc;
  let docx: Buffer;
  let baseline: Set<string>;
  before(async () => {
    svc = (await startTestService(documentImportService, { file: import.meta.url })) as unknown as Svc;
    docx = await simpleDocx();
  });
  after(() => svc.close());
  beforeEach(async () => {
    baseline = new Set(await tempFiles());
  });
  afterEach(async () => {
    await until('no upload temp file left', async () => (await tempFiles()).every((n) => baseline.has(n)));
  });

  const post = (path: string, file: Buffer, name = 'de-thi.docx', who = teacher()) =>
    svc.request.post(path).set(headers(who)).attach('file', file, { filename: name });

  describe('POST /v1/import/docx/qas', () => {
    it('parses an uploaded DOCX into the QAS output with latency_ms', async () => {
      const res = await post('/v1/import/docx/qas', docx);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const out = res.body.data;
      expect(out.document_id).to.match(/^docx-[0-9a-f]{24}$/);
      expect(out.latency_ms).to.be.a('number').and.at.least(0);
      expect(out.questions.map((q: { correct_answer: unknown }) => q.correct_answer)).to.deep.equal(['B', 'B']);
      expect(out.stats.total_questions).to.equal(2);
      expect(out.warnings.map((w: { code: string }) => w.code)).to.include('PARSER_ENGINE_NOT_CONNECTED');
    });

    it('refuses a file whose name does not end in .docx with 415 before reading it', async () => {
      const res = await post('/v1/import/docx/qas', docx, 'de-thi.pdf');
      expect([res.status, res.body.error.code]).to.deep.equal([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });

    it('refuses a .docx without the ZIP magic header with 415 DOCX_INVALID_FILE', async () => {
      const res = await post('/v1/import/docx/qas', Buffer.from('%PDF-1.7 this is not a zip'));
      expect([res.status, res.body.error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
    });

    it('refuses a zip bomb with 413 DOCX_COMPRESSION_RATIO', async () => {
      const res = await post('/v1/import/docx/qas', zipBomb());
      expect([res.status, res.body.error.code]).to.deep.equal([413, 'DOCX_COMPRESSION_RATIO']);
    });

    it('refuses entity expansion (a DOCTYPE) with 400 DOCX_XML_DOCTYPE', async () => {
      const res = await post('/v1/import/docx/qas', entityExpansion());
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'DOCX_XML_DOCTYPE']);
    });

    it('refuses a ZIP that is not a Word package with 400 DOCX_MISSING_DOCUMENT', async () => {
      const res = await post('/v1/import/docx/qas', notAWordPackage());
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'DOCX_MISSING_DOCUMENT']);
    });

    it('refuses a truncated archive with 400 DOCX_CORRUPT', async () => {
      const res = await post('/v1/import/docx/qas', docx.subarray(0, Math.floor(docx.length / 2)));
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'DOCX_CORRUPT']);
    });

    it('answers 422 DOCX_NO_QUESTIONS_FOUND with what was seen for a valid DOCX without a question', async () => {
      const res = await post('/v1/import/docx/qas', await noticeDocx());
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body).to.deep.equal({
        success: false,
        message:
          'no question found in 2 paragraphs and 1 table; the first lines: "Thông báo họp phụ huynh", ' +
          '"Thời gian: sáng thứ Bảy.", "Địa điểm | Phòng 204"',
        error: { code: 'DOCX_NO_QUESTIONS_FOUND', details: { code: 'DOCX_NO_QUESTIONS_FOUND', ...NOTICE_SEEN } },
      });
    });

    it('413 PAYLOAD_TOO_LARGE past 50 MB while the client is still sending', async () => {
      const { req, response } = rawUpload(svc.url, '/v1/import/docx/qas', teacher());
      const chunk = Buffer.alloc(1024 * 1024, 0x50);
      for (let i = 0; i < 50; i++) req.write(chunk);
      req.write(Buffer.alloc(1, 1));
      // The body is never ended: the answer must come at byte 50 MB + 1, not after buffering the rest.
      const res = await response;
      expect(res.status).to.equal(413);
      expect(JSON.parse(res.body).error.code).to.equal('PAYLOAD_TOO_LARGE');
      req.destroy();
    });

    it('400 when the file field is missing, 415 when the body is not multipart', async () => {
      const missing = await svc.request.post('/v1/import/docx/qas').set(headers(teacher())).field('title', 'x');
      expect([missing.status, missing.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      const json = await svc.request.post('/v1/import/docx/qas').set(headers(teacher())).send({ file: 'x' });
      expect([json.status, json.body.error.code]).to.deep.equal([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });

    it('401 without X-User-Id and 400 without X-Organization-Id, before the upload is read', async () => {
      const anon = await post('/v1/import/docx/qas', docx, 'a.docx', { organizationId: 'org-a', role: 'TEACHER' });
      expect([anon.status, anon.body.error.code]).to.deep.equal([401, 'UNAUTHENTICATED']);
      const noOrg = await post('/v1/import/docx/qas', docx, 'a.docx', { userId: 't1', role: 'TEACHER' });
      expect([noOrg.status, noOrg.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    });

    it('405 with Allow for another method', async () => {
      const res = await svc.request.get('/v1/import/docx/qas').set(headers(teacher()));
      expect(res.status).to.equal(405);
      expect(res.headers.allow).to.include('POST');
    });
  });

  describe('POST /v1/import/docx/qas/stream', () => {
    // The event stream as one text body.
    const streamPost = (file: Buffer) =>
      post('/v1/import/docx/qas/stream', file)
        .buffer(true)
        .parse((r, cb) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (text += c));
          r.on('end', () => cb(null, text));
        });

    it('streams progress, one event per question, then the result', async () => {
      const res = await streamPost(docx);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/event-stream/);
      const events = sseEvents(res.body as string);
      expect(events.map((e) => e.event)).to.deep.equal([
        'progress',
        'progress',
        'progress',
        'question',
        'question',
        'result',
      ]);
      expect(events[0]!.data).to.deep.include({ stage: 'received', fileName: 'de-thi.docx', bytes: docx.length });
      expect(events[3]!.data).to.deep.include({ index: 0, total: 2 });
      const result = events[5]!.data as { questions: unknown[]; latency_ms: number };
      expect(result.questions).to.have.length(2);
      expect(result.latency_ms).to.be.a('number');
    });

    it('ends with one error event DOCX_NO_QUESTIONS_FOUND (422) for a DOCX without a question, no result', async () => {
      const res = await streamPost(await noticeDocx());
      expect(res.status).to.equal(200);
      const events = sseEvents(res.body as string);
      expect(events.map((e) => e.event)).to.deep.equal(['progress', 'progress', 'error']);
      expect(events[2]!.data).to.deep.include({
        code: 'DOCX_NO_QUESTIONS_FOUND',
        status: 422,
        details: { code: 'DOCX_NO_QUESTIONS_FOUND', ...NOTICE_SEEN },
      });
      expect((events[2]!.data as { message: string }).message).to.match(/^no question found in 2 paragraphs/);
    });

    it('refuses bad magic and a package without a document with a JSON 4xx before the stream opens', async () => {
      const magic = await post('/v1/import/docx/qas/stream', Buffer.from('not a zip at all'));
      expect([magic.status, magic.body.error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
      const missing = await post('/v1/import/docx/qas/stream', notAWordPackage());
      expect([missing.status, missing.body.error.code]).to.deep.equal([400, 'DOCX_MISSING_DOCUMENT']);
    });

    it('refuses a zip bomb and entity expansion with a JSON 4xx before the stream opens', async () => {
      const bomb = await post('/v1/import/docx/qas/stream', zipBomb());
      expect([bomb.status, bomb.body.error.code]).to.deep.equal([413, 'DOCX_COMPRESSION_RATIO']);
      const entities = await post('/v1/import/docx/qas/stream', entityExpansion());
      expect([entities.status, entities.body.error.code]).to.deep.equal([400, 'DOCX_XML_DOCTYPE']);
    });
  });

  describe('refusals reach a client that is still sending', () => {
    // 8 MB, under the 50 MB limit: more than loopback socket buffers take, so a connection closed
    // under the sender is EPIPE there (800 KB fit in the buffers and hid the fault).
    const big = Buffer.alloc(8 * 1024 * 1024, 0x41);
    const UPLOAD_PATHS = ['/v1/import/docx/qas', '/v1/import/docx/qas/stream', '/v1/import/docx/qas/jobs'];

    it('on a keep-alive connection the 415 comes before the body is sent, the body is read behind it, and the connection serves the next request', async () => {
      // A raw socket: Node's own client stops writing once an early answer has come.
      const socket = net.connect(Number(new URL(svc.url).port), '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.setEncoding('latin1').on('data', (c: string) => (received += c));
      const until = async (what: RegExp) => {
        while (!what.test(received)) await new Promise((r) => setTimeout(r, 20)); // bounded by mocha's timeout
      };
      try {
        const head = `--b0\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\n`;
        const tail = '\r\n--b0--\r\n';
        const fields = Object.entries(headers(teacher())).map(([k, v]) => `${k}: ${v}\r\n`);
        socket.write(
          `POST /v1/import/docx/qas HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=b0\r\n` +
            `Content-Length: ${head.length + big.length + tail.length}\r\n${fields.join('')}\r\n${head}`,
        );
        const first = 64 * 1024;
        socket.write(big.subarray(0, first));
        await until(/UNSUPPORTED_MEDIA_TYPE/);
        expect(received).to.match(/^HTTP\/1\.1 415 /);
        expect(received).to.not.match(/^connection: close/im);
        for (let at = first; at < big.length; at += 64 * 1024) {
          if (!socket.write(big.subarray(at, at + 64 * 1024))) await once(socket, 'drain');
        }
        received = '';
        socket.write(`${tail}GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n`);
        await until(/^HTTP\/1\.1 200 /);
      } finally {
        socket.destroy();
      }
    });

    for (const path of UPLOAD_PATHS) {
      it(`${path}: a whole non-.docx upload gets 415 with its message, not a closed connection`, async () => {
        const res = await sendUpload(svc.url, path, teacher(), { name: 'notes.txt', bytes: big });
        expect(res.status, res.body).to.equal(415);
        expect(JSON.parse(res.body)).to.deep.include({
          success: false,
          message: 'File must have one of the extensions: .docx',
        });
      });
    }

    it('a whole upload refused for its headers (401) or its form (400) gets the answer too', async () => {
      const anon = await sendUpload(
        svc.url,
        '/v1/import/docx/qas',
        { organizationId: 'org-a' },
        { name: 'a.docx', bytes: big },
      );
      expect([anon.status, JSON.parse(anon.body).error.code]).to.deep.equal([401, 'UNAUTHENTICATED']);
      const badMagic = await sendUpload(svc.url, '/v1/import/docx/qas', teacher(), { name: 'a.docx', bytes: big });
      expect([badMagic.status, JSON.parse(badMagic.body).error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
    });

    it('a declared Content-Length past the limit gets 413 at once, before the body is sent', async () => {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${svc.url}/v1/import/docx/qas`, {
          method: 'POST',
          agent: false,
          headers: {
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': String(60 * 1024 * 1024),
            ...headers(teacher()),
          },
        });
        req.on('response', (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect([res.status, JSON.parse(res.body).error.code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
    });
  });
});
