import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'mocha';
import { startTestService, type TestService } from '../../../kit/test/support/harness.js';
import { testDbName, testMongoUri } from '../../../kit/test/support/servers.js';
import { startExamPeer, type BuiltExamPeer, type RunningPeer } from '../../../peers/src/index.js';
import type { QuestionBankConfig } from '../../../question-bank/src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../../../question-bank/src/service.js';
import {
  ExamClient,
  QuestionBankClient,
  approvalBodySchema,
  approvalKey,
  approveJob,
  type ApprovalClients,
  type ApprovalJob,
  type ApprovalRequest,
} from '../../src/integrations/index.js';
import { parseDocx } from '../../src/parser/index.js';
import { makeDocx } from '../parser/support/build-docx.js';

const TEACHER = { organizationId: 'org-a', userId: 'teacher-1', role: 'TEACHER' };
type Coded = Error & { code?: string; details?: Record<string, unknown> };

async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return url;
}

describe('approval into the question bank and an exam draft', () => {
  let qb: TestService<QuestionBankConfig, BuiltQuestionBank>;
  let exams: RunningPeer<BuiltExamPeer>;
  let clients: ApprovalClients;
  let docxOutput: ApprovalJob['output'];

  const job = (over: Partial<ApprovalJob> = {}): ApprovalJob => ({
    id: `job-${randomUUID()}`,
    fileName: 'de-kiem-tra.docx',
    title: 'Đề kiểm tra',
    output: docxOutput,
    ...over,
  });

  before(async () => {
    qb = await startTestService(questionBankService, { file: import.meta.url });
    exams = await startExamPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_exams', import.meta.url),
      dropDatabaseOnClose: true,
    });
    clients = {
      questionBank: new QuestionBankClient({ baseUrl: qb.url }),
      exams: new ExamClient({ baseUrl: exams.url }),
    };
    const bytes = await makeDocx([
      'Câu 1. Một cộng một bằng mấy?',
      'A. 1',
      '[[r:B. 2]]',
      'C. 3',
      'D. 4',
      'Câu 2. (0,5 điểm) Hai nhân ba bằng mấy?',
      'A. 5',
      'B. 6',
      'Đáp án: B',
      'Câu 3. Tính 2,5 + 2,5.',
      'Đáp án: 5',
    ]);
    docxOutput = parseDocx(bytes);
  });
  after(async () => {
    await exams?.close();
    await qb?.close();
  });

  it('QUESTION_BANK: imports the output with the scope, job, file name and metadata; a retry replays it', async () => {
    const j = job();
    const request: ApprovalRequest = {
      target: 'QUESTION_BANK',
      questionMetadata: { subjectId: 'math', gradeLevel: 10, tags: ['Đại số'] },
    };
    const first = await approveJob(j, request, TEACHER, clients);
    assert.equal(first.target, 'QUESTION_BANK');
    assert.equal(first.approvalKey, approvalKey(request));
    assert.equal(first.questionIds.length, 3);
    assert.equal(first.importedCount, 3);
    const again = await approveJob(j, request, TEACHER, clients);
    assert.deepEqual(again.questionIds, first.questionIds, 'the question bank replays the same import');

    const res = await qb.request
      .get(`/v1/questions/${first.questionIds[0]}`)
      .set({ 'X-Organization-Id': 'org-a', 'X-User-Id': 'teacher-1', 'X-User-Role': 'TEACHER' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const question = res.body.data as Record<string, unknown>;
    const text = JSON.stringify(question);
    assert.ok(text.includes(j.id), 'the question records the import job');
    assert.ok(text.includes('de-kiem-tra.docx'), 'the question records the file name');
    assert.ok(text.includes('Đại số'), 'the tags reached the question');
    assert.equal(question.subjectId, 'math');
  });

  it('EXAM_DRAFT with an exam payload: creates the draft, imports, and stores one snapshot per question', async () => {
    const j = job();
    const request: ApprovalRequest = {
      target: 'EXAM_DRAFT',
      questionMetadata: { subjectId: 'math', gradeLevel: 10 },
      exam: { title: 'Kiểm tra 15 phút', subjectId: 'math', gradeLevel: 10, durationMinutes: 15 },
    };
    const result = await approveJob(j, request, TEACHER, clients);
    assert.ok(result.examId);
    assert.equal(result.examCreated, true);
    assert.equal(result.snapshotCount, 3);
    const exam = await exams.built.Exam.findById(result.examId).lean();
    assert.equal(exam?.status, 'DRAFT');
    assert.equal(exam?.organizationId, 'org-a');
    assert.equal(exam?.title, 'Kiểm tra 15 phút');
    const snaps = exam!.questionSnapshots as Array<Record<string, unknown>>;
    assert.deepEqual(
      snaps.map((s) => s.questionId),
      result.questionIds,
    );
    assert.deepEqual(
      snaps.map((s) => s.orderIndex),
      [1, 2, 3],
    );
    assert.equal(snaps[1]!.score, 0.5, 'points become the score');
    assert.deepEqual(
      snaps[0]!.optionOrder,
      ['A', 'B', 'C', 'D'].map((l) => `${result.questionIds[0]}:${l}`),
    );
    assert.equal(snaps[0]!.correctAnswer, 'B');

    const retry = await approveJob(j, request, TEACHER, clients);
    assert.equal(retry.examId, result.examId, 'a retried approval does not create a second exam');
    assert.equal(await exams.built.Exam.countDocuments({ title: 'Kiểm tra 15 phút' }), 1);
  });

  it('EXAM_DRAFT with an examId: snapshots go to that exam; after a QUESTION_BANK approval the import replays', async () => {
    const j = job();
    const metadata = { subjectId: 'math' };
    const bank = await approveJob(j, { target: 'QUESTION_BANK', questionMetadata: metadata }, TEACHER, clients);
    const created = await clients.exams!.createDraft({ title: 'Đề có sẵn' }, TEACHER);
    const request: ApprovalRequest = { target: 'EXAM_DRAFT', questionMetadata: metadata, examId: created.id };
    const result = await approveJob(j, request, TEACHER, clients);
    assert.equal(result.examId, created.id);
    assert.equal(result.examCreated, false);
    assert.deepEqual(result.questionIds, bank.questionIds);
    assert.notEqual(approvalKey(request), bank.approvalKey);
    const exam = await exams.built.Exam.findById(created.id).lean();
    assert.equal(exam?.questionSnapshots.length, 3);
  });

  it('the question bank takes materialized and package media references as the integrations write them', async () => {
    const assetId = randomUUID();
    const materialized = {
      media_asset_id: assetId,
      url: `/api/storage/media-assets/${assetId}/content`,
      object_key: `uploads/2026-11-23/${randomUUID()}/image1.png`,
      content_type: 'image/png',
      kind: 'image',
      index: 1,
    };
    const kept = {
      media_asset_id: null,
      url: 'word/media/image2.png',
      object_key: 'word/media/image2.png',
      content_type: 'image/png',
      kind: 'image',
      index: 2,
    };
    const output = {
      ...docxOutput,
      questions: docxOutput.questions.map((q, i) => (i === 0 ? { ...q, media: [materialized, kept] } : q)),
    };
    const result = await approveJob(job({ output }), { target: 'QUESTION_BANK' }, TEACHER, clients);
    const res = await qb.request
      .get(`/v1/questions/${result.questionIds[0]}`)
      .set({ 'X-Organization-Id': 'org-a', 'X-User-Id': 'teacher-1', 'X-User-Role': 'TEACHER' });
    const text = JSON.stringify(res.body.data);
    assert.ok(text.includes(assetId), 'the asset id is kept by the question bank');
    assert.ok(text.includes('word/media/image2.png'), 'the package reference is kept too');
  });

  it('upstream refusals are 502 UPSTREAM_ERROR with the peer status; a peer down is 503', async () => {
    await assert.rejects(
      approveJob(
        job(),
        { target: 'QUESTION_BANK' },
        { organizationId: 'org-a', userId: 's1', role: 'STUDENT' },
        clients,
      ),
      (err: Coded) => {
        assert.equal(err.code, 'UPSTREAM_ERROR');
        assert.equal(err.details?.upstreamStatus, 403);
        return true;
      },
    );
    await assert.rejects(
      approveJob(job(), { target: 'EXAM_DRAFT', examId: 'no-such-exam' }, TEACHER, clients),
      (err: Coded) => {
        assert.equal(err.code, 'UPSTREAM_ERROR');
        assert.equal(err.details?.service, 'exam service');
        assert.equal(err.details?.upstreamStatus, 404);
        return true;
      },
    );
    const down = { ...clients, questionBank: new QuestionBankClient({ baseUrl: await deadUrl() }) };
    await assert.rejects(approveJob(job(), { target: 'QUESTION_BANK' }, TEACHER, down), (err: Coded) => {
      assert.equal(err.code, 'DEPENDENCY_UNAVAILABLE');
      return true;
    });
    await assert.rejects(
      approveJob(job(), { target: 'EXAM_DRAFT', examId: 'x' }, TEACHER, { questionBank: clients.questionBank }),
      (err: Coded) => {
        assert.equal(err.code, 'DEPENDENCY_UNAVAILABLE');
        return true;
      },
    );
  });

  it('the same job approved with other metadata is refused by the question bank (409 upstream)', async () => {
    const j = job();
    await approveJob(j, { target: 'QUESTION_BANK', questionMetadata: { tags: ['a'] } }, TEACHER, clients);
    await assert.rejects(
      approveJob(j, { target: 'QUESTION_BANK', questionMetadata: { tags: ['b'] } }, TEACHER, clients),
      (err: Coded) => {
        assert.equal(err.code, 'UPSTREAM_ERROR');
        assert.equal(err.details?.upstreamStatus, 409);
        return true;
      },
    );
  });
});

describe('approval body schema', () => {
  const check = (body: unknown) => approvalBodySchema.validate(body, { abortEarly: false }).error?.message;
  it('takes the contract body and refuses the shapes that cannot be approved', () => {
    assert.equal(
      check({ target: 'QUESTION_BANK', questionMetadata: { subjectId: 'm', gradeLevel: 10, tags: ['a'] } }),
      undefined,
    );
    assert.equal(check({ target: 'EXAM_DRAFT', examId: 'e1' }), undefined);
    assert.equal(check({ target: 'EXAM_DRAFT', exam: { title: 'Đề', durationMinutes: 45 } }), undefined);
    assert.ok(check({ target: 'EXAM_DRAFT' }), 'EXAM_DRAFT needs examId or exam');
    assert.ok(check({ target: 'EXAM_DRAFT', examId: 'e1', exam: { title: 'x' } }), 'not both');
    assert.ok(check({ target: 'QUESTION_BANK', examId: 'e1' }), 'no exam for QUESTION_BANK');
    assert.ok(check({ target: 'SOMEWHERE' }));
    assert.ok(check({ target: 'QUESTION_BANK', questionMetadata: { gradeLevel: 13 } }));
  });
});

describe('approval key', () => {
  it('is the same for the same request whatever the key order, and differs with target, metadata or exam', () => {
    const a = approvalKey({
      target: 'QUESTION_BANK',
      questionMetadata: { subjectId: 's', gradeLevel: 10, tags: ['x'] },
    });
    const b = approvalKey({
      questionMetadata: { tags: ['x'], gradeLevel: 10, subjectId: 's' },
      target: 'QUESTION_BANK',
    } as ApprovalRequest);
    assert.equal(a, b);
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(
      a,
      approvalKey({ target: 'QUESTION_BANK', questionMetadata: { subjectId: 's', gradeLevel: 11, tags: ['x'] } }),
    );
    assert.notEqual(
      approvalKey({ target: 'EXAM_DRAFT', examId: 'e1' }),
      approvalKey({ target: 'EXAM_DRAFT', examId: 'e2' }),
    );
    assert.notEqual(approvalKey({ target: 'QUESTION_BANK' }), approvalKey({ target: 'EXAM_DRAFT', examId: 'e1' }));
  });
});
