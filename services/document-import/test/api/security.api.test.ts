// Issue 20, tried as an attacker would, over HTTP against the running service (real MongoDB and
// Kafka, the worker in-process): actors without an import role, a teacher or admin of another
// organization, a colleague's job, a review text built to stall the event loop, and a spool kept
// full by uploads that never end.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { UPLOAD_TEMP_PREFIX } from '../../../kit/src/http/index.js';
import { headers, rawUpload, simpleDocx, teacher, until, type Who } from './support.js';
import { openStream, startStack, waitForStatus, type Stack } from './stack.js';

const owner = teacher('t1', 'org-a');
const adminA: Who = { userId: 'a1', organizationId: 'org-a', role: 'ADMIN' };
const colleague: Who = { userId: 't2', organizationId: 'org-a', role: 'TEACHER' };
const teacherB: Who = { userId: 't9', organizationId: 'org-b', role: 'TEACHER' };
// The same user id in another organization: ids are not a key across tenants.
const sameIdB: Who = { userId: 't1', organizationId: 'org-b', role: 'TEACHER' };
const adminB: Who = { userId: 'a9', organizationId: 'org-b', role: 'ADMIN' };
const SLOTS = 2;

describe('document-import security (issue 20)', () => {
  let stack: Stack;
  let uploadDir: string;
  let docx: Buffer;
  let qasJob: string;
  let fastJob: string;
  const uploadsSpooled = async () => (await readdir(uploadDir)).filter((n) => n.startsWith(UPLOAD_TEMP_PREFIX));
  const jobCount = () => stack.svc.db.conn.collection('import_jobs').countDocuments({});

  before(async () => {
    uploadDir = await mkdtemp(join(tmpdir(), 'di-upload-spool-'));
    stack = await startStack(import.meta.url, { UPLOAD_SPOOL_DIR: uploadDir, UPLOAD_MAX_CONCURRENT: String(SLOTS) });
    docx = await simpleDocx();
    const up = await stack.svc.request
      .post('/v1/import/docx/qas/jobs')
      .set(headers(owner))
      .attach('file', docx, { filename: 'a.docx' });
    expect(up.status, JSON.stringify(up.body)).to.equal(202);
    qasJob = up.body.data.id;
    const key = `tests/${randomUUID()}/de.docx`;
    const stored = await supertest(stack.peer.url)
      .put('/v1/storage/objects')
      .query({ key })
      .set('Content-Type', 'application/octet-stream')
      .send(docx);
    expect(stored.status).to.equal(200);
    const fast = await stack.svc.request
      .post('/v1/import/docx/docx-fast-jobs')
      .set(headers(owner))
      .send({ questionStorageKey: key, questionFileName: 'de.docx', title: 'Đề', autoApproveToQuestionBank: false });
    expect(fast.status, JSON.stringify(fast.body)).to.equal(202);
    fastJob = fast.body.data.id;
    await waitForStatus(stack.svc, owner, qasJob, 'COMPLETED');
    await waitForStatus(stack.svc, owner, fastJob, 'COMPLETED');
  });
  after(async () => {
    await stack?.close();
    await rm(uploadDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, who: Who) => {
    const req = stack.svc.request[method.toLowerCase() as 'get'](path).set(headers(who));
    if (path.endsWith('/qas') || path.endsWith('/stream') || path.endsWith('/qas/jobs'))
      return req.attach('file', docx, { filename: 'a.docx' });
    if (method === 'PATCH') return req.send({ sourceText: 'Câu 1. x\nA. 1\nB. 2' });
    if (path.endsWith('/approve')) return req.send({ target: 'QUESTION_BANK' });
    if (path.endsWith('/docx-fast-jobs'))
      return req.send({ questionStorageKey: 'k.docx', fileName: 'a.docx', title: 'x' });
    return req;
  };

  const everyRoute = () => [
    ['POST', '/v1/import/docx/qas'],
    ['POST', '/v1/import/docx/qas/stream'],
    ['POST', '/v1/import/docx/qas/jobs'],
    ['POST', '/v1/import/docx/docx-fast-jobs'],
    ['GET', `/v1/import/docx/docx-fast-jobs/${fastJob}/temp-draft`],
    ['GET', `/v1/import/docx/docx-fast-jobs/${fastJob}/temp-draft/assets/x/content`],
    ['POST', `/v1/import/docx/docx-fast-jobs/${fastJob}/reprocess`],
    ['GET', '/v1/import/docx/teacher-library'],
    ['GET', '/v1/import/docx/jobs'],
    ['GET', '/v1/import/docx/jobs/events'],
    ['GET', `/v1/import/docx/jobs/${qasJob}`],
    ['GET', `/v1/import/docx/jobs/${qasJob}/status`],
    ['GET', `/v1/import/docx/jobs/${qasJob}/events`],
    ['PATCH', `/v1/import/docx/jobs/${qasJob}/review`],
    ['POST', `/v1/import/docx/jobs/${qasJob}/approve`],
  ];

  describe('roles', () => {
    it('403 FORBIDDEN on every route for a STUDENT, a PARENT and an actor without a role; nothing stored or spooled', async () => {
      const before = await jobCount();
      for (const role of ['STUDENT', 'PARENT', undefined]) {
        const who: Who = { userId: 's1', organizationId: 'org-a', ...(role ? { role } : {}) };
        for (const [method, path] of everyRoute()) {
          const res = await call(method!, path!, who);
          expect([res.status, res.body.error?.code], `${role} ${method} ${path}`).to.deep.equal([403, 'FORBIDDEN']);
        }
      }
      expect(await jobCount()).to.equal(before);
      expect(await uploadsSpooled()).to.deep.equal([]);
      const detail = await call('GET', `/v1/import/docx/jobs/${qasJob}`, owner);
      expect(detail.body.data.reviewStatus).to.equal('PENDING_REVIEW');
    });

    it('a STUDENT cannot widen its role by case or by an X-Actor-Role beside it (refused either way)', async () => {
      const lower = await call('GET', '/v1/import/docx/jobs', {
        userId: 's1',
        organizationId: 'org-a',
        role: 'student',
      });
      expect(lower.status).to.equal(403);
      const both = await stack.svc.request
        .get('/v1/import/docx/jobs')
        .set({ ...headers({ userId: 's1', organizationId: 'org-a', role: 'STUDENT' }), 'X-Actor-Role': 'ADMIN' });
      expect([400, 403]).to.include(both.status);
    });
  });

  describe('tenancy', () => {
    it('404 IMPORT_JOB_NOT_FOUND for every job route to a teacher or admin of another organization, and a colleague', async () => {
      for (const who of [teacherB, sameIdB, adminB, colleague]) {
        for (const [method, path] of everyRoute().filter(([, p]) => p!.includes(qasJob) || p!.includes(fastJob))) {
          const res = await call(method!, path!, who);
          expect(
            [res.status, res.body.error?.code],
            `${who.userId}@${who.organizationId} ${method} ${path}`,
          ).to.deep.equal([404, 'IMPORT_JOB_NOT_FOUND']);
        }
      }
      const after = await call('GET', `/v1/import/docx/jobs/${qasJob}`, owner);
      expect([after.body.data.status, after.body.data.reviewStatus]).to.deep.equal(['COMPLETED', 'PENDING_REVIEW']);
      expect((await call('GET', `/v1/import/docx/jobs/${qasJob}`, adminA)).status).to.equal(200);
    });

    it('lists, the teacher library and the all-jobs stream of another organization show none of its jobs', async () => {
      for (const who of [teacherB, sameIdB, adminB, colleague]) {
        for (const path of [
          '/v1/import/docx/jobs',
          '/v1/import/docx/teacher-library',
          '/v1/import/docx/jobs?createdBy=t1',
        ]) {
          const res = await call('GET', path, who);
          expect(res.status).to.equal(200);
          expect(res.body.data.items, `${who.userId}@${who.organizationId} ${path}`).to.deep.equal([]);
        }
        const stream = await openStream(stack.svc.url, '/v1/import/docx/jobs/events', who);
        await until('the replay ends', () => stream.events.some((e) => e.event === 'ready'));
        stream.close();
        expect(stream.events.filter((e) => e.event === 'job.snapshot')).to.deep.equal([]);
      }
      const org = await call('GET', '/v1/import/docx/jobs', adminA);
      expect(org.body.data.items.map((j: { id: string }) => j.id)).to.have.members([qasJob, fastJob]);
    });
  });

  describe('review text that used to stall the event loop', function () {
    this.timeout(60_000);
    const hostile = [
      ' '.repeat(1_000_000),
      `Câu 1.${' '.repeat(999_000)}x`,
      `Câu 1. x\n${' '.repeat(999_000)}x`,
      `Câu 1. x\n*${' '.repeat(499_990)}A${' '.repeat(499_990)}x`,
      `Câu 1. x\nĐáp án${' '.repeat(999_000)}\u2028`,
      `Câu 1. x${' '.repeat(999_000)}A.`,
    ];

    it('answers PATCH review with each million-character sourceText, and /healthz while it runs', async () => {
      for (const sourceText of hostile) {
        expect(sourceText.length).to.be.at.most(1_000_000);
        const review = stack.svc.request
          .patch(`/v1/import/docx/jobs/${qasJob}/review`)
          .set(headers(owner))
          .send({ sourceText });
        const health = stack.svc.request.get('/healthz');
        const [r, h] = await Promise.all([review, health]);
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).to.equal(200);
        expect(h.status).to.equal(200);
        expect(r.body.data.parseResultJson.warnings[0].code).to.equal('DOCX_REVIEW_BASELINE_REPARSE');
      }
    });
  });

  describe('upload spool', () => {
    const open: http.ClientRequest[] = [];
    afterEach(async () => {
      open.splice(0).forEach((r) => r.destroy());
      await until('the upload spool is empty', async () => (await uploadsSpooled()).length === 0);
    });

    /** An upload that spooled its first bytes and never ends (retried while a slot is being freed). */
    async function hold(): Promise<void> {
      for (;;) {
        const before = (await uploadsSpooled()).length;
        const { req, response } = rawUpload(stack.svc.url, '/v1/import/docx/qas/jobs', owner);
        let refused = false;
        response.then(
          (r) => (refused = r.status === 503),
          () => undefined,
        );
        req.write(Buffer.alloc(1000, 1));
        await until('spooled or refused', async () => refused || (await uploadsSpooled()).length > before);
        if (!refused) return void open.push(req);
        req.destroy();
      }
    }

    it(`503 UPLOADS_BUSY with Retry-After while ${SLOTS} uploads hold the spool; an aborted upload leaves no file`, async () => {
      for (let i = 0; i < SLOTS; i++) await hold();
      for (const path of ['/v1/import/docx/qas', '/v1/import/docx/qas/jobs', '/v1/import/docx/qas/stream']) {
        const res = await call('POST', path, owner);
        expect([res.status, res.body.error?.code], path).to.deep.equal([503, 'UPLOADS_BUSY']);
        expect(Number(res.headers['retry-after'])).to.be.greaterThan(0);
      }
      expect(await uploadsSpooled()).to.have.length(SLOTS);
      open.pop()!.destroy();
      await until('the aborted upload is removed', async () => (await uploadsSpooled()).length === SLOTS - 1);
      await until(
        'an upload is admitted again',
        async () => (await call('POST', '/v1/import/docx/qas', owner)).status === 200,
      );
    });
  });
});
