import { expect } from 'chai';
import { publishProblems } from '../src/domain/questions/base-type.js';
import { contentJsonOf, newBody, patchedBody } from '../src/domain/questions/body.js';
import { timeOrderedIds } from '../../kit/src/core/index.js';
import { searchDocument } from '../src/domain/questions/projection.js';
import type { QuestionRow } from '../src/store/question-models.js';

let n = 0;
const newId = () => `id-${(n += 1)}`;

describe('question rules (pure)', () => {
  it('publishProblems: single choice needs exactly one correct option, multiple choice one or more', () => {
    const two = newBody(
      {
        options: [
          { content: 'a', isCorrect: true },
          { content: 'b', isCorrect: true },
        ],
      },
      newId,
    );
    expect(publishProblems('SINGLE_CHOICE', two)).to.have.length(1);
    expect(publishProblems('MULTIPLE_CHOICE', two)).to.deep.equal([]);
    expect(publishProblems('ESSAY', newBody({}, newId))).to.deep.equal([]);
  });

  it('patchedBody keeps omitted members and replaces supplied arrays fully', () => {
    const body = newBody({ content: 'a', options: [{ content: 'x' }], mediaRefs: [{ url: '/m' }] }, newId);
    const next = patchedBody(body, { options: [] }, newId);
    expect(next.options).to.deep.equal([]);
    expect(next.mediaRefs).to.deep.equal(body.mediaRefs);
    expect(next.contentJson).to.deep.equal(contentJsonOf('a'));
    expect(patchedBody(body, { content: 'b\nc' }, newId).contentJson).to.deep.equal(contentJsonOf('b\nc'));
  });

  it('the search document carries no answers, explanation, raw metadata or URL query', () => {
    const body = newBody(
      {
        content: 'q',
        options: [{ content: 'x', isCorrect: true }],
        subItems: [{ label: 'A', content: 's', correctBoolean: true }],
        answerKeys: { correctLabels: ['A'] },
        explanation: 'why',
        mediaRefs: [{ url: 'https://cdn.example/a.png?X-Amz-Signature=secret' }],
      },
      newId,
    );
    const now = new Date();
    const row = {
      ...body,
      _id: 'q1',
      organizationId: 'org',
      sourceMetadataJson: { token: 'secret' },
      sourceUrl: 'https://example.org/x?token=secret',
      tags: [],
      createdAt: now,
      updatedAt: now,
    } as unknown as QuestionRow;
    const text = JSON.stringify(searchDocument(row));
    for (const hidden of ['isCorrect', 'correctBoolean', 'correctLabels', 'why', 'secret'])
      expect(text).to.not.include(hidden);
  });

  it('timeOrderedIds sort in creation order within one millisecond', () => {
    const next = timeOrderedIds(() => 1_700_000_000_000);
    const ids = Array.from({ length: 50 }, () => next());
    expect([...ids].sort()).to.deep.equal(ids);
  });
});
