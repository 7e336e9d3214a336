import { expect } from 'chai';
import { draftOf, draftRow } from '../src/domain/ai-preview/drafts.js';
import { freshRecord } from '../src/domain/ai-preview/records.js';
import { versionOf } from '../src/domain/questions/rows.js';
import { writerOf } from '../src/domain/questions/scope.js';
import { aiPreviewDraftBody } from '../src/schemas/ai-preview.js';
import { admin, headers, startQuestionBank, teacher, type TestQuestionBank, type Who } from './support.js';

const PATH = '/v1/questions/ai-preview-drafts';

function draftBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    previewId: 'prev-1',
    content: 'Tính đạo hàm của y = x^2',
    options: [{ content: '2x', isCorrect: true }, { content: 'x' }],
    tags: ['Giải tích'],
    provider: 'openai',
    model: 'gpt-4o-mini',
    generationMode: 'SIMILAR',
    sourceMetadata: { promptId: 'p-9', seedQuestionId: 'q-0' },
    ...over,
  };
}

describe('question bank: POST /v1/questions/ai-preview-drafts', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const post = (body: object, who: Who = teacher()) => svc.request.post(PATH).set(headers(who)).send(body);
  const count = (name: string, filter: object = {}) => svc.db.conn.collection(name).countDocuments(filter);
  const records = () => svc.db.conn.collection('ai_preview_records').find({}).toArray();
  const writes = async () => ({
    questions: await count('questions'),
    versions: await count('question_versions'),
    records: await count('ai_preview_records'),
    outbox: await count('outbox'),
  });

  it('returns 201 with a DRAFT forced to source "AI preview", AI_GENERATED and the provenance stored', async () => {
    const res = await post(draftBody({ status: 'PUBLISHED', sourceType: 'MANUAL', source: 'Sách giáo khoa' }));
    expect(res.status).to.equal(201);
    expect(res.body.message).to.equal('AI preview draft created');
    const d = res.body.data;
    expect(d).to.include({ status: 'DRAFT', source: 'AI preview', sourceType: 'AI_GENERATED', createdById: 't1' });
    expect(d.sourceMetadataJson).to.deep.equal({
      aiPreview: {
        previewId: 'prev-1',
        provider: 'openai',
        model: 'gpt-4o-mini',
        generationMode: 'SIMILAR',
        sourceMetadata: { promptId: 'p-9', seedQuestionId: 'q-0' },
      },
    });
    expect(d.options.map((o: { isCorrect: boolean }) => o.isCorrect)).to.deep.equal([true, false]);
    expect(d.currentVersion).to.include({ id: d.currentVersionId, versionNumber: 1 });
    const [record] = await records();
    expect(record).to.include({ organizationId: 'org-a', actorId: 't1', previewId: 'prev-1', questionId: d.id });
    expect(record?.state).to.equal('DONE');
    const entries = await svc.db.conn.collection('outbox').find({ key: d.id }).toArray();
    expect(entries).to.have.length(1);
    const event = JSON.parse(entries[0]!.envelope as string);
    expect(event.data).to.include({ questionId: d.id, operation: 'UPSERT', sourceVersion: 1 });
    expect(event.data.document).to.include({ status: 'DRAFT', sourceType: 'AI_GENERATED', source: 'AI preview' });
    expect(event.data.document).to.not.have.property('sourceMetadataJson');
  });

  it('replays the same reviewed payload (keys in another order) with 200 and the original draft, writing nothing', async () => {
    const first = await post(draftBody()).expect(201);
    const before = await writes();
    const { sourceMetadata, ...rest } = draftBody();
    const reordered = { sourceMetadata: { seedQuestionId: 'q-0', promptId: 'p-9' }, ...rest };
    const again = await post(reordered);
    expect(again.status).to.equal(200);
    expect(again.body.message).to.equal('AI preview draft already created');
    expect(again.body.data.id).to.equal(first.body.data.id);
    expect(again.body.data.currentVersionId).to.equal(first.body.data.currentVersionId);
    expect(await writes()).to.deep.equal(before);
    expect(sourceMetadata).to.be.an('object');
  });

  it('answers 400 AI_PREVIEW_CONFLICT for the same previewId with other content or provenance, writing nothing', async () => {
    const first = await post(draftBody()).expect(201);
    const before = await writes();
    for (const over of [{ content: 'Khác' }, { model: 'gpt-4o' }, { tags: [] }, { sourceMetadata: null }]) {
      const res = await post(draftBody(over));
      expect(res.status, JSON.stringify(over)).to.equal(400);
      expect(res.body.error.code).to.equal('AI_PREVIEW_CONFLICT');
      expect(res.body.error.details).to.deep.equal({ previewId: 'prev-1', questionId: first.body.data.id });
    }
    expect(await writes()).to.deep.equal(before);
  });

  it('scopes the previewId per actor and per organization: each gets its own new draft', async () => {
    const mine = await post(draftBody()).expect(201);
    const other = await post(draftBody({ content: 'Khác' }), teacher('t2')).expect(201);
    const otherOrg = await post(draftBody(), teacher('t1', 'org-b')).expect(201);
    const ids = new Set([mine.body.data.id, other.body.data.id, otherOrg.body.data.id]);
    expect(ids.size).to.equal(3);
    expect(otherOrg.body.data.organizationId).to.equal('org-b');
    expect(await count('ai_preview_records')).to.equal(3);
  });

  it('frees the previewId when the draft is hard-deleted', async () => {
    const first = await post(draftBody()).expect(201);
    const del = await svc.request.delete(`/v1/questions/${first.body.data.id}`).set(headers(teacher()));
    expect(del.body.data).to.deep.include({ deleted: true, archived: false });
    expect(await count('ai_preview_records')).to.equal(0);
    const again = await post(draftBody({ content: 'Nội dung mới' }));
    expect(again.status).to.equal(201);
    expect(again.body.data.id).to.not.equal(first.body.data.id);
    expect(again.body.data.content).to.equal('Nội dung mới');
  });

  it('frees the previewId when the archived draft is permanently deleted', async () => {
    const first = await post(draftBody()).expect(201);
    const id = first.body.data.id as string;
    await svc.request
      .patch('/v1/questions/bulk-status')
      .set(headers(teacher()))
      .send({ ids: [id], status: 'ARCHIVED' })
      .expect(200);
    const del = await svc.request
      .post('/v1/questions/permanent-delete')
      .set(headers(teacher()))
      .send({ ids: [id] });
    expect(del.status).to.equal(200);
    expect(del.body.data).to.include({ deleted: 1 });
    expect(await count('ai_preview_records')).to.equal(0);
    const again = await post(draftBody({ content: 'Nội dung mới' }));
    expect(again.status).to.equal(201);
    expect(again.body.data.id).to.not.equal(id);
  });

  it('keeps the previewId when the draft is archived (by DELETE of a used question or by status)', async () => {
    const used = await post(draftBody()).expect(201);
    await svc.request
      .put('/v1/questions/usage-counts')
      .set(headers(admin()))
      .send({ items: [{ questionId: used.body.data.id, examItems: 1, attemptItems: 0, answers: 0 }] })
      .expect(200);
    const del = await svc.request.delete(`/v1/questions/${used.body.data.id}`).set(headers(teacher()));
    expect(del.body.data).to.deep.include({ deleted: false, archived: true });
    const replay = await post(draftBody());
    expect(replay.status).to.equal(200);
    expect(replay.body.data).to.include({ id: used.body.data.id, status: 'ARCHIVED' });
    expect((await post(draftBody({ content: 'Khác' }))).status).to.equal(400);

    const byStatus = await post(draftBody({ previewId: 'prev-2' })).expect(201);
    await svc.request
      .patch('/v1/questions/bulk-status')
      .set(headers(teacher()))
      .send({ ids: [byStatus.body.data.id], status: 'ARCHIVED' })
      .expect(200);
    expect((await post(draftBody({ previewId: 'prev-2' }))).body.data.id).to.equal(byStatus.body.data.id);
  });

  it('gives concurrent identical requests one draft: one 201, the others 200 with the same id', async () => {
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => post(draftBody())));
    expect(all.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 201]);
    expect(new Set(all.map((r) => r.body.data.id)).size).to.equal(1);
    expect(await writes()).to.deep.equal({ questions: 1, versions: 1, records: 1, outbox: 1 });
  });

  describe('a retry after a crash', () => {
    const w = writerOf({ userId: 't1', role: 'TEACHER', organizationId: 'org-a' });
    const pending = (body = draftBody()) => {
      // As the route sees it: validated, with the schema's defaults.
      const draft = draftOf(aiPreviewDraftBody.validate(body).value as never);
      const record = freshRecord(svc.built.deps, w, { kind: 'DRAFT', previewId: 'prev-1', digest: draft.digest });
      return { draft, record };
    };

    it('finishes a draft whose record was written but not its question (201, the pre-allocated ids)', async () => {
      const { record } = pending();
      await svc.db.conn.collection('ai_preview_records').insertOne(record as never);
      const res = await post(draftBody());
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ id: record.questionId, currentVersionId: record.versionId });
      expect(await writes()).to.deep.equal({ questions: 1, versions: 1, records: 1, outbox: 1 });
      expect((await records())[0]?.state).to.equal('DONE');
    });

    it('finishes a draft whose record and version were written but not its question (one version)', async () => {
      const { draft, record } = pending();
      await svc.db.conn.collection('ai_preview_records').insertOne(record as never);
      const row = draftRow(w, record, draft.question);
      await svc.db.conn.collection('question_versions').insertOne(versionOf(row, w, row.createdAt) as never);
      const res = await post(draftBody());
      expect(res.status).to.equal(201);
      expect(res.body.data.currentVersion.id).to.equal(record.versionId);
      expect(res.body.data.options.map((o: { id: string }) => o.id)).to.deep.equal(row.options.map((o) => o.id));
      expect(await count('question_versions', { questionId: record.questionId })).to.equal(1);
    });

    it('still refuses other content for a half-written record (400), writing nothing', async () => {
      const { record } = pending();
      await svc.db.conn.collection('ai_preview_records').insertOne(record as never);
      expect((await post(draftBody({ content: 'Khác' }))).status).to.equal(400);
      expect(await count('questions')).to.equal(0);
    });

    it('drops a finished record whose question is gone and makes a new draft', async () => {
      const { record } = pending();
      await svc.db.conn.collection('ai_preview_records').insertOne({ ...record, state: 'DONE' } as never);
      const res = await post(draftBody({ content: 'Khác' }));
      expect(res.status).to.equal(201);
      expect(res.body.data.id).to.not.equal(record.questionId);
      expect(await count('ai_preview_records')).to.equal(1);
    });
  });

  describe('refusals', () => {
    const cases: Array<[string, unknown]> = [
      ['no previewId', draftBody({ previewId: undefined })],
      ['a previewId with spaces', draftBody({ previewId: 'a b' })],
      ['an over-long previewId', draftBody({ previewId: 'x'.repeat(129) })],
      ['no content', draftBody({ content: undefined })],
      ['blank content', draftBody({ content: '   ' })],
      ['sourceMetadataJson (provenance has its own fields)', draftBody({ sourceMetadataJson: { a: 1 } })],
      ['a non-object sourceMetadata', draftBody({ sourceMetadata: 'x' })],
      ['an over-long model', draftBody({ model: 'm'.repeat(201) })],
      ['an unknown status value', draftBody({ status: 'LIVE' })],
      ['an unknown field', draftBody({ foo: 1 })],
      ['an array body', [draftBody()]],
    ];
    for (const [name, body] of cases) {
      it(`answers 400 VALIDATION_ERROR for ${name}, writing nothing`, async () => {
        const res = await post(body as object);
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(await writes()).to.deep.equal({ questions: 0, versions: 0, records: 0, outbox: 0 });
      });
    }

    it('answers 400 for malformed JSON, 403 for a STUDENT, 401 without actor, 400 without organization', async () => {
      const bad = await svc.request
        .post(PATH)
        .set(headers(teacher()))
        .set('Content-Type', 'application/json')
        .send('{');
      expect(bad.status).to.equal(400);
      expect((await post(draftBody(), { userId: 's1', role: 'STUDENT', organizationId: 'org-a' })).status).to.equal(
        403,
      );
      expect((await post(draftBody(), { role: 'TEACHER', organizationId: 'org-a' })).status).to.equal(401);
      expect((await post(draftBody(), { userId: 't1', role: 'TEACHER' })).status).to.equal(400);
      expect(await writes()).to.deep.equal({ questions: 0, versions: 0, records: 0, outbox: 0 });
    });

    it('answers 404 FOLDER_NOT_FOUND for a folder outside the scope, writing nothing', async () => {
      const res = await post(draftBody({ folderId: 'no-such-folder' }));
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('FOLDER_NOT_FOUND');
      expect(await writes()).to.deep.equal({ questions: 0, versions: 0, records: 0, outbox: 0 });
    });

    it('answers 405 for GET on the fixed path (not taken for a question id)', async () => {
      expect((await svc.request.get(PATH).set(headers(teacher()))).status).to.equal(405);
    });
  });
});
