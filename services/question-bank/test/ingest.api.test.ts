import { expect } from 'chai';
import { makeExam } from '../../../bench/docx-parse/make-exam.js';
import { parseDocx } from '../../document-import/src/parser/index.js';
import { ingestDocxOutput, type IngestStep } from '../src/domain/ingest/ingest.js';
import type { IngestInput } from '../src/domain/ingest/types.js';
import { ingestBody } from '../src/schemas/ingest.js';
import { headers, startQuestionBank, teacher, type TestQuestionBank, type Who } from './support.js';

const PATH = '/v1/questions/import-docx-output';
type Body = Record<string, unknown>;

function smallDoc(over: Body = {}): Body {
  return {
    document_id: 'docx-abc',
    latency_ms: 10,
    questions: [
      {
        id: 'q1',
        number: 1,
        part: 'I',
        group_id: 'g2',
        type: 'DGNL_SINGLE_CHOICE',
        content: 'Theo đoạn văn, $x^2$ bằng? [[media:1]]',
        options: ['A', 'B', 'C', 'D'].map((label) => ({ label, content: `Phương án ${label}` })),
        sub_items: [],
        correct_answer: 'C',
        correct_answer_numeric: null,
        solution: 'Vì $x^2$',
        formulas: [{ latex: 'x^2', html: '<i>x</i><sup>2</sup>' }],
        media: [
          {
            media_asset_id: 'asset-1',
            url: 'https://cdn.example/a.png?sig=s3cr3t',
            object_key: 'docs/a.png',
            content_type: 'image/png',
            kind: 'image',
            index: 1,
          },
        ],
        source_location: { paragraph_start: 3, paragraph_end: 5, answer_evidence: 'ANSWER_LINE', answer_style: null },
      },
      {
        id: 'q2',
        group_id: 'g1',
        type: 'TRUE_FALSE_GROUP',
        content: 'Xét các mệnh đề.',
        sub_items: ['a', 'b', 'c', 'd'].map((label) => ({ label, content: `Mệnh đề ${label}`, correct_boolean: null })),
        correct_answer: 'a:Đúng;b:Sai;c:Đúng;d:Sai',
      },
      { id: 'q3', preset_code: 'PART_III', content: 'Tính.', correct_answer: '-2,5', correct_answer_numeric: -2.5 },
      { id: 'q4', type: 'SINGLE_CHOICE', content: 'Thiếu phương án', options: [{ label: 'A', content: '1' }] },
    ],
    groups: [
      {
        group_id: 'g1',
        kind: 'PART',
        parent_group_id: null,
        part: 'I',
        title: 'PHẦN I',
        from: null,
        to: null,
        content: '',
      },
      {
        group_id: 'g2',
        kind: 'PASSAGE',
        parent_group_id: 'g1',
        part: 'I',
        title: 'Đọc đoạn văn sau',
        from: 1,
        to: 1,
        content: 'Ngày xưa...',
      },
    ],
    warnings: [{ code: 'DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED', message: '1 answer from red runs' }],
    stats: { total_questions: 4 },
    subjectId: 'physics',
    gradeLevel: 11,
    sourceFileName: 'de-thi-ly.docx',
    sourceImportJobId: 'job-1',
    sourceMetadataJson: { approvedById: 't1', approvedAt: '2025-01-01T00:00:00Z' },
    tags: ['Đề thi', 'Đề thi '],
    ...over,
  };
}

async function bigDoc(): Promise<IngestInput> {
  return parseDocx(await makeExam(120), { documentId: 'docx-exam-120' }) as unknown as IngestInput;
}

describe('POST /v1/questions/import-docx-output', () => {
  let svc: TestQuestionBank;
  const post = (body: Body, who: Who = teacher(), key?: string) => {
    const r = svc.request.post(PATH).set(headers(who));
    return (key === undefined ? r : r.set('Idempotency-Key', key)).send(body);
  };
  const col = (name: string) => svc.db.conn.collection(name);
  const eventsFor = async (ids: string[]) => {
    const moved = await col('outbox').countDocuments({ key: { $in: ids } });
    const waiting = await col('questions')
      .find({ _id: { $in: ids } } as never, { projection: { _outbox: 1 } })
      .toArray();
    return moved + waiting.reduce((n, d) => n + ((d._outbox as unknown[] | undefined)?.length ?? 0), 0);
  };
  const visible = async (who: Who, jobId: string) => {
    const res = await svc.request
      .get('/v1/questions')
      .set(headers(who))
      .query({ sourceImportJobId: jobId, limit: '100' });
    return res.body.data.meta.total as number;
  };

  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  describe('mapping', () => {
    it('imports every question as DRAFT with groups, options, sub-items, keys, media and formula refs', async () => {
      const res = await post(smallDoc());
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const data = res.body.data;
      expect(data).to.include({ documentId: 'docx-abc', sourceImportJobId: 'job-1', status: 'COMPLETE' });
      expect(data.questionIds).to.have.length(4);
      expect(data.counts).to.deep.equal({
        questions: 4,
        groups: 1,
        options: 5,
        subItems: 4,
        mediaRefs: 1,
        formulaRefs: 1,
      });
      expect(data.groups).to.have.length(1);
      expect(data.warnings.map((w: { code: string }) => w.code)).to.deep.equal([
        'DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED',
        'INGEST_NOT_PUBLISHABLE',
      ]);
      const [q1, q2, q3, q4] = await Promise.all(
        data.questionIds.map(
          async (id: string) =>
            (await svc.request.get(`/v1/questions/${id}`).query({ view: 'editor' }).set(headers(teacher()))).body.data,
        ),
      );
      expect(q1).to.include({
        type: 'SINGLE_CHOICE',
        status: 'DRAFT',
        subjectId: 'physics',
        gradeLevel: 11,
        sourceType: 'IMPORTED',
      });
      expect(q1.groupId).to.equal(data.groups[0].groupId);
      expect(q1.group).to.include({ title: 'Đọc đoạn văn sau', contentText: 'Ngày xưa...' });
      expect(
        q1.options.filter((o: { isCorrect: boolean }) => o.isCorrect).map((o: { label: string }) => o.label),
      ).to.deep.equal(['C']);
      expect(q1.mediaRefs[0]).to.include({ mediaAssetId: 'asset-1', objectKey: 'docs/a.png', mimeType: 'image/png' });
      expect(q1.formulaRefs[0]).to.include({ latex: 'x^2', html: '<i>x</i><sup>2</sup>' });
      expect(JSON.stringify(q1.contentJson)).to.contain('math_inline').and.contain('<i>x</i>');
      expect(q1.explanation).to.equal('Vì $x^2$');
      expect(q1.tags).to.deep.equal(['Đề thi']);
      expect(q1.sourceMetadataJson).to.include({
        source: 'docx-import',
        documentId: 'docx-abc',
        sourceImportJobId: 'job-1',
        sourceFileName: 'de-thi-ly.docx',
        approvedById: 't1',
        sourceQuestionId: 'q1',
        sourceTypeCode: 'DGNL_SINGLE_CHOICE',
      });
      expect(q2).to.include({ type: 'TRUE_FALSE_GROUP', groupId: null });
      expect(q2.sourceMetadataJson.grouping).to.deep.include({ sourceGroupId: 'g1' });
      expect(
        q2.subItems.map((s: { label: string; correctBoolean: boolean }) => [s.label, s.correctBoolean]),
      ).to.deep.equal([
        ['A', true],
        ['B', false],
        ['C', true],
        ['D', false],
      ]);
      expect(q2.scoringRule).to.deep.equal({ mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 });
      expect(q3).to.include({ type: 'SHORT_NUMERIC_ANSWER' });
      expect(q3.answerKeys).to.deep.equal({ acceptedAnswers: ['-2,5'] });
      expect(q4).to.include({ type: 'SINGLE_CHOICE', status: 'DRAFT' });
      expect(q4.sourceMetadataJson.publishProblems).to.have.length(1);
      expect(await col('question_versions').countDocuments()).to.equal(4);
      expect(await eventsFor(data.questionIds)).to.equal(4);
      const found = await svc.request.get('/v1/questions').set(headers(teacher())).query({ q: 'de thi ly' });
      expect(found.body.data.meta.total).to.equal(4);
    });

    it('ingests a 120-question document from the real parser in one request', async () => {
      const body = { ...(await bigDoc()), sourceImportJobId: 'job-120' };
      expect(Buffer.byteLength(JSON.stringify(body))).to.be.below(1024 * 1024);
      const res = await post(body as never);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      expect(res.body.data.questionIds).to.have.length(120);
      expect(res.body.data.questions.filter((s: { publishable: boolean }) => s.publishable)).to.have.length(120);
      expect(await visible(teacher(), 'job-120')).to.equal(120);
      const byType = await col('questions')
        .aggregate([{ $group: { _id: '$type', n: { $sum: 1 } } }])
        .toArray();
      expect(Object.fromEntries(byType.map((t) => [t._id, t.n]))).to.deep.equal({
        SINGLE_CHOICE: 72,
        TRUE_FALSE_GROUP: 24,
        SHORT_NUMERIC_ANSWER: 24,
      });
      expect(await col('question_versions').countDocuments()).to.equal(120);
      expect(await eventsFor(res.body.data.questionIds)).to.equal(120);
    });
  });

  describe('replays', () => {
    it('answers an identical retry with 200, the original documentId and questionIds, nothing duplicated', async () => {
      const first = await post(smallDoc(), teacher(), 'key-1');
      const again = await post(smallDoc({ latency_ms: 99 }), teacher(), '  key-1 ');
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(200);
      expect(again.body.data.questionIds).to.deep.equal(first.body.data.questionIds);
      expect(again.body.data.documentId).to.equal('docx-abc');
      expect(await col('questions').countDocuments()).to.equal(4);
      expect(await col('question_groups').countDocuments()).to.equal(1);
      expect(await col('question_versions').countDocuments()).to.equal(4);
      expect(await eventsFor(first.body.data.questionIds)).to.equal(4);
    });

    it('replays by sourceImportJobId without a key, and by the digest without either', async () => {
      const a = await post(smallDoc());
      const b = await post(smallDoc());
      expect(b.status).to.equal(200);
      expect(b.body.data.questionIds).to.deep.equal(a.body.data.questionIds);
      const bare = smallDoc({ sourceImportJobId: undefined, document_id: 'docx-bare' });
      const c = await post(bare);
      const d = await post(bare);
      expect([c.status, d.status]).to.deep.equal([201, 200]);
      expect(d.body.data.questionIds).to.deep.equal(c.body.data.questionIds);
      expect(await col('questions').countDocuments()).to.equal(8);
    });

    it('gives 409 IDEMPOTENCY_KEY_REUSED for a key with another payload and IMPORT_JOB_CONFLICT for a job', async () => {
      await post(smallDoc(), teacher(), 'key-2');
      const reused = await post(smallDoc({ sourceImportJobId: 'job-other', document_id: 'x' }), teacher(), 'key-2');
      expect(reused.status).to.equal(409);
      expect(reused.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      const sameJob = await post(smallDoc({ document_id: 'docx-changed' }));
      expect(sameJob.status).to.equal(409);
      expect(sameJob.body.error.code).to.equal('IMPORT_JOB_CONFLICT');
      const newKeySameJob = await post(smallDoc(), teacher(), 'key-3');
      expect(newKeySameJob.status).to.equal(200);
      expect(await col('questions').countDocuments()).to.equal(4);
    });

    it('treats another organization with the same key and job as a new import, never a leak', async () => {
      const mine = await post(smallDoc(), teacher(), 'key-4');
      const theirs = await post(smallDoc(), teacher('t9', 'org-b'), 'key-4');
      expect(theirs.status).to.equal(201);
      expect(theirs.body.data.questionIds).to.not.include.members(mine.body.data.questionIds);
      expect(await visible(teacher('t9', 'org-b'), 'job-1')).to.equal(4);
      expect(await visible(teacher(), 'job-1')).to.equal(4);
    });
  });

  describe('a crash mid-ingest', () => {
    const crashAt = (at: IngestStep, n: number) => ({
      afterWrite: (step: IngestStep, written: number) => {
        if (step === at && written >= n) throw new Error(`injected crash after ${written} ${step}`);
      },
    });
    const writer = { userId: 't1', role: 'TEACHER' as const, organizationId: 'org-a' };
    // the crashing call goes to the domain directly, so it gets the input as the route hands it on: validated, the
    // members it does not use stripped (the parser adds fields the ingest ignores; the retry comes by HTTP)
    const asRouted = (body: object): IngestInput => {
      const { value, error } = ingestBody.validate(body);
      if (error) throw error;
      return value as IngestInput;
    };

    it('shows no question of a half-written import; the retry resumes with the same ids, exactly once', async () => {
      const input = asRouted({ ...(await bigDoc()), sourceImportJobId: 'job-crash' });
      const crashed = ingestDocxOutput(svc.built.deps, writer, { input }, crashAt('questions', 50));
      await crashed.then(
        () => expect.fail('the injected crash did not happen'),
        (err: Error) => expect(err.message).to.match(/injected crash after 50 questions/),
      );
      const ledger = await col('question_ingest_ledgers').findOne({ sourceImportJobId: 'job-crash' });
      expect(ledger).to.include({ state: 'PENDING' });
      expect(await col('questions').countDocuments({ ingestPending: ledger!._id })).to.equal(50);
      expect(await visible(teacher(), 'job-crash')).to.equal(0);
      const planned = (ledger!.plan as { questions: Array<{ questionId: string }> }).questions.map((p) => p.questionId);
      expect(await eventsFor(planned)).to.equal(0);
      const hiddenId = planned[0]!;
      expect((await svc.request.get(`/v1/questions/${hiddenId}`).set(headers(teacher()))).status).to.equal(404);

      const retry = await post(input as never);
      expect(retry.status).to.equal(200);
      expect(retry.body.data.questionIds).to.deep.equal(planned);
      expect(await visible(teacher(), 'job-crash')).to.equal(120);
      expect(await col('questions').countDocuments()).to.equal(120);
      expect(await col('questions').countDocuments({ ingestPending: { $exists: true } })).to.equal(0);
      expect(await col('question_versions').countDocuments()).to.equal(120);
      expect(await eventsFor(planned)).to.equal(120);
      expect(await col('question_ingest_ledgers').findOne({ _id: ledger!._id })).to.include({
        state: 'COMPLETE',
        resumes: 1,
      });
    });

    it('after a crash past the flip, all questions are visible and the retry adds no second event', async () => {
      const input = asRouted({ ...(await bigDoc()), sourceImportJobId: 'job-flip' });
      await ingestDocxOutput(svc.built.deps, writer, { input }, crashAt('flip', 1)).catch(() => undefined);
      expect(await visible(teacher(), 'job-flip')).to.equal(120);
      expect(await col('question_ingest_ledgers').findOne({ sourceImportJobId: 'job-flip' })).to.include({
        state: 'PENDING',
      });
      const retry = await post(input as never);
      expect(retry.status).to.equal(200);
      expect(await eventsFor(retry.body.data.questionIds)).to.equal(120);
      expect(await col('questions').countDocuments()).to.equal(120);
      expect(await col('question_ingest_ledgers').findOne({ sourceImportJobId: 'job-flip' })).to.include({
        state: 'COMPLETE',
      });
    });
  });

  describe('bad input', () => {
    const cases: Array<[string, Body]> = [
      ['no questions', smallDoc({ questions: [] })],
      ['missing document_id', smallDoc({ document_id: undefined })],
      [
        'duplicate question ids',
        smallDoc({
          questions: [
            { id: 'q1', content: 'a' },
            { id: 'q1', content: 'b' },
          ],
        }),
      ],
      [
        'a data: URL as media',
        smallDoc({ questions: [{ id: 'q1', content: 'a', media: [{ url: 'data:image/png;base64,AAAA' }] }] }),
      ],
      ['media bytes', smallDoc({ questions: [{ id: 'q1', content: 'a', media: [{ url: 'a.png', data: 'AAAA' }] }] })],
      ['an operator key in sourceMetadataJson', smallDoc({ sourceMetadataJson: { $where: '1' } })],
      ['a dotted key in stats', smallDoc({ stats: { 'a.b': 1 } })],
      [
        'an option label past H',
        smallDoc({ questions: [{ id: 'q1', content: 'a', options: [{ label: 'Z', content: 'x' }] }] }),
      ],
      ['a wrong correct_answer shape', smallDoc({ questions: [{ id: 'q1', content: 'a', correct_answer: 5 }] })],
      ['gradeLevel 13', smallDoc({ gradeLevel: 13 })],
      [
        'a correct_answer key past H',
        smallDoc({ questions: [{ id: 'q1', content: 'a', correct_answer: { A: true, Z: true } }] }),
      ],
      ['a known member of the wrong type beside unknown ones', smallDoc({ surprise: true, latency_ms: 'fast' })],
      [
        '501 questions',
        smallDoc({ questions: Array.from({ length: 501 }, (_, i) => ({ id: `q${i}`, content: 'x' })) }),
      ],
    ];
    for (const [name, body] of cases) {
      it(`answers ${name} with 400 VALIDATION_ERROR and writes nothing`, async () => {
        const res = await post(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(await col('question_ingest_ledgers').countDocuments()).to.equal(0);
      });
    }

    it('ignores members it does not use at every depth (a parser adding fields), never storing them', async () => {
      const doc = smallDoc({ surprise: 'mk-top', parser_version: 'mk-ver' });
      const [q1, ...rest] = doc.questions as Body[];
      const options = (q1!.options as Body[]).map((o) => ({ ...o, style: 'mk-option' }));
      const media = (q1!.media as Body[]).map((m) => ({ ...m, crop: 'mk-media' }));
      doc.questions = [{ ...q1, options, media, confidence_debug: 'mk-question' }, ...rest];
      doc.groups = (doc.groups as Body[]).map((g) => ({ ...g, layout: 'mk-group' }));
      doc.warnings = [{ code: 'W', message: 'm', severity: 'mk-warning' }];
      const res = await post(doc);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.questionIds).to.have.length(4);
      const names = (await svc.db.conn.db!.listCollections().toArray()).map((c) => c.name);
      const stored = JSON.stringify(await Promise.all(names.map((n) => col(n).find({}).toArray())));
      expect(stored).to.include('Phương án A');
      expect(stored).not.to.match(/mk-|parser_version|confidence_debug/);
    });

    it('refuses an over-long Idempotency-Key (400), missing scope headers (401/403/400) and GET (405)', async () => {
      expect((await post(smallDoc(), teacher(), 'k'.repeat(121))).status).to.equal(400);
      expect((await svc.request.post(PATH).send(smallDoc())).status).to.equal(401);
      expect((await post(smallDoc(), { userId: 's1', role: 'STUDENT', organizationId: 'org-a' })).status).to.equal(403);
      expect((await post(smallDoc(), { userId: 't1', role: 'TEACHER' })).status).to.equal(400);
      expect((await svc.request.get(PATH).set(headers(teacher()))).status).to.equal(405);
      const malformed = await svc.request
        .post(PATH)
        .set(headers(teacher()))
        .set('Content-Type', 'application/json')
        .send('{"document_id":');
      expect(malformed.status).to.equal(400);
      expect(await col('question_ingest_ledgers').countDocuments()).to.equal(0);
    });
  });
});
