// Document import through the gateway: a large DOCX upload streams through intact, an upload the
// service refuses early is answered while the client is still sending, and the jobs event stream
// stays open with its heartbeats. Real auth, document-import (with Kafka and its worker) services.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { unzipSync, zipSync } from 'fflate';
import { authService } from '../../auth/src/service.js';
import { simpleDocx } from '../../document-import/test/api/support.js';
import { startStack, type Stack } from '../../document-import/test/api/stack.js';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import { INTERNAL, SECRET, email, startTestGateway, until, type TestGateway } from './support.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The simple two-question DOCX plus `mb` MB of incompressible media stored as is. */
async function bigDocx(mb: number): Promise<Buffer> {
  const files = unzipSync(await simpleDocx());
  files['word/media/filler.bin'] = new Uint8Array(randomBytes(mb * 1024 * 1024));
  return Buffer.from(zipSync(files, { level: 0 }));
}

describe('gateway: document import through /api/exam-import (upload, status, events)', function () {
  this.timeout(120000);
  let auth: TestService<unknown, unknown> | undefined;
  let stack: Stack | undefined;
  let gw: TestGateway | undefined;
  let token = '';

  before(async () => {
    auth = (await startTestService(authService, {
      file: import.meta.url,
      env: { AUTH_JWT_SECRET: SECRET, AUTH_BCRYPT_COST: '4', AUTH_TOKEN_BCRYPT_COST: '4' },
    })) as TestService<unknown, unknown>;
    stack = await startStack(import.meta.url, { INTERNAL_API_TOKEN: INTERNAL });
    gw = await startTestGateway({ GATEWAY_AUTH_URL: auth.url, GATEWAY_DOCUMENT_IMPORT_URL: stack.svc.url });
    const body = { email: email('teacher'), password: 'Mật-khẩu-2026', fullName: 'Cô Giáo', role: 'TEACHER' };
    token = ((await gw.request.post('/api/auth/register').send(body).expect(201)).body.data as { accessToken: string })
      .accessToken;
  });
  after(async () => {
    await gw?.close();
    await stack?.close();
    await auth?.close();
  });

  const bearer = () => ({ Authorization: `Bearer ${token}` });

  it('a 40 MB DOCX uploads through the gateway byte for byte, and its job completes', async () => {
    const docx = await bigDocx(40);
    const res = await gw!.request
      .post('/api/exam-import/teacher-library')
      .set(bearer())
      .attach('file', docx, 'de-thi.docx');
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const id = res.body.data.id as string;
    let last = '';
    await until(
      `job ${id} completes`,
      async () => {
        const s = await gw!.request.get(`/api/imports/${id}/status`).set(bearer());
        last = String(s.body.data?.status);
        if (last === 'FAILED') throw new Error(JSON.stringify(s.body));
        return last === 'COMPLETED';
      },
      60_000,
    );
    const detail = await gw!.request.get(`/api/exam-import/jobs/${id}`).set(bearer()).expect(200);
    // What the service spooled and hashed is what the client sent.
    expect(detail.body.data.packagingJson.source).to.deep.include({ sha256: sha(docx), sizeBytes: docx.length });
    expect(detail.body.data.parseResultJson.questions).to.have.length(2);
    const library = await gw!.request.get('/api/exam-import/teacher-library').set(bearer()).expect(200);
    expect(JSON.stringify(library.body.data)).to.contain(id);
  });

  it('the service refusal of a bad file name arrives while the client is still sending (no buffering)', async () => {
    const boundary = 'gwb0undary';
    const req = http.request(`${gw!.url}/api/exam-import/teacher-library`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...bearer() },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="de-thi.txt"\r\n\r\n`);
    req.write(Buffer.alloc(64 * 1024, 1));
    // The body is never ended: only a streaming proxy lets the service answer now.
    const { status, body } = await answer;
    req.destroy();
    expect(status).to.equal(415);
    expect(JSON.parse(body).error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
  });

  it('the jobs event stream passes through: headers at once, heartbeats keep coming, job events arrive', async () => {
    const chunks: string[] = [];
    let status = 0;
    let type = '';
    const req = http.get(`${gw!.url}/api/exam-import/algorithm-jobs/events`, { headers: bearer() }, (res) => {
      status = res.statusCode ?? 0;
      type = String(res.headers['content-type']);
      res.setEncoding('utf8');
      res.on('data', (c: string) => chunks.push(c));
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    try {
      const heartbeats = () => chunks.join('').split(': heartbeat').length - 1;
      await until('three heartbeats through the gateway', () => heartbeats() >= 3);
      expect(status).to.equal(200);
      expect(type).to.contain('text/event-stream');
      const before = heartbeats();
      const up = await gw!.request
        .post('/api/exam-import/teacher-library')
        .set(bearer())
        .attach('file', await simpleDocx(), 'hai-cau.docx')
        .expect(202);
      const id = up.body.data.id as string;
      await until('a live event for the new job', () => chunks.join('').includes(id));
      await until('heartbeats go on after it', () => heartbeats() > before + 1);
    } finally {
      req.destroy();
    }
  });

  it('a STUDENT token is refused the import routes before anything is forwarded', async () => {
    const body = { email: email('student'), password: 'Mật-khẩu-2026', fullName: 'Học Sinh' };
    const student = (
      (await gw!.request.post('/api/auth/register').send(body).expect(201)).body.data as { accessToken: string }
    ).accessToken;
    const res = await gw!.request
      .get('/api/exam-import/teacher-library')
      .set('Authorization', `Bearer ${student}`)
      .expect(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });
});
