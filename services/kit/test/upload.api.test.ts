import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import Joi from 'joi';
import request from 'supertest';
import { createLogger, createMetricsRegistry } from '../src/core/index.js';
import { UPLOAD_TEMP_PREFIX, createApp, ok, upload, validate } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

const MAX = 1024;

async function tempFiles(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith(UPLOAD_TEMP_PREFIX));
}

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SPOOL_SLOTS = 2;

function buildApp(spoolDir?: string) {
  const routes = Router();
  if (spoolDir) {
    // One middleware shared by two routes: the cap is theirs together.
    const spooled = upload({ field: 'file', maxBytes: MAX, spoolDir, maxConcurrent: SPOOL_SLOTS });
    const answer = (req: Request, res: Response) => ok(res, { file: req.file }, 'OK', 201);
    routes.post('/v1/spooled', spooled, answer);
    routes.post('/v1/spooled-too', spooled, answer);
  }
  const seen: { contentOnDisk?: string }[] = [];
  routes.post(
    '/v1/uploads',
    upload({ field: 'file', maxBytes: MAX, allowedExtensions: ['.docx'] }),
    validate({ body: Joi.object({ title: Joi.string().max(100) }) }),
    async (req, res) => {
      const file = req.file!;
      const onDisk = await readFile(file.path);
      seen.push({ contentOnDisk: createHash('sha256').update(onDisk).digest('hex') });
      ok(res, { file, body: req.valid?.body }, 'OK', 201);
    },
  );
  routes.post('/v1/json', validate({ body: Joi.object({ n: Joi.number() }) }), (_req, res) => ok(res, {}));
  const app = createApp({
    name: 'kit-upload-test',
    version: '0.0.0',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-upload-test', destination: new LogCapture() }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });
  return { app, seen };
}

function multipartHead(boundary: string, filename = 'de-thi.docx'): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n'
  );
}

/** A raw request whose body the test writes piece by piece (chunked), to stop or abort mid-way. */
function rawUpload(port: number, boundary: string, headers: Record<string, string> = {}, path = '/v1/uploads') {
  const req = http.request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...headers },
  });
  const response = new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
    },
  );
  return { req, response };
}

describe('kit upload() (multipart, real HTTP)', () => {
  const { app, seen } = buildApp();
  let server: http.Server;
  let port: number;
  let baseline: Set<string>;

  before(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(async () => {
    baseline = new Set(await tempFiles());
  });
  afterEach(async () => {
    await until('no temp upload file left behind', async () => (await tempFiles()).every((n) => baseline.has(n)));
  });

  it('streams exactly maxBytes to a temp file, hashes it, passes text fields, removes it after the response', async () => {
    const bytes = Buffer.alloc(MAX, 7);
    const res = await request(server)
      .post('/v1/uploads')
      .field('title', 'Đề thi thử THPT')
      .attach('file', bytes, { filename: 'Đề thi.docx', contentType: 'application/vnd.openxmlformats' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { file, body } = res.body.data;
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(file).to.include({ originalName: 'Đề thi.docx', size: MAX, sha256: sha });
    expect(file.mimeType).to.equal('application/vnd.openxmlformats');
    expect(file.path.startsWith(`${tmpdir()}/${UPLOAD_TEMP_PREFIX}`)).to.equal(true);
    expect(seen.at(-1)?.contentOnDisk).to.equal(sha);
    expect(body).to.deep.equal({ title: 'Đề thi thử THPT' });
    await until('the temp file is removed', async () => !(await tempFiles()).includes(file.path.split('/').pop()));
  });

  it('413 PAYLOAD_TOO_LARGE at maxBytes + 1', async () => {
    const res = await request(server)
      .post('/v1/uploads')
      .attach('file', Buffer.alloc(MAX + 1, 1), { filename: 'a.docx' });
    expect([res.status, res.body.error.code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
    expect(res.body.error.details).to.deep.equal({ maxBytes: MAX });
  });

  it('413 as soon as the limit is passed, while the client is still sending', async () => {
    const boundary = 'b0undary';
    const { req, response } = rawUpload(port, boundary);
    req.write(multipartHead(boundary));
    req.write(Buffer.alloc(MAX + 10, 2));
    // The request is never ended: the answer must not wait for the rest of the body.
    const res = await response;
    expect(res.status).to.equal(413);
    expect(res.headers.connection).to.equal('close');
    req.destroy();
  });

  it('413 before reading when the declared length cannot fit', async () => {
    const boundary = 'b1';
    const { req, response } = rawUpload(port, boundary, { 'Content-Length': String(50 * 1024 * 1024) });
    req.write(multipartHead(boundary));
    const res = await response;
    expect(res.status).to.equal(413);
    req.destroy();
  });

  it('400 when the file field is missing, another file field is used, or a second file arrives', async () => {
    const none = await request(server).post('/v1/uploads').field('title', 'x');
    expect([none.status, none.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    expect(none.body.message).to.equal('File field file is required');
    const other = await request(server).post('/v1/uploads').attach('doc', Buffer.from('x'), { filename: 'a.docx' });
    expect([other.status, other.body.message]).to.deep.equal([400, 'Unexpected file field doc']);
    const two = await request(server)
      .post('/v1/uploads')
      .attach('file', Buffer.from('one'), { filename: 'a.docx' })
      .attach('file', Buffer.from('two'), { filename: 'b.docx' });
    expect([two.status, two.body.message]).to.deep.equal([400, 'Only one file may be uploaded']);
  });

  it('400 for a malformed multipart body, never 500', async () => {
    const res = await request(server)
      .post('/v1/uploads')
      .set('Content-Type', 'multipart/form-data; boundary=zzz')
      .send('--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.docx"\r\n\r\nabc');
    expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    const noBoundary = await request(server).post('/v1/uploads').set('Content-Type', 'multipart/form-data').send('x');
    expect(noBoundary.status).to.equal(400);
  });

  it('415 for a body that is not multipart, and for an extension not allowed', async () => {
    const json = await request(server).post('/v1/uploads').send({ title: 'x' });
    expect([json.status, json.body.error.code]).to.deep.equal([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const pdf = await request(server).post('/v1/uploads').attach('file', Buffer.from('%PDF'), { filename: 'a.pdf' });
    expect([pdf.status, pdf.body.message]).to.deep.equal([415, 'File must have one of the extensions: .docx']);
  });

  it('a JSON route still refuses a multipart body with 415', async () => {
    const res = await request(server).post('/v1/json').field('n', '1');
    expect([res.status, res.body.error.code, res.body.message]).to.deep.equal([
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Request body must be application/json',
    ]);
  });

  it('a client that aborts mid-upload leaves no temp file', async () => {
    const boundary = 'b2';
    const { req, response } = rawUpload(port, boundary);
    response.catch(() => undefined);
    req.write(multipartHead(boundary));
    req.write(Buffer.alloc(100, 3));
    await until('the temp file exists', async () => (await tempFiles()).some((n) => !baseline.has(n)));
    req.destroy();
    await until('the temp file is removed', async () => (await tempFiles()).every((n) => baseline.has(n)));
  });
});

describe('kit upload() spool directory and concurrency cap (real HTTP)', () => {
  let spoolDir: string;
  let server: http.Server;
  let port: number;
  const spooled = async () => (await readdir(spoolDir)).filter((n) => n.startsWith(UPLOAD_TEMP_PREFIX));
  const open: http.ClientRequest[] = [];

  /**
   * An upload that has spooled its first bytes and stays open. The slot of an upload that just
   * ended is freed just after its client has the answer: refused with 503 meanwhile, it tries again.
   */
  async function holdSlot(path = '/v1/spooled'): Promise<http.ClientRequest> {
    for (;;) {
      const before = (await spooled()).length;
      const { req, response } = rawUpload(port, 'bHold', {}, path);
      let refused = false;
      response.then(
        (r) => (refused = r.status === 503),
        () => undefined,
      );
      req.write(multipartHead('bHold'));
      req.write(Buffer.alloc(10, 1));
      await until('the upload is spooled or refused', async () => refused || (await spooled()).length > before);
      if (!refused) {
        open.push(req);
        return req;
      }
      req.destroy();
    }
  }

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'kit-spool-'));
    server = buildApp(spoolDir).app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    open.splice(0).forEach((req) => req.destroy());
    await until('the spool is empty', async () => (await spooled()).length === 0);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await rm(spoolDir, { recursive: true, force: true });
  });

  it('spools into the configured directory and removes the file after the response', async () => {
    const res = await request(server).post('/v1/spooled').attach('file', Buffer.alloc(10, 1), { filename: 'a.docx' });
    expect(res.status).to.equal(201);
    expect(res.body.data.file.path.startsWith(join(spoolDir, UPLOAD_TEMP_PREFIX))).to.equal(true);
  });

  it('503 UPLOADS_BUSY with Retry-After past maxConcurrent (routes sharing the middleware share the cap), then serves again', async () => {
    await holdSlot('/v1/spooled');
    const second = await holdSlot('/v1/spooled-too');
    for (const path of ['/v1/spooled', '/v1/spooled-too']) {
      const res = await request(server).post(path).attach('file', Buffer.alloc(10, 1), { filename: 'a.docx' });
      expect([res.status, res.body.error.code], JSON.stringify(res.body)).to.deep.equal([503, 'UPLOADS_BUSY']);
      expect(res.headers['retry-after']).to.equal('2');
      expect(res.body.error.details).to.deep.equal({ maxConcurrent: SPOOL_SLOTS });
    }
    expect(await spooled()).to.have.length(SPOOL_SLOTS);
    second.destroy();
    await until('the aborted upload is removed', async () => (await spooled()).length === 1);
    await until('a slot is free again', async () => {
      const res = await request(server).post('/v1/spooled').attach('file', Buffer.alloc(5), { filename: 'b.docx' });
      return res.status === 201;
    });
  });

  it('leaves no file in the spool on any error path: abort, 413 mid-stream, malformed body, second file', async () => {
    const aborted = await holdSlot();
    aborted.destroy();
    await until('the aborted upload is removed', async () => (await spooled()).length === 0);
    const { req, response } = rawUpload(port, 'bBig', {}, '/v1/spooled');
    req.write(multipartHead('bBig'));
    req.write(Buffer.alloc(MAX + 10, 2));
    expect((await response).status).to.equal(413);
    req.destroy();
    const malformed = await request(server)
      .post('/v1/spooled')
      .set('Content-Type', 'multipart/form-data; boundary=zzz')
      .send('--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.docx"\r\n\r\nabc');
    expect(malformed.status).to.equal(400);
    const two = await request(server)
      .post('/v1/spooled')
      .attach('file', Buffer.from('one'), { filename: 'a.docx' })
      .attach('file', Buffer.from('two'), { filename: 'b.docx' });
    expect(two.status).to.equal(400);
    await until('the spool is empty', async () => (await spooled()).length === 0);
    // Every slot came back: the cap still admits SPOOL_SLOTS uploads at once.
    for (let i = 0; i < SPOOL_SLOTS; i++) await holdSlot();
  });
});
