import { expect } from 'chai';
import { foldText, queryTokens, searchTokens } from '../src/domain/search-text.js';
import { choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: q search', () => {
  describe('folding (pure)', () => {
    it('drops Vietnamese diacritics and case, đ becoming d', () => {
      expect(foldText('Phương trình ĐƯỜNG thẳng')).to.equal('phuong trinh duong thang');
      expect(searchTokens(['Phương trình', null, 'phuong'])).to.deep.equal(['phuong', 'trinh']);
    });

    it('turns a hostile pattern into plain words', () => {
      expect(queryTokens('(a+)+$ .* [')).to.deep.equal({ whole: [], prefix: 'a' });
      expect(queryTokens('^$.*')).to.deep.equal({ whole: [], prefix: null });
    });
  });

  describe('GET /v1/questions?q=', () => {
    let svc: TestQuestionBank;
    before(async () => {
      svc = await startQuestionBank(import.meta.url);
    });
    after(() => svc.close());
    beforeEach(() => svc.clearCollections());

    const search = async (q: string) => {
      const res = await svc.request.get('/v1/questions').set(headers(teacher())).query({ q });
      expect(res.status).to.equal(200);
      return res.body.data.items.map((i: { id: string }) => i.id) as string[];
    };

    it('finds content, source, file name and tag names ignoring diacritics and case', async () => {
      const eq = await createAs(svc, teacher(), choiceBody({ content: 'Giải Phương Trình bậc hai', tags: [] }));
      const src = await createAs(
        svc,
        teacher(),
        choiceBody({ content: 'Câu 1', source: 'Đề thi thử Sở Hà Nội', tags: [] }),
      );
      const file = await createAs(
        svc,
        teacher(),
        choiceBody({ content: 'Câu 2', sourceMetadataJson: { sourceFileName: 'de-kiem-tra-hoc-ki.docx' }, tags: [] }),
      );
      const tag = await createAs(svc, teacher(), choiceBody({ content: 'Câu 3', tags: ['Hình học không gian'] }));
      expect(await search('phuong trinh')).to.deep.equal([eq.id]);
      expect(await search('PHƯƠNG')).to.deep.equal([eq.id]);
      expect(await search('ha noi')).to.deep.equal([src.id]);
      expect(await search('kiem tra')).to.deep.equal([file.id]);
      expect(await search('khong gian')).to.deep.equal([tag.id]);
      expect(await search('phuong tr')).to.deep.equal([eq.id]);
    });

    it('follows a PATCH of content and tags', async () => {
      const q = await createAs(svc, teacher(), choiceBody({ content: 'Cũ', tags: ['cu'] }));
      await svc.request
        .patch(`/v1/questions/${q.id}`)
        .set(headers(teacher()))
        .send({ content: 'Mới', tags: ['Xác suất'] });
      expect(await search('cu')).to.deep.equal([]);
      expect(await search('xac suat')).to.deep.equal([q.id]);
    });

    it('treats a hostile regular expression as text: 200, no error, no match-all', async () => {
      await createAs(svc, teacher(), choiceBody({ content: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' }));
      for (const q of ['(a+)+$', '.*', '[', '\\', '^(?!x)', '$where', '{"$gt":""}']) {
        const ids = await search(q);
        expect(ids.length, q).to.be.at.most(1);
      }
      expect(await search('.*')).to.deep.equal([]);
      expect(await search('[')).to.deep.equal([]);
    });

    it('is served by the searchTokens index', async () => {
      const indexes = await svc.db.conn.collection('questions').indexes();
      expect(indexes.map((i) => Object.keys(i.key))).to.deep.include(['searchTokens']);
      const stored = await svc.db.conn.collection('questions').findOne({});
      expect(stored).to.equal(null);
      const q = await createAs(svc, teacher(), choiceBody({ content: 'Số phức', tags: ['Đại số'] }));
      const row = await svc.db.conn.collection('questions').findOne({ _id: q.id as never });
      expect(row?.searchTokens).to.include.members(['so', 'phuc', 'dai']);
    });
  });
});
