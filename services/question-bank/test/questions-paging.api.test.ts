import { expect } from 'chai';
import { newQuestionRow } from '../src/domain/questions/rows.js';
import { timeOrderedIds } from '../../kit/src/core/index.js';
import { headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

const TOTAL = 10_050;

describe('question bank: a list over 10,000 questions', function () {
  this.timeout(300000);
  let svc: TestQuestionBank;
  const ids: string[] = [];
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
    const newId = timeOrderedIds();
    const writer = { userId: 't1', role: 'TEACHER' as const, organizationId: 'org-a' };
    // Rows as the create route builds them, inserted in bulk (the HTTP create is tested elsewhere).
    for (let start = 0; start < TOTAL; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, TOTAL - start) }, (_, i) =>
        newQuestionRow({ content: `Câu ${start + i}` }, writer, {
          newId,
          now: new Date(1_700_000_000_000 + start + i),
        }),
      );
      ids.push(...batch.map((r) => r._id));
      await svc.db.conn.collection('questions').insertMany(batch as never[]);
    }
  });
  after(() => svc.close());

  it('pages to the end with limit 100: every question once, newest first, meta consistent', async () => {
    const seen: string[] = [];
    let totalPages = Infinity;
    for (let page = 1; page <= totalPages; page += 1) {
      const res = await svc.request
        .get('/v1/questions')
        .set(headers(teacher()))
        .query({ page: String(page), limit: '100' });
      expect(res.status).to.equal(200);
      const { items, meta } = res.body.data;
      expect(meta).to.include({ page, limit: 100, total: TOTAL });
      totalPages = meta.totalPages;
      seen.push(...items.map((i: { id: string }) => i.id));
    }
    expect(totalPages).to.equal(Math.ceil(TOTAL / 100));
    expect(seen).to.deep.equal([...ids].reverse());
  });
});
