import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import supertest from 'supertest';
import { testDbName, testMongoUri } from '../../kit/test/support/servers.js';
import { startExamPeer, type BuiltExamPeer, type RunningPeer } from '../src/index.js';

const ORG = { 'X-Organization-Id': 'org-a', 'X-User-Id': 'teacher-1' };

function snapshot(questionId: string, orderIndex: number) {
  return {
    questionId,
    orderIndex,
    score: 1,
    type: 'SINGLE_CHOICE',
    content: `Câu ${orderIndex}`,
    options: [
      { id: `${questionId}:A`, label: 'A', content: '1' },
      { id: `${questionId}:B`, label: 'B', content: '2' },
    ],
    optionOrder: [`${questionId}:A`, `${questionId}:B`],
    scoringRule: { mode: 'EXACT', maxScore: 1 },
  };
}

describe('peer exam service', () => {
  let peer: RunningPeer<BuiltExamPeer>;
  let http: ReturnType<typeof supertest>;

  before(async () => {
    peer = await startExamPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_exams', import.meta.url),
      dropDatabaseOnClose: true,
    });
    http = supertest(peer.url);
  });
  after(async () => peer?.close());

  it('creates a draft exam; a retry with the same Idempotency-Key answers the same exam', async () => {
    const body = { title: 'Kiểm tra 15 phút', subjectId: 'math', gradeLevel: 10, durationMinutes: 15 };
    const first = await http.post('/v1/exams').set(ORG).set('Idempotency-Key', 'approve-1').send(body);
    assert.equal(first.status, 201);
    assert.equal(first.body.data.status, 'DRAFT');
    assert.equal(first.body.data.organizationId, 'org-a');
    const retry = await http.post('/v1/exams').set(ORG).set('Idempotency-Key', 'approve-1').send(body);
    assert.equal(retry.body.data.id, first.body.data.id);
    const other = await http.post('/v1/exams').set(ORG).send(body);
    assert.notEqual(other.body.data.id, first.body.data.id);
    assert.equal(await peer.built.Exam.countDocuments({ title: body.title }), 2);
  });

  it('replaces question snapshots idempotently and shows them on the exam', async () => {
    const exam = (await http.post('/v1/exams').set(ORG).send({ title: 'Đề 1' })).body.data as { id: string };
    const path = `/v1/exams/${exam.id}/question-snapshots`;
    const three = [snapshot('q-1', 1), snapshot('q-2', 2), snapshot('q-3', 3)];
    assert.equal((await http.put(path).set(ORG).send({ snapshots: three })).body.data.count, 3);
    const again = await http.put(path).set(ORG).send({ snapshots: three });
    assert.equal(again.status, 200);
    const two = await http
      .put(path)
      .set(ORG)
      .send({ snapshots: three.slice(0, 2) });
    assert.equal(two.body.data.count, 2);
    const got = await http.get(`/v1/exams/${exam.id}`).set(ORG);
    assert.deepEqual(
      (got.body.data.questionSnapshots as Array<{ questionId: string }>).map((s) => s.questionId),
      ['q-1', 'q-2'],
    );
  });

  it('refuses other organizations, missing scope and malformed snapshots with 4xx', async () => {
    const exam = (await http.post('/v1/exams').set(ORG).send({ title: 'Đề 2' })).body.data as { id: string };
    const path = `/v1/exams/${exam.id}/question-snapshots`;
    assert.equal((await http.get(`/v1/exams/${exam.id}`).set({ 'X-Organization-Id': 'org-b' })).status, 404);
    assert.equal((await http.put(path).set({ 'X-Organization-Id': 'org-b' }).send({ snapshots: [] })).status, 404);
    assert.equal((await http.post('/v1/exams').send({ title: 'x' })).status, 400);
    const bad = await http
      .put(path)
      .set(ORG)
      .send({ snapshots: [{ questionId: 'q' }] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
    assert.equal((await http.put('/v1/exams/nope/question-snapshots').set(ORG).send({ snapshots: [] })).status, 404);
  });

  describe("with the internal and the DOCX workers' tokens", () => {
    let guarded: RunningPeer<BuiltExamPeer>;
    let api: ReturnType<typeof supertest>;
    const worker = { ...ORG, 'X-Internal-Token': 'worker-secret-0123456789' };

    before(async () => {
      guarded = await startExamPeer({
        mongoUri: testMongoUri(),
        dbName: testDbName('peer_exams_guarded', import.meta.url),
        dropDatabaseOnClose: true,
        internalToken: 'internal-secret-0123456789',
        workerToken: 'worker-secret-0123456789',
      });
      api = supertest(guarded.url);
    });
    after(async () => guarded?.close());

    it('takes the worker token on the two calls of auto-approval (create, then PUT the snapshots), nowhere else', async () => {
      const created = await api.post('/v1/exams').set(worker).send({ title: 'Đề tự duyệt' });
      assert.equal(created.status, 201);
      const id = (created.body.data as { id: string }).id;
      const put = await api
        .put(`/v1/exams/${id}/question-snapshots`)
        .set(worker)
        .send({ snapshots: [snapshot('q-1', 1)] });
      assert.equal(put.status, 200);
      assert.equal(put.body.data.count, 1);
      const read = await api.get(`/v1/exams/${id}`).set(worker);
      assert.equal(read.status, 403);
      assert.equal(read.body.error.code, 'FORBIDDEN');
      const internal = await api
        .get(`/v1/exams/${id}`)
        .set({ ...ORG, 'X-Internal-Token': 'internal-secret-0123456789' });
      assert.equal(internal.status, 200);
      assert.equal((await api.get(`/v1/exams/${id}`).set({ ...ORG, 'X-Internal-Token': 'guess' })).status, 401);
    });
  });
});
