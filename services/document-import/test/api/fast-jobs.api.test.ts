import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import supertest from 'supertest';
import { headers, simpleDocx, teacher, zipBomb, type Who } from './support.js';
import { startStack, waitForStatus, type Stack } from './stack.js';

const other: Who = { userId: 't2', organizationId: 'org-a', role: 'TEACHER' };
const stranger: Who = { userId: 't1', organizationId: 'org-b', role: 'TEACHER' };

const binary = (res: supertest.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('document-import: DOCX Fast jobs, temp drafts, assets and reprocess', () => {
  let stack: Stack;
  let docx: Buffer;
  let peer: ReturnType<typeof supertest>;
  before(async () => {
    stack = await startStack(import.meta.url);
    docx = await simpleDocx();
    peer = supertest(stack.peer.url);
  });
  after(() => stack?.close());
  beforeEach(async () => {
    await rm(stack.pauseFile, { force: true });
    await stack.svc.db.conn.collection('import_jobs').deleteMany({});
  });

  /** Stores bytes in the document service under a fresh key. */
  async function store(bytes: Buffer, key = `tests/${randomUUID()}/de-thi.docx`): Promise<string> {
    const res = await peer
      .put('/v1/storage/objects')
      .query({ key })
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return key;
  }
  const body = (questionStorageKey: string, over: Record<string, unknown> = {}) => ({
    questionStorageKey,
    questionFileName: 'de-thi.docx',
    title: 'Đề DOCX Fast',
    autoApproveToQuestionBank: false,
    ...over,
  });
  const create = (payload: object, who: Who = teacher(), key?: string) => {
    const req = stack.svc.request.post('/v1/import/docx/docx-fast-jobs').set(headers(who));
    if (key !== undefined) void req.set('Idempotency-Key', key);
    return req.send(payload);
  };
  const get = (path: string, who: Who = teacher()) => stack.svc.request.get(path).set(headers(who));

  async function completedFastJob(): Promise<string> {
    const res = await create(body(await store(docx)));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    await waitForStatus(stack.svc, teacher(), res.body.data.id, 'COMPLETED');
    return res.body.data.id as string;
  }

  describe('POST /v1/import/docx/docx-fast-jobs', () => {
    it('fetches the stored file, queues a PENDING fast job (202) and the worker completes it', async () => {
      const key = await store(docx);
      const res = await create(body(key, { subjectId: 'math', gradeLevel: 12 }));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.data).to.include({
        status: 'PENDING',
        jobKind: 'DOCX_FAST',
        source: 'STORAGE',
        questionStorageKey: key,
        subjectId: 'math',
        gradeLevel: 12,
      });
      await waitForStatus(stack.svc, teacher(), res.body.data.id, 'COMPLETED');
      const detail = (await get(`/v1/import/docx/jobs/${res.body.data.id}`)).body.data;
      expect(detail.packagingJson.docxFastTempDraft).to.deep.include({
        status: 'MATERIALIZED',
        token: `materialized-${res.body.data.id}`,
        assets: [],
      });
    });

    it('replays an equal request within the window before any fetch, for the same organization, actor, key and storage key', async () => {
      const key = await store(docx);
      const idem = `  key-${randomUUID()}  `;
      const first = await create(body(key), teacher(), idem);
      expect(first.status).to.equal(202);
      // The stored file is replaced by garbage: a replay that fetched would be refused with 415.
      await store(Buffer.from('garbage, not a zip'), key);
      const again = await create(body(key), teacher(), idem.trim());
      expect([again.status, again.headers['idempotent-replayed'], again.body.data.id]).to.deep.equal([
        200,
        'true',
        first.body.data.id,
      ]);
      const otherActor = await create(body(key), other, idem);
      expect([otherActor.status, otherActor.body.error?.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
      const jobs = await stack.svc.db.conn.collection('import_jobs').countDocuments();
      expect(jobs).to.equal(1);
    });

    it('refuses an Idempotency-Key longer than 120 characters (400), and takes exactly 120', async () => {
      const key = await store(docx);
      const long = await create(body(key), teacher(), 'k'.repeat(121));
      expect([long.status, long.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      expect((await create(body(key), teacher(), `  ${'k'.repeat(120)}  `)).status).to.equal(202);
    });

    it('refuses a file name not ending in .docx, bad magic, a zip bomb and an unknown key, queueing nothing', async () => {
      const spooledBefore = await stack.spooled();
      const good = await store(docx);
      const wrongName = await create(body(good, { questionFileName: 'de-thi.pdf' }));
      expect([wrongName.status, wrongName.body.error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
      const fromFileName = await create(body(good, { questionFileName: undefined, fileName: 'de-thi.txt' }));
      expect(fromFileName.status).to.equal(415);
      const magic = await create(body(await store(randomBytes(2000))));
      expect([magic.status, magic.body.error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
      const bomb = await create(body(await store(zipBomb())));
      expect([bomb.status, bomb.body.error.code]).to.deep.equal([413, 'DOCX_COMPRESSION_RATIO']);
      const unknown = await create(body(`tests/${randomUUID()}/none.docx`));
      expect([unknown.status, unknown.body.error.code]).to.deep.equal([404, 'STORAGE_OBJECT_NOT_FOUND']);
      expect(await stack.svc.db.conn.collection('import_jobs').countDocuments()).to.equal(0);
      expect(await stack.spooled()).to.deep.equal(spooledBefore);
    });

    it('validates the body: a file name is required, unknown fields and wrong types are 400', async () => {
      const key = await store(docx);
      for (const bad of [
        { questionStorageKey: key, title: 'x' },
        { ...body(key), extra: 1 },
        { ...body(key), autoApproveToQuestionBank: 'yes' },
        { ...body(key), gradeLevel: 13 },
        { ...body(key), title: '' },
      ]) {
        const res = await create(bad);
        expect([res.status, res.body.error.code], JSON.stringify(bad)).to.deep.equal([400, 'VALIDATION_ERROR']);
      }
    });
  });

  describe('temp draft', () => {
    it('answers a completed fast job with token, jobId, expiresAt, parseResult and no assets; the reviewed payload once saved', async () => {
      const id = await completedFastJob();
      const res = await get(`/v1/import/docx/docx-fast-jobs/${id}/temp-draft`);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('DOCX Fast materialized draft');
      expect(res.body.data).to.include({ token: `materialized-${id}`, jobId: id });
      expect(Date.parse(res.body.data.expiresAt)).to.be.greaterThan(Date.now());
      expect(res.body.data.assets).to.deep.equal([]);
      expect(res.body.data.parseResult.questions).to.have.length(2);
      const reviewed = { questions: [{ id: 'q1', content: 'sửa' }] };
      await stack.svc.request
        .patch(`/v1/import/docx/jobs/${id}/review`)
        .set(headers(teacher()))
        .send({ parseResult: reviewed, docxFastTempDraftToken: `materialized-${id}` });
      const after = await get(`/v1/import/docx/docx-fast-jobs/${id}/temp-draft`);
      expect(after.body.data.parseResult).to.deep.equal(reviewed);
      expect((await get(`/v1/import/docx/docx-fast-jobs/${id}/temp-draft`, stranger)).status).to.equal(404);
    });

    it('409 before completion, 404 for an upload job', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const pending = (await create(body(await store(docx)))).body.data.id as string;
      const early = await get(`/v1/import/docx/docx-fast-jobs/${pending}/temp-draft`);
      expect([early.status, early.body.error.code]).to.deep.equal([409, 'IMPORT_JOB_NOT_COMPLETED']);
      const upload = await stack.svc.request
        .post('/v1/import/docx/qas/jobs')
        .set(headers(teacher()))
        .attach('file', docx, { filename: 'a.docx' });
      expect((await get(`/v1/import/docx/docx-fast-jobs/${upload.body.data.id}/temp-draft`)).status).to.equal(404);
    });

    it('streams only a materialized asset of the stored result, privately cached', async () => {
      const id = await completedFastJob();
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(3000)]);
      const org = { 'X-Organization-Id': 'org-a', 'X-User-Id': 't1' };
      const ticket = (
        await peer
          .post('/v1/storage/presigned-upload')
          .set(org)
          .send({ fileName: 'image1.png', contentType: 'image/png' })
      ).body.data;
      expect(
        (await fetch(ticket.uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: png })).status,
      ).to.equal(200);
      const asset = (await peer.post('/v1/storage/media-assets').set(org).send({ key: ticket.key })).body.data;
      const parseResult = {
        questions: [
          { id: 'q1', media: [{ media_asset_id: asset.id, media_id: 'm-1', url: asset.contentUrl }] },
          { id: 'q2', media: [{ media_asset_id: null, url: 'word/media/image9.png' }] },
        ],
      };
      const saved = await stack.svc.request
        .patch(`/v1/import/docx/jobs/${id}/review`)
        .set(headers(teacher()))
        .send({ parseResult });
      expect(saved.status).to.equal(200);
      const base = `/v1/import/docx/docx-fast-jobs/${id}/temp-draft/assets`;
      for (const tempAssetId of [asset.id, 'm-1', encodeURIComponent(asset.contentUrl)]) {
        const res = await get(`${base}/${tempAssetId}/content`).buffer(true).parse(binary);
        expect(res.status, tempAssetId).to.equal(200);
        expect(res.headers['cache-control']).to.equal('private, max-age=300');
        expect(res.headers['content-type']).to.equal('image/png');
        expect(Buffer.compare(res.body as Buffer, png)).to.equal(0);
      }
      for (const unknown of ['word%2Fmedia%2Fimage9.png', 'no-such-asset']) {
        const res = await get(`${base}/${unknown}/content`);
        expect([res.status, res.body.error.code]).to.deep.equal([404, 'TEMP_ASSET_NOT_FOUND']);
      }
      expect((await get(`${base}/${asset.id}/content`, stranger)).status).to.equal(404);
    });
  });

  describe('POST /v1/import/docx/docx-fast-jobs/{id}/reprocess', () => {
    it('refuses while waiting or active (409), then re-reads the source and runs again with the old output cleared', async () => {
      await writeFile(stack.pauseFile, 'hold');
      const key = await store(docx);
      const id = (await create(body(key))).body.data.id as string;
      const waiting = await stack.svc.request
        .post(`/v1/import/docx/docx-fast-jobs/${id}/reprocess`)
        .set(headers(teacher()));
      expect([waiting.status, waiting.body.error.code]).to.deep.equal([409, 'IMPORT_JOB_ACTIVE']);
      await waitForStatus(stack.svc, teacher(), id, 'PROCESSING');
      const active = await stack.svc.request
        .post(`/v1/import/docx/docx-fast-jobs/${id}/reprocess`)
        .set(headers(teacher()));
      expect(active.status).to.equal(409);
      await rm(stack.pauseFile, { force: true });
      await waitForStatus(stack.svc, teacher(), id, 'COMPLETED');
      await stack.svc.request
        .patch(`/v1/import/docx/jobs/${id}/review`)
        .set(headers(teacher()))
        .send({ parseResult: { questions: [] } });
      const oneQuestion = await simpleDocxWithOneQuestion();
      await store(oneQuestion, key);
      const res = await stack.svc.request
        .post(`/v1/import/docx/docx-fast-jobs/${id}/reprocess`)
        .set(headers(teacher()));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.message).to.equal('DOCX Fast import reprocessed');
      expect(res.body.data).to.include({ id, run: 2 });
      expect(res.body.data.status).to.be.oneOf(['PENDING', 'PROCESSING', 'COMPLETED']);
      await waitForStatus(stack.svc, teacher(), id, 'COMPLETED');
      const detail = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      expect(detail.parseResultJson.questions).to.have.length(1);
      expect(detail.reviewedAt).to.equal(null);
    });

    it('404 for another actor and for an upload job; a stored file gone bad is refused and the job kept', async () => {
      const id = await completedFastJob();
      expect(
        (await stack.svc.request.post(`/v1/import/docx/docx-fast-jobs/${id}/reprocess`).set(headers(other))).status,
      ).to.equal(404);
      const upload = await stack.svc.request
        .post('/v1/import/docx/qas/jobs')
        .set(headers(teacher()))
        .attach('file', docx, { filename: 'a.docx' });
      await waitForStatus(stack.svc, teacher(), upload.body.data.id, 'COMPLETED');
      expect(
        (
          await stack.svc.request
            .post(`/v1/import/docx/docx-fast-jobs/${upload.body.data.id}/reprocess`)
            .set(headers(teacher()))
        ).status,
      ).to.equal(404);
      const job = (await get(`/v1/import/docx/jobs/${id}`)).body.data;
      await store(Buffer.from('not a zip'), job.questionStorageKey);
      const bad = await stack.svc.request
        .post(`/v1/import/docx/docx-fast-jobs/${id}/reprocess`)
        .set(headers(teacher()));
      expect([bad.status, bad.body.error.code]).to.deep.equal([415, 'DOCX_INVALID_FILE']);
      expect((await get(`/v1/import/docx/jobs/${id}`)).body.data).to.include({ status: 'COMPLETED', run: 1 });
    });
  });
});

async function simpleDocxWithOneQuestion(): Promise<Buffer> {
  const { makeDocx } = await import('../parser/support/build-docx.js');
  return Buffer.from(await makeDocx(['Câu 1. 2 + 2 = ?', 'A. 3\tB. 4\tC. 5\tD. 6', 'Đáp án: B']));
}
