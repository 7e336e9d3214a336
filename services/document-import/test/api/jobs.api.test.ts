import { expect } from 'chai';
import { writeFile, rm } from 'node:fs/promises';
import {
  entityExpansion,
  headers,
  NOTICE_SEEN,
  noticeDocx,
  simpleDocx,
  teacher,
  until,
  zipBomb,
  type Who,
} from './support.js';
import { openStream, startStack, waitForStatus, type Stack } from './stack.js';

const admin: Who = { userId: 'a1', organizationId: 'org-a', role: 'ADMIN' };
const other: Who = { userId: 't2', organizationId: 'org-a', role: 'TEACHER' };
const stranger: Who = { userId: 't1', organizationId: 'org-b', role: 'TEACHER' };

describe('document-import: upload jobs, lists, detail, status, review, event streams', () => {
  let stack: Stack;
  let docx: Buffer;
  before(async () => {
    stack = await startStack(import.meta.url);
    docx = await simpleDocx();
  });
  after(() => stack?.close());
  beforeEach(async () => {
    await rm(stack.pauseFile, { force: true });
    await stack.svc.db.conn.collection('import_jobs').deleteMany({});
  });

  const upload = (who: Who = teacher(), file = docx, name = 'de-thi.docx', title?: string) => {
    const req = stack.svc.request.post('/v1/import/docx/qas/jobs').set(headers(who));
    if (title !== undefined) void req.field('title', title);
    return req.attach('file', file, { filename: name });
  };
  const get = (path: string, who: Who = teacher()) => stack.svc.request.get(path).set(headers(who));

  async function completedJob(who: Who = teacher(), title?: string): Promise<string> {
    const res = await upload(who, docx, 'de-thi.docx', title);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    await waitForStatus(stack.svc, who, res.body.data.id, 'COMPLETED');
    return res.body.data.id as string;
  }

  describe('POST /v1/import/docx/qas/jobs', () => {
    it('counts the 300-character title limit after trimming: stored trimmed at the limit, one over is 400', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const title = 'Đ'.repeat(300);
      const res = await upload(teacher(), docx, 'de-thi.docx', `  ${title}\t `);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.data.title).to.equal(title);
      const row = await stack.svc.db.conn.collection('import_jobs').findOne({ _id: res.body.data.id as never });
      expect(row?.title).to.equal(title);
      const over = await upload(teacher(), docx, 'de-thi.docx', ` ${title}Đ `);
      expect(over.status).to.equal(400);
      expect(over.body.error.code).to.equal('VALIDATION_ERROR');
      await rm(stack.pauseFile, { force: true });
      await waitForStatus(stack.svc, teacher(), res.body.data.id, 'COMPLETED');
    });

    it('answers 202 with a PENDING summary and its queue, then the worker completes it and the spool is emptied', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const res = await upload(teacher(), docx, 'de-thi.docx', 'Đề kiểm tra');
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.message).to.equal('DOCX import job queued');
      const job = res.body.data;
      expect(job).to.include({
        status: 'PENDING',
        jobKind: 'QAS',
        source: 'UPLOAD',
        title: 'Đề kiểm tra',
        fileName: 'de-thi.docx',
      });
      expect(job.queue).to.include.keys(
        'status',
        'waiting',
        'active',
        'totalPending',
        'waitingPosition',
        'jobsAhead',
        'workerConcurrency',
      );
      expect(job).to.not.have.property('payloadRef');
      expect(await stack.spooled()).to.have.length(1);
      await waitForStatus(stack.svc, teacher(), job.id, 'PROCESSING');
      await rm(stack.pauseFile, { force: true });
      await waitForStatus(stack.svc, teacher(), job.id, 'COMPLETED');
      await until('the spool is emptied', async () => (await stack.spooled()).length === 0);
      const detail = (await get(`/v1/import/docx/jobs/${job.id}`)).body.data;
      expect(detail.parseResultJson.questions).to.have.length(2);
      expect(detail.packagingJson).to.be.an('object');
      expect(detail).to.not.have.property('queue');
      const status = (await get(`/v1/import/docx/jobs/${job.id}/status`)).body.data;
      expect(status).to.include({ status: 'COMPLETED', totalQuestions: 2 });
      expect(status).to.include.keys('parsedQuestions', 'pendingEquations', 'pendingImages', 'warnings', 'errors');
    });

    it('refuses hostile files with a 4xx and spools nothing: bad magic, zip bomb, entity expansion, wrong extension', async () => {
      const spooledBefore = await stack.spooled();
      const cases: Array<[Buffer, string, number, string]> = [
        [Buffer.from('MZ not a zip'), 'a.docx', 415, 'DOCX_INVALID_FILE'],
        [zipBomb(), 'bomb.docx', 413, 'DOCX_COMPRESSION_RATIO'],
        [entityExpansion(), 'lol.docx', 400, 'DOCX_XML_DOCTYPE'],
        [docx, 'de-thi.doc', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ];
      for (const [file, name, status, code] of cases) {
        const res = await upload(teacher(), file, name);
        expect([res.status, res.body.error?.code], name).to.deep.equal([status, code]);
      }
      expect(await stack.spooled()).to.deep.equal(spooledBefore);
      expect(await stack.svc.db.conn.collection('import_jobs').countDocuments()).to.equal(0);
    });

    it('ends FAILED with DOCX_NO_QUESTIONS_FOUND, its message and what was seen for a DOCX without a question', async () => {
      const res = await upload(teacher(), await noticeDocx(), 'thong-bao.docx');
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const id = res.body.data.id as string;
      await waitForStatus(stack.svc, teacher(), id, 'FAILED');
      const message =
        'no question found in 2 paragraphs and 1 table; the first lines: "Thông báo họp phụ huynh", ' +
        '"Thời gian: sáng thứ Bảy.", "Địa điểm | Phòng 204"';
      const detail = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      expect(detail).to.include({ status: 'FAILED', parseStatus: 'FAILED', parseResultJson: null });
      expect(detail.errorSummary).to.deep.equal({ code: 'DOCX_NO_QUESTIONS_FOUND', message, details: NOTICE_SEEN });
      const row = await stack.svc.db.conn.collection('import_jobs').findOne({ _id: id } as never);
      const events = row!.events as Array<{ type: string; data: { error?: unknown } }>;
      expect(events.map((e) => e.type)).to.deep.equal(['job.queued', 'job.started', 'job.failed']);
      // The published event carries the code and the message; the document's lines stay on the job.
      expect(events[2]!.data.error).to.deep.equal({ code: 'DOCX_NO_QUESTIONS_FOUND', message });
      await until('the spool is emptied', async () => (await stack.spooled()).length === 0);
    });

    it('401 without X-User-Id, 400 without X-Organization-Id', async () => {
      expect((await upload({ organizationId: 'org-a', role: 'TEACHER' })).status).to.equal(401);
      expect((await upload({ userId: 't1', role: 'TEACHER' })).status).to.equal(400);
    });
  });

  describe('scope, lists and paging', () => {
    it('hides a job from another organization and another actor (404), shows it to an ADMIN of its organization', async () => {
      const id = (await upload()).body.data.id as string;
      for (const who of [stranger, other]) {
        const res = await get(`/v1/import/docx/jobs/${id}`, who);
        expect([res.status, res.body.error.code]).to.deep.equal([404, 'IMPORT_JOB_NOT_FOUND']);
        expect((await get(`/v1/import/docx/jobs/${id}/status`, who)).status).to.equal(404);
      }
      expect((await get(`/v1/import/docx/jobs/${id}`, admin)).status).to.equal(200);
      expect((await get('/v1/import/docx/jobs/no-such-job')).status).to.equal(404);
    });

    it('lists own jobs newest first with filters and paging; an ADMIN lists the organization, or one creator', async () => {
      const first = (await upload(teacher(), docx, 'a.docx', 'Toán 12')).body.data.id;
      const second = (await upload(teacher(), docx, 'b.docx', 'Vật lý')).body.data.id;
      const others = (await upload(other, docx, 'c.docx', 'Hóa học')).body.data.id;
      await upload(stranger, docx, 'd.docx');
      const mine = await get('/v1/import/docx/jobs?limit=1&page=2');
      expect(mine.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([first]);
      expect(mine.body.data.meta).to.deep.equal({ page: 2, limit: 1, total: 2, totalPages: 2 });
      const library = await get('/v1/import/docx/teacher-library', other);
      expect(library.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([others]);
      const org = await get('/v1/import/docx/jobs', admin);
      expect(org.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([others, second, first]);
      const one = await get('/v1/import/docx/jobs?createdBy=t2', admin);
      expect(one.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([others]);
      const q = await get('/v1/import/docx/jobs?q=vật', admin);
      expect(q.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([second]);
      const adminLibrary = await get('/v1/import/docx/teacher-library', admin);
      expect(adminLibrary.body.data.items).to.deep.equal([]);
    });

    it('filters by status and kind, and refuses unknown filter values with 400', async () => {
      const done = await completedJob();
      const res = await get('/v1/import/docx/jobs?status=COMPLETED&jobKind=QAS&source=UPLOAD');
      expect(res.body.data.items.map((j: { id: string }) => j.id)).to.deep.equal([done]);
      expect((await get('/v1/import/docx/jobs?status=DONE')).status).to.equal(400);
      expect((await get('/v1/import/docx/jobs?createdFrom=yesterday')).status).to.equal(400);
      expect((await get('/v1/import/docx/jobs?unknown=1')).status).to.equal(400);
    });
  });

  describe('PATCH /v1/import/docx/jobs/{id}/review', () => {
    const patch = (id: string, body: unknown, who: Who = teacher()) =>
      stack.svc.request
        .patch(`/v1/import/docx/jobs/${id}/review`)
        .set(headers(who))
        .send(body as object);

    it('stores the reviewed result verbatim, manual flags included, and overlays sourceText only in the answer', async () => {
      const id = await completedJob();
      const parseResult = {
        questions: [
          {
            id: 'q1',
            content: 'x',
            sourceMetadataJson: {
              questionTypeManualOverride: 'ESSAY',
              questionTypeReviewed: true,
              questionTypeAutoDetected: false,
            },
          },
        ],
        'weird.key': { $odd: 1 },
      };
      const res = await patch(id, { parseResult, title: 'Đã duyệt', sourceText: 'Câu 1. x' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.message).to.equal('DOCX import review saved');
      expect(res.body.data.parseResultJson).to.deep.equal({ ...parseResult, sourceText: 'Câu 1. x' });
      const detail = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      expect(detail.parseResultJson).to.deep.equal(parseResult);
      expect(detail.title).to.equal('Đã duyệt');
    });

    it('accepts only materialized-<job id> as token, as an acknowledgement that changes nothing', async () => {
      const id = await completedJob();
      const before = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      const ack = await patch(id, { docxFastTempDraftToken: `materialized-${id}` });
      expect(ack.status).to.equal(200);
      expect(ack.body.data.parseResultJson).to.deep.equal(before.parseResultJson);
      expect((await patch(id, { docxFastTempDraftToken: `materialized-${id}` })).status).to.equal(200);
      const after = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      expect(after.updatedAt).to.equal(before.updatedAt);
      const wrong = await patch(id, { docxFastTempDraftToken: 'legacy-token-1', parseResult: {} });
      expect([wrong.status, wrong.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    });

    it('refuses an empty body (400), a job not completed (409), another actor (404)', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const id = (await upload()).body.data.id as string;
      expect((await patch(id, {})).status).to.equal(400);
      const early = await patch(id, { parseResult: { questions: [] } });
      expect([early.status, early.body.error.code]).to.deep.equal([409, 'IMPORT_JOB_NOT_COMPLETED']);
      expect((await patch(id, { parseResult: {} }, other)).status).to.equal(404);
      expect((await patch(id, { parseResult: 'text' })).status).to.equal(400);
    });
  });

  describe('server-sent events', () => {
    it('one job: its stored events, its snapshot, then live job.updated until completion', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const id = (await upload()).body.data.id as string;
      const stream = await openStream(stack.svc.url, `/v1/import/docx/jobs/${id}/events`, teacher());
      try {
        expect(stream.status).to.equal(200);
        await until('the snapshot', () => stream.events.some((e) => e.event === 'job.snapshot'));
        expect(stream.events[0]!.event).to.equal('job.queued');
        await rm(stack.pauseFile, { force: true });
        await until('a live completion', () =>
          stream.events.some((e) => e.event === 'job.updated' && (e.data as { status: string }).status === 'COMPLETED'),
        );
        const update = stream.events.find((e) => e.event === 'job.updated')!.data as Record<string, unknown>;
        expect(update).to.not.have.any.keys('parseResultJson', 'payloadRef', 'packagingJson');
        await until('a heartbeat comment', () => stream.text().includes(': heartbeat'));
      } finally {
        stream.close();
      }
      const foreign = await get(`/v1/import/docx/jobs/${id}/events`, stranger);
      expect([foreign.status, foreign.body.error.code]).to.deep.equal([404, 'IMPORT_JOB_NOT_FOUND']);
    });

    it('all jobs: replays stored jobs, says ready, then sends live job.updated of visible jobs only', async () => {
      const done = await completedJob();
      const stream = await openStream(stack.svc.url, '/v1/import/docx/jobs/events', teacher());
      try {
        await until('ready', () => stream.events.some((e) => e.event === 'ready'));
        const replay = stream.events
          .filter((e) => e.event === 'job.snapshot')
          .map((e) => (e.data as { id: string }).id);
        expect(replay).to.deep.equal([done]);
        const foreign = (await upload(stranger)).body.data.id as string;
        const mine = (await upload()).body.data.id as string;
        await until('my new job completes live', () =>
          stream.events.some(
            (e) =>
              e.event === 'job.updated' &&
              (e.data as { id: string; status: string }).id === mine &&
              (e.data as { status: string }).status === 'COMPLETED',
          ),
        );
        await waitForStatus(stack.svc, stranger, foreign, 'COMPLETED');
        expect(stream.events.some((e) => (e.data as { id?: string }).id === foreign)).to.equal(false);
      } finally {
        stream.close();
      }
    });

    it('405 for POST on the events path, and 401 without actor headers', async () => {
      expect((await stack.svc.request.post('/v1/import/docx/jobs/events').set(headers(teacher()))).status).to.equal(
        405,
      );
      expect((await stack.svc.request.get('/v1/import/docx/jobs/events')).status).to.equal(401);
    });
  });
});
