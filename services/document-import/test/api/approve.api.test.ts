import { expect } from 'chai';
import { rm, writeFile } from 'node:fs/promises';
import supertest from 'supertest';
import { startService, type RunningService } from '../../../kit/src/service/index.js';
import { testDbName, testMongoUri } from '../../../kit/test/support/servers.js';
import { startExamPeer, type BuiltExamPeer, type RunningPeer } from '../../../peers/src/index.js';
import { questionBankService } from '../../../question-bank/src/service.js';
import { autoApprove } from '../../src/domain/approve.js';
import { getJob } from '../../src/domain/jobs/queries.js';
import { approvalPort } from '../../src/domain/ports.js';
import { makeDocx } from '../parser/support/build-docx.js';
import { headers, simpleDocx, teacher, until, type Who } from './support.js';
import { startStack, waitForStatus, type Stack } from './stack.js';

const other: Who = { userId: 't2', organizationId: 'org-a', role: 'TEACHER' };

describe('document-import: approval, auto-approval and the baseline reparse', () => {
  let stack: Stack;
  let qb: RunningService<Record<string, unknown>, { app: unknown }>;
  let exams: RunningPeer<BuiltExamPeer>;
  let docx: Buffer;
  before(async () => {
    qb = (await startService(
      { ...questionBankService, dbName: testDbName('qb_for_import', import.meta.url) },
      {
        env: {
          NODE_ENV: 'test',
          PORT: '0',
          LOG_LEVEL: 'warn',
          MONGODB_URI: testMongoUri(),
          MONGODB_DB: testDbName('qb_for_import', import.meta.url),
        },
        host: '127.0.0.1',
        handleSignals: false,
      },
    )) as unknown as typeof qb;
    exams = await startExamPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_exams', import.meta.url),
      dropDatabaseOnClose: true,
    });
    // The worker auto-approves with the approval port, as the worker process wires it.
    stack = await startStack(
      import.meta.url,
      { QUESTION_BANK_URL: `http://127.0.0.1:${qb.port}`, EXAM_SERVICE_URL: exams.url },
      { autoApprove: true },
    );
    docx = await simpleDocx();
  });
  after(async () => {
    await stack?.close();
    await exams?.close();
    await qb?.db.conn.dropDatabase().catch(() => undefined);
    await qb?.shutdown('test finished');
  });
  beforeEach(() => rm(stack.pauseFile, { force: true }));

  const approve = (id: string, body: object, who: Who = teacher()) =>
    stack.svc.request.post(`/v1/import/docx/jobs/${id}/approve`).set(headers(who)).send(body);
  const detail = async (id: string, who: Who = teacher()) =>
    (await stack.svc.request.get(`/v1/import/docx/jobs/${id}`).set(headers(who))).body.data;

  async function completedJob(file = docx): Promise<string> {
    const res = await stack.svc.request
      .post('/v1/import/docx/qas/jobs')
      .set(headers(teacher()))
      .attach('file', file, { filename: 'de-thi.docx' });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    await waitForStatus(stack.svc, teacher(), res.body.data.id, 'COMPLETED');
    return res.body.data.id as string;
  }

  it('QUESTION_BANK: imports the questions with the scope headers; an identical retry returns the stored result', async () => {
    const id = await completedJob();
    const body = { target: 'QUESTION_BANK', questionMetadata: { subjectId: 'math', gradeLevel: 12, tags: ['Đại số'] } };
    const first = await approve(id, body);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.message).to.equal('DOCX import approved');
    expect(first.body.data.replayed).to.equal(false);
    const result = first.body.data.result;
    expect(result).to.include({ target: 'QUESTION_BANK', importedCount: 2 });
    expect(await qb.db.conn.collection('questions').countDocuments({ _id: { $in: result.questionIds } })).to.equal(2);
    const again = await approve(id, {
      questionMetadata: { tags: ['Đại số'], gradeLevel: 12, subjectId: 'math' },
      target: 'QUESTION_BANK',
    });
    expect([again.status, again.headers['idempotent-replayed'], again.body.data.replayed]).to.deep.equal([
      200,
      'true',
      true,
    ]);
    expect(again.body.data.result).to.deep.equal(result);
    expect(again.body.data.approvalKey).to.equal(first.body.data.approvalKey);
    const job = await detail(id);
    expect(job.approvals.map((a: { target: string; auto: boolean }) => [a.target, a.auto])).to.deep.equal([
      ['QUESTION_BANK', false],
    ]);
  });

  it("forwards the actor's own role, never a made-up TEACHER: no role is refused upstream, an ADMIN approves as ADMIN", async () => {
    const id = await completedJob();
    const job = await getJob(stack.worker.jobs, { organizationId: 'org-a', actorId: 't1' }, id);
    const port = approvalPort(stack.svc.config);
    const roleless = { organizationId: 'org-a', userId: 't1' };
    const refused = await port(roleless, job, { target: 'QUESTION_BANK' }).then(
      () => null,
      (err: { code: string; details?: { upstreamStatus?: number } }) => [err.code, err.details?.upstreamStatus],
    );
    expect(refused).to.deep.equal(['UPSTREAM_ERROR', 403]);
    // Auto-approval of a row older than the creator's role: refused and recorded, not sent as TEACHER.
    await autoApprove(stack.worker.jobs, port, { ...job, autoApproveToQuestionBank: true }, { creatorRole: null });
    const autoApprovals = async () => (await detail(id)).approvals.map((a: { auto: boolean }) => a.auto);
    const stored = await stack.svc.db.conn.collection('import_jobs').findOne({ _id: id as never });
    expect(stored?.createdByRole).to.equal('TEACHER');
    expect(await autoApprovals()).to.deep.equal([]);
    await autoApprove(stack.worker.jobs, port, { ...job, autoApproveToQuestionBank: true }, { creatorRole: 'TEACHER' });
    expect(await autoApprovals()).to.deep.equal([true]);
    const admin: Who = { userId: 'a1', organizationId: 'org-a', role: 'ADMIN' };
    const res = await approve(id, { target: 'QUESTION_BANK' }, admin);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });

  it('EXAM_DRAFT: creates the draft exam, then puts one snapshot per imported question', async () => {
    const id = await completedJob();
    const res = await approve(id, {
      target: 'EXAM_DRAFT',
      exam: { title: 'Đề nháp', subjectId: 'math', gradeLevel: 12, durationMinutes: 45 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.result).to.include({ target: 'EXAM_DRAFT', examCreated: true, snapshotCount: 2 });
    const exam = await supertest(exams.url).get(`/v1/exams/${res.body.data.result.examId}`).set(headers(teacher()));
    expect(exam.status, JSON.stringify(exam.body)).to.equal(200);
  });

  it('refuses a job not completed (409), another actor (404), and bodies that do not fit the target (400)', async () => {
    await writeFile(stack.pauseFile, 'hold');
    const pending = (
      await stack.svc.request
        .post('/v1/import/docx/qas/jobs')
        .set(headers(teacher()))
        .attach('file', docx, { filename: 'a.docx' })
    ).body.data.id;
    const early = await approve(pending, { target: 'QUESTION_BANK' });
    expect([early.status, early.body.error.code]).to.deep.equal([409, 'IMPORT_JOB_NOT_COMPLETED']);
    await rm(stack.pauseFile, { force: true });
    await waitForStatus(stack.svc, teacher(), pending, 'COMPLETED');
    expect((await approve(pending, { target: 'QUESTION_BANK' }, other)).status).to.equal(404);
    for (const bad of [
      { target: 'EXAM_DRAFT' },
      { target: 'QUESTION_BANK', examId: 'e1' },
      { target: 'EXAM_DRAFT', examId: 'e1', exam: { title: 'x' } },
      { target: 'NOWHERE' },
      {},
    ]) {
      const res = await approve(pending, bad);
      expect([res.status, res.body.error.code], JSON.stringify(bad)).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
  });

  it('auto-approves a fast job after a successful parse (auto_approval.completed), without changing its status', async () => {
    const key = `tests/${Date.now()}/auto.docx`;
    await supertest(stack.peer.url)
      .put('/v1/storage/objects')
      .query({ key })
      .set('Content-Type', 'application/octet-stream')
      .send(docx);
    const res = await stack.svc.request.post('/v1/import/docx/docx-fast-jobs').set(headers(teacher())).send({
      questionStorageKey: key,
      questionFileName: 'auto.docx',
      title: 'Tự duyệt',
      autoApproveToQuestionBank: true,
      subjectId: 'math',
      gradeLevel: 11,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const id = res.body.data.id as string;
    await until('the auto approval is stored', async () => ((await detail(id)).approvals ?? []).length > 0, 60_000);
    const job = await detail(id);
    expect(job.status).to.equal('COMPLETED');
    expect(job.approvals[0]).to.include({ target: 'QUESTION_BANK', auto: true });
    expect(
      await qb.db.conn.collection('questions').countDocuments({ _id: { $in: job.approvals[0].questionIds } }),
    ).to.equal(2);
    const events = await stack.svc.db.conn
      .collection('import_jobs')
      .findOne({ _id: id } as never, { projection: { events: 1 } });
    expect((events?.events as Array<{ type: string }>).map((e) => e.type)).to.include('auto_approval.completed');
  });

  // A document without a question fails its job, so there is nothing to auto-approve (auto_approval.failed
  // itself is covered by the worker's test with no question bank configured).
  it('a fast job on a DOCX without a question ends FAILED with DOCX_NO_QUESTIONS_FOUND, no auto-approval tried', async () => {
    const empty = Buffer.from(await makeDocx(['Không có câu hỏi nào ở đây.']));
    const key = `tests/${Date.now()}/empty.docx`;
    await supertest(stack.peer.url)
      .put('/v1/storage/objects')
      .query({ key })
      .set('Content-Type', 'application/octet-stream')
      .send(empty);
    const res = await stack.svc.request
      .post('/v1/import/docx/docx-fast-jobs')
      .set(headers(teacher()))
      .send({ questionStorageKey: key, fileName: 'empty.docx', title: 'Rỗng', autoApproveToQuestionBank: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const id = res.body.data.id as string;
    await waitForStatus(stack.svc, teacher(), id, 'FAILED');
    const job = await detail(id);
    expect(job.errorSummary).to.deep.include({ code: 'DOCX_NO_QUESTIONS_FOUND' });
    expect(job.errorSummary.details).to.deep.equal({
      paragraphs: 1,
      tables: 0,
      firstLines: ['Không có câu hỏi nào ở đây.'],
    });
    const row = await stack.svc.db.conn
      .collection('import_jobs')
      .findOne({ _id: id } as never, { projection: { events: 1 } });
    const types = ((row?.events ?? []) as Array<{ type: string }>).map((e) => e.type);
    expect(types).to.deep.equal(['job.queued', 'job.started', 'job.failed']);
  });

  it('review with sourceText alone: the baseline reparse is stored with its warning', async () => {
    const id = await completedJob();
    const sourceText = 'Câu 1. 3 + 4 = ?\nA. 5\n*B. 7\nC. 8\nD. 9\nLời giải: 3 + 4 = 7';
    const res = await stack.svc.request
      .patch(`/v1/import/docx/jobs/${id}/review`)
      .set(headers(teacher()))
      .send({ sourceText });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const stored = (await detail(id)).parseResultJson;
    expect(stored.questions).to.have.length(1);
    expect(stored.questions[0].correct_answer).to.equal('B');
    expect(stored.warnings.map((w: { code: string }) => w.code)).to.include('DOCX_REVIEW_BASELINE_REPARSE');
    expect(stored.sourceText).to.equal(sourceText);
  });
});
