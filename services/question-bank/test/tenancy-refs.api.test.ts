// Issue 20, as an attacker tries it: a teacher of school A names school B's passage group, folder,
// question type or taxonomy ref in its own questions, hoping hydration hands B's data back.
import { expect } from 'chai';
import { choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

const A = teacher('ta', 'org-a');
const B = teacher('tb', 'org-b');
const SECRET = 'Đoạn văn đề thi chưa công bố của trường B';

describe('tenancy: a question references rows of its own organization only (issue 20)', () => {
  let svc: TestQuestionBank;
  const b: Record<string, string> = {};
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
    const post = (path: string, body: object) => svc.request.post(path).set(headers(B)).send(body).expect(201);
    b.group = (await post('/v1/question-groups', { title: 'Bí mật', contentText: SECRET })).body.data.id;
    b.folder = (await post('/v1/question-folders', { name: 'B', visibility: 'ORGANIZATION' })).body.data.id;
    b.type = (await post('/v1/question-types', { code: 'TL_B', name: 'Tự luận B', baseType: 'ESSAY' })).body.data.id;
    const ref = { id: 'topic-b', kind: 'TOPIC', code: 'T', name: 'Chủ đề B' };
    await svc.request
      .put('/v1/taxonomy/refs')
      .set(headers(B))
      .send({ items: [ref] })
      .expect(200);
  });
  after(() => svc.close());

  const create = (body: Record<string, unknown>) =>
    svc.request.post('/v1/questions').set(headers(A)).send(choiceBody(body));

  it('refuses another organization passage group on create, update and AI draft with 404', async () => {
    const created = await create({ groupId: b.group });
    expect(created.status).to.equal(404);
    expect(created.body.error.code).to.equal('QUESTION_GROUP_NOT_FOUND');
    expect(JSON.stringify(created.body)).to.not.contain(SECRET);
    const mine = await createAs(svc, A);
    const patched = await svc.request.patch(`/v1/questions/${mine.id}`).set(headers(A)).send({ groupId: b.group });
    expect(patched.status).to.equal(404);
    const draft = await svc.request
      .post('/v1/questions/ai-preview-drafts')
      .set(headers(A))
      .send(choiceBody({ previewId: 'p-1', groupId: b.group }));
    expect(draft.status).to.equal(404);
    const detail = await svc.request.get(`/v1/questions/${mine.id}`).set(headers(A)).expect(200);
    expect(detail.body.data.group).to.equal(null);
  });

  it('refuses another organization folder, type definition and taxonomy ref', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ folderId: b.folder }, 'FOLDER_NOT_FOUND'],
      [{ customTypeId: b.type }, 'QUESTION_TYPE_NOT_FOUND'],
      [{ topicId: 'topic-b' }, 'TAXONOMY_REF_NOT_FOUND'],
    ];
    for (const [body, code] of cases) {
      const res = await create(body);
      expect(res.status, code).to.equal(404);
      expect(res.body.error.code).to.equal(code);
    }
    // A taxonomy id the read model does not hold yet is accepted (backfills come later).
    expect((await create({ topicId: 'topic-not-yet-backfilled' })).status).to.equal(201);
    const question = { id: 'q1', content: 'Câu 1' };
    const ingest = await svc.request
      .post('/v1/questions/import-docx-output')
      .set(headers(A))
      .send({ document_id: 'd1', latency_ms: 1, warnings: [], stats: {}, subjectId: 'topic-b', questions: [question] });
    expect(ingest.status).to.equal(404);
  });

  it('never hydrates another organization rows, even for a question stored with them', async () => {
    const mine = await createAs(svc, A);
    // A row written before issue 20 was fixed: it names B's group, folder, type and topic.
    await svc.db.conn.collection('questions').updateOne({ _id: mine.id } as never, {
      $set: { groupId: b.group, folderId: b.folder, customTypeId: b.type, topicId: 'topic-b' },
    });
    for (const path of [`/v1/questions/${mine.id}`, `/v1/legacy/questions/${mine.id}?view=editor`]) {
      const res = await svc.request.get(path).set(headers(A)).expect(200);
      expect(JSON.stringify(res.body), path).to.not.contain(SECRET);
      expect(JSON.stringify(res.body), path).to.not.contain('Chủ đề B');
      expect(JSON.stringify(res.body), path).to.not.contain('Tự luận B');
    }
    const listed = await svc.request.get('/v1/questions').set(headers(A)).expect(200);
    const item = listed.body.data.items.find((q: { id: string }) => q.id === mine.id);
    expect(item).to.include({ group: null, folder: null, customType: null, topic: null });
  });
});
