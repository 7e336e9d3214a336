import { expect } from 'chai';
import { admin, choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: legacy adapters and the search projection backfill', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  describe('GET /v1/legacy/questions', () => {
    it('lists scalar members without currentVersion, options, mediaRefs or formulaRefs', async () => {
      await createAs(svc, teacher(), choiceBody({ mediaRefs: [{ url: '/a.png' }], formulaRefs: [{ latex: 'x^2' }] }));
      const res = await svc.request.get('/v1/legacy/questions').set(headers(teacher()));
      expect(res.status).to.equal(200);
      expect(res.body.data.meta.total).to.equal(1);
      const item = res.body.data.items[0];
      for (const k of ['currentVersion', 'options', 'mediaRefs', 'formulaRefs', 'answerKeys', 'contentJson', 'tags'])
        expect(item, k).to.not.have.property(k);
      expect(item).to.include({ content: 'Giải phương trình x + 1 = 2', status: 'DRAFT' });
      expect(item._count).to.deep.equal({ examItems: 0, attemptItems: 0, answers: 0 });
      for (const k of ['educationLevel', 'grade', 'group', 'folder', 'currentVersion'])
        expect(item, k).to.not.have.property(k);
      expect(item).to.include.keys(
        'subject',
        'chapter',
        'topic',
        'customType',
        'createdBy',
        'organization',
        'createdById',
      );
    });
  });

  describe('GET /v1/legacy/questions/:id', () => {
    it('gives currentVersion, ordered options and tag wrappers; 404 out of scope', async () => {
      const q = await createAs(svc, teacher());
      const res = await svc.request.get(`/v1/legacy/questions/${q.id}`).set(headers(teacher()));
      expect(res.status).to.equal(200);
      expect(res.body.data.tags).to.deep.equal([{ tag: { name: 'Đại số' } }]);
      expect(res.body.data.options.map((o: { label: string }) => o.label)).to.deep.equal(['A', 'B']);
      expect(res.body.data.currentVersion.id).to.equal(q.currentVersionId);
      const other = await svc.request.get(`/v1/legacy/questions/${q.id}`).set(headers(admin('a', 'org-b')));
      expect(other.status).to.equal(404);
      expect(other.body.error.code).to.equal('QUESTION_NOT_FOUND');
    });
  });

  describe('GET /v1/questions/search-projections', () => {
    it('pages by cursor to the end, archived included when status is omitted, no answer keys', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const body = choiceBody({ status: i === 0 ? 'ARCHIVED' : 'DRAFT', answerKeys: { correctLabels: ['A'] } });
        ids.push((await createAs(svc, admin(), body)).id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let round = 0; round < 10; round += 1) {
        const res = await svc.request
          .get('/v1/questions/search-projections')
          .set(headers(admin()))
          .query({ limit: '2', ...(cursor ? { cursor } : {}) });
        expect(res.status).to.equal(200);
        const data = res.body.data;
        expect(data).to.include({ sourceService: 'question-bank-service', entityType: 'QUESTION' });
        expect(JSON.stringify(data)).to.not.match(/answerKeys|isCorrect|sourceMetadataJson/);
        seen.push(...data.documents.map((d: { id: string }) => d.id));
        if (!data.hasMore) {
          expect(data.nextCursor).to.equal(null);
          break;
        }
        cursor = data.nextCursor;
      }
      expect(seen.sort()).to.deep.equal([...ids].sort());
      const drafts = await svc.request
        .get('/v1/questions/search-projections')
        .set(headers(admin()))
        .query({ status: 'DRAFT' });
      expect(drafts.body.data.documents).to.have.length(4);
    });

    it('refuses a malformed cursor with 400', async () => {
      const res = await svc.request
        .get('/v1/questions/search-projections')
        .set(headers(admin()))
        .query({ cursor: 'a b' });
      expect(res.status).to.equal(400);
    });
  });
});
