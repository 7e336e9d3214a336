import { expect } from 'chai';
import { TOPICS } from '../../../kafka/topics.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';
import { upsertChange } from '../src/domain/questions/projection.js';
import { stampFor } from '../src/domain/questions/write.js';
import type { QuestionRow } from '../src/store/question-models.js';
import { casUpdateQuestion, findQuestion } from '../src/store/question-store.js';
import { createAs, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: search outbox entries (relay off)', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const entries = async (key: string) =>
    (await svc.db.conn.collection('outbox').find({ key }).sort({ seq: 1 }).toArray()).map(
      (e) =>
        JSON.parse(e.envelope as string) as {
          id: string;
          data: { sourceVersion: number; document: { content: string } };
        },
    );

  it('coalesces repeated upserts of one question in one unit into one entry with the final row', async () => {
    const q = await createAs(svc, teacher());
    const deps = svc.built.deps;
    await deps.outbox.transaction(async (unit, session) => {
      let row = (await findQuestion(deps.models, { _id: q.id })) as QuestionRow;
      for (const content of ['một', 'hai']) {
        const next = { ...row, content, searchVersion: row.searchVersion + 1 };
        const wrote = await casUpdateQuestion(
          deps.models,
          { id: row._id, expected: row.searchVersion },
          { set: { content, searchVersion: next.searchVersion }, stamp: stampFor(deps, unit, upsertChange(next)) },
          session,
        );
        expect(wrote).to.equal(true);
        row = next;
      }
    });
    const events = await entries(q.id);
    expect(events.map((e) => e.id)).to.deep.equal([`${q.id}:1`, `${q.id}:3`]);
    expect(events[1]!.data.document.content).to.equal('hai');
    for (const e of events) expectValidEvent(e, TOPICS.searchProjectionChanged);
  });

  it('stores nothing for a write that did not happen (lost compare-and-set, refused PATCH)', async () => {
    const q = await createAs(svc, teacher());
    const deps = svc.built.deps;
    const row = (await findQuestion(deps.models, { _id: q.id })) as QuestionRow;
    const wrote = await deps.outbox.transaction((unit, session) =>
      casUpdateQuestion(
        deps.models,
        { id: row._id, expected: row.searchVersion + 5 },
        { set: { content: 'x' }, stamp: stampFor(deps, unit, upsertChange({ ...row, searchVersion: 9 })) },
        session,
      ),
    );
    expect(wrote).to.equal(false);
    await svc.request
      .patch(`/v1/questions/${q.id}`)
      .set({ 'X-User-Id': 't1', 'X-User-Role': 'TEACHER', 'X-Organization-Id': 'org-a' })
      .send({ status: 'PUBLISHED', options: [] })
      .expect(409);
    expect((await entries(q.id)).map((e) => e.data.sourceVersion)).to.deep.equal([1]);
  });
});
