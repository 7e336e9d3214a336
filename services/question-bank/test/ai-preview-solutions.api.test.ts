import { expect } from 'chai';
import { freshRecord } from '../src/domain/ai-preview/records.js';
import { solvedBody } from '../src/domain/ai-preview/solution-body.js';
import { solutionDigest } from '../src/domain/ai-preview/solutions.js';
import { versionOf } from '../src/domain/questions/rows.js';
import { writerOf } from '../src/domain/questions/scope.js';
import type { QuestionRow } from '../src/store/question-models.js';
import { aiPreviewSolutionBody } from '../src/schemas/ai-preview.js';
import {
  admin,
  choiceBody,
  createAs,
  headers,
  startQuestionBank,
  teacher,
  type TestQuestionBank,
  type Who,
} from './support.js';

const PATH = '/v1/questions/ai-preview-solutions';

function solutionBody(questionId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    questionId,
    previewId: 'sol-1',
    provider: 'openai',
    model: 'gpt-4o-mini',
    solution: {
      explanation: 'Chuyển vế: x = 2 - 1\nVậy x = 1',
      answerKeys: { correctLabels: ['A'] },
    },
    ...over,
  };
}

describe('question bank: POST /v1/questions/ai-preview-solutions', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const post = (body: object, who: Who = teacher()) => svc.request.post(PATH).set(headers(who)).send(body);
  const count = (name: string, filter: object = {}) => svc.db.conn.collection(name).countDocuments(filter);
  const stored = (id: string) => svc.db.conn.collection('questions').findOne({ _id: id as never });
  const writes = async (id: string) => ({
    versions: await count('question_versions', { questionId: id }),
    records: await count('ai_preview_records'),
    outbox: await count('outbox', { key: id }),
    searchVersion: (await stored(id))?.searchVersion as number,
  });
  const published = () => createAs(svc, teacher(), choiceBody({ status: 'PUBLISHED' }));

  it('appends a version, moves currentVersionId, keeps status, source and provenance, and writes its event', async () => {
    const q = (
      await svc.request
        .post('/v1/questions/ai-preview-drafts')
        .set(headers(teacher()))
        .send({
          previewId: 'd-1',
          content: 'Câu AI',
          options: [{ content: 'a' }, { content: 'b' }],
          provider: 'openai',
        })
        .expect(201)
    ).body.data;
    const res = await post(
      solutionBody(q.id, { solution: { explanation: 'Vì a đúng', answerKeys: { correctLabels: ['B'] } } }),
    );
    expect(res.status).to.equal(200);
    expect(res.body.message).to.equal('AI preview solution applied');
    const d = res.body.data;
    expect(d).to.include({
      id: q.id,
      status: 'DRAFT',
      source: 'AI preview',
      sourceType: 'AI_GENERATED',
      explanation: 'Vì a đúng',
    });
    expect(d.sourceMetadataJson).to.deep.equal(q.sourceMetadataJson);
    expect(d.currentVersionId).to.not.equal(q.currentVersionId);
    expect(d.currentVersion).to.include({ id: d.currentVersionId, versionNumber: 2, explanation: 'Vì a đúng' });
    expect(d.options.map((o: { isCorrect: boolean }) => o.isCorrect)).to.deep.equal([false, true]);
    expect(d.answerKeys).to.deep.equal({ correctLabels: ['B'], correctOptionIds: [d.options[1].id] });
    expect(d.explanationJson).to.deep.include({
      source: 'ai-preview',
      previewId: 'sol-1',
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    expect(d.explanationJson.steps).to.deep.equal([{ order: 1, title: null, content: 'Vì a đúng' }]);
    expect(d.explanationJson.type).to.equal('doc');
    expect(await count('question_versions', { questionId: q.id })).to.equal(2);
    const events = (await svc.db.conn.collection('outbox').find({ key: q.id }).sort({ seq: 1 }).toArray()).map(
      (e) => JSON.parse(e.envelope as string).data,
    );
    expect(events.map((e) => e.sourceVersion)).to.deep.equal([1, 2]);
    expect(events[1].document).to.include({ currentVersionId: d.currentVersionId, status: 'DRAFT' });
  });

  it('never publishes and never unpublishes: a PUBLISHED question stays PUBLISHED', async () => {
    const q = await published();
    const res = await post(
      solutionBody(q.id, {
        solution: { explanation: 'x', steps: ['Bước 1', { title: 'Kết luận', content: ' x = 1 ' }, ''] },
      }),
    );
    expect(res.status).to.equal(200);
    expect(res.body.data.status).to.equal('PUBLISHED');
    expect(res.body.data.source).to.equal(q.source);
    expect(res.body.data.sourceType).to.equal('MANUAL');
    expect(res.body.data.explanationJson.steps).to.deep.equal([
      { order: 1, title: null, content: 'Bước 1' },
      { order: 2, title: 'Kết luận', content: 'x = 1' },
    ]);
  });

  it('replays the same preview with 200 and no new version; another solution for it is 400 AI_PREVIEW_CONFLICT', async () => {
    const q = await published();
    const first = await post(solutionBody(q.id)).expect(200);
    const before = await writes(q.id);
    const replay = await post(solutionBody(q.id));
    expect(replay.status).to.equal(200);
    expect(replay.body.message).to.equal('AI preview solution already applied');
    expect(replay.body.data.currentVersionId).to.equal(first.body.data.currentVersionId);
    const other = await published();
    for (const body of [
      solutionBody(q.id, { solution: { explanation: 'Lời giải khác' } }),
      solutionBody(q.id, { model: 'gpt-4o' }),
      solutionBody(other.id),
    ]) {
      const res = await post(body);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('AI_PREVIEW_CONFLICT');
    }
    expect(await writes(q.id)).to.deep.equal(before);
    expect(await count('question_versions', { questionId: other.id })).to.equal(1);
  });

  it("refuses another teacher's or organization's question with 404 QUESTION_NOT_FOUND before any write", async () => {
    const q = await published();
    const before = await writes(q.id);
    for (const who of [teacher('t2'), admin('a9', 'org-b'), teacher('t1', 'org-b')]) {
      const res = await post(solutionBody(q.id), who);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('QUESTION_NOT_FOUND');
    }
    expect(await writes(q.id)).to.deep.equal(before);
    const byAdmin = await post(solutionBody(q.id), admin());
    expect(byAdmin.status).to.equal(200);
    expect(byAdmin.body.data.currentVersion.createdById).to.equal('a1');
    expect(byAdmin.body.data.createdById).to.equal('t1');
  });

  it('answers 404 for a removed or unknown question, writing nothing', async () => {
    const q = await published();
    await svc.request.delete(`/v1/questions/${q.id}`).set(headers(teacher())).expect(200);
    expect((await post(solutionBody(q.id))).status).to.equal(404);
    expect((await post(solutionBody('no-such-question'))).status).to.equal(404);
    expect(await count('ai_preview_records')).to.equal(0);
  });

  it('sets TRUE_FALSE_GROUP booleans and refuses options or sub-items the question lacks (400, nothing written)', async () => {
    const subItems = ['A', 'B', 'C', 'D'].map((label) => ({ label, content: `Ý ${label}`, correctBoolean: false }));
    const group = await createAs(svc, teacher(), { content: 'Nhóm', type: 'TRUE_FALSE_GROUP', subItems });
    const ok = await post(
      solutionBody(group.id, { solution: { explanation: 'x', correctBooleans: { A: true, C: true } } }),
    );
    expect(ok.status).to.equal(200);
    expect(ok.body.data.subItems.map((s: { correctBoolean: boolean }) => s.correctBoolean)).to.deep.equal([
      true,
      false,
      true,
      false,
    ]);
    const q = await published();
    const before = await writes(q.id);
    for (const solution of [
      { explanation: 'x', answerKeys: { correctLabels: ['Z'] } },
      { explanation: 'x', answerKeys: { correctOptionIds: ['nope'] } },
      { explanation: 'x', correctBooleans: { A: true } },
    ]) {
      const res = await post(solutionBody(q.id, { previewId: 'sol-bad', solution }));
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect(await writes(q.id)).to.deep.equal(before);
  });

  it('refuses (409) a solution that would break a PUBLISHED single choice, writing nothing', async () => {
    const q = await published();
    const before = await writes(q.id);
    const res = await post(
      solutionBody(q.id, { solution: { explanation: 'x', answerKeys: { correctLabels: ['A', 'B'] } } }),
    );
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('QUESTION_PUBLISH_CONFLICT');
    expect(await writes(q.id)).to.deep.equal(before);
  });

  it('gives concurrent identical requests one new version', async () => {
    const q = await published();
    const all = await Promise.all([1, 2, 3, 4].map(() => post(solutionBody(q.id))));
    expect(all.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    expect(new Set(all.map((r) => r.body.data.currentVersionId)).size).to.equal(1);
    expect(await count('question_versions', { questionId: q.id })).to.equal(2);
  });

  it('hard delete of the question removes its solution records', async () => {
    const q = await createAs(svc, teacher());
    await post(solutionBody(q.id, { solution: { explanation: 'x' } })).expect(200);
    expect(await count('ai_preview_records', { questionId: q.id })).to.equal(1);
    await svc.request.delete(`/v1/questions/${q.id}`).set(headers(teacher())).expect(200);
    expect(await count('ai_preview_records', { questionId: q.id })).to.equal(0);
  });

  describe('a retry after a crash', () => {
    const w = writerOf({ userId: 't1', role: 'TEACHER', organizationId: 'org-a' });
    const pendingFor = async (q: { id: string }) => {
      const body = aiPreviewSolutionBody.validate(solutionBody(q.id)).value;
      const record = freshRecord(svc.built.deps, w, {
        kind: 'SOLUTION',
        previewId: 'sol-1',
        digest: solutionDigest(body),
        questionId: q.id,
      });
      await svc.db.conn.collection('ai_preview_records').insertOne(record as never);
      return { body, record };
    };

    it('applies a solution whose record was written but not its version', async () => {
      const q = await published();
      const { record } = await pendingFor(q);
      const res = await post(solutionBody(q.id));
      expect(res.status).to.equal(200);
      expect(res.body.data.currentVersionId).to.equal(record.versionId);
      expect(await count('ai_preview_records', { state: 'DONE' })).to.equal(1);
    });

    it('moves to the version a crash left behind instead of writing a second one', async () => {
      const q = await published();
      const { body, record } = await pendingFor(q);
      const row = (await stored(q.id)) as unknown as QuestionRow;
      const next = { ...row, ...solvedBody(row, body), currentVersionId: record.versionId, versionNumber: 2 };
      await svc.db.conn.collection('question_versions').insertOne(versionOf(next, w, new Date()) as never);
      const res = await post(solutionBody(q.id));
      expect(res.status).to.equal(200);
      expect(res.body.data.currentVersion).to.include({ id: record.versionId, versionNumber: 2 });
      expect(await count('question_versions', { questionId: q.id })).to.equal(2);
      expect((await stored(q.id))?.searchVersion).to.equal(2);
    });
  });

  describe('refusals', () => {
    const cases: Array<[string, (id: string) => unknown]> = [
      ['no questionId', (id) => solutionBody(id, { questionId: undefined })],
      ['no previewId', (id) => solutionBody(id, { previewId: undefined })],
      ['no solution', (id) => solutionBody(id, { solution: undefined })],
      ['a solution without explanation', (id) => solutionBody(id, { solution: { answerKeys: {} } })],
      ['a blank explanation', (id) => solutionBody(id, { solution: { explanation: '  ' } })],
      ['a solution that is a string', (id) => solutionBody(id, { solution: 'x = 1' })],
      ['an unknown solution field', (id) => solutionBody(id, { solution: { explanation: 'x', status: 'PUBLISHED' } })],
      [
        'a sub-item label E',
        (id) => solutionBody(id, { solution: { explanation: 'x', correctBooleans: { E: true } } }),
      ],
      ['an empty correctBooleans', (id) => solutionBody(id, { solution: { explanation: 'x', correctBooleans: {} } })],
      [
        'duplicate correct labels',
        (id) => solutionBody(id, { solution: { explanation: 'x', answerKeys: { correctLabels: ['A', 'A'] } } }),
      ],
      ['too many steps', (id) => solutionBody(id, { solution: { explanation: 'x', steps: Array(51).fill('s') } })],
      ['a numeric previewId', (id) => solutionBody(id, { previewId: 7 })],
    ];
    for (const [name, body] of cases) {
      it(`answers 400 VALIDATION_ERROR for ${name}, writing nothing`, async () => {
        const q = await published();
        const before = await writes(q.id);
        const res = await post(body(q.id) as object);
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(await writes(q.id)).to.deep.equal(before);
      });
    }

    it('answers 403 for a STUDENT and 405 for GET', async () => {
      const q = await published();
      expect(
        (await post(solutionBody(q.id), { userId: 's', role: 'STUDENT', organizationId: 'org-a' })).status,
      ).to.equal(403);
      expect((await svc.request.get(PATH).set(headers(teacher()))).status).to.equal(405);
    });
  });
});
