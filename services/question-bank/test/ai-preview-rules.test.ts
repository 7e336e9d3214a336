import { expect } from 'chai';
import { canonicalJson, digestOf, seededIds } from '../src/domain/ai-preview/digest.js';
import { draftOf } from '../src/domain/ai-preview/drafts.js';
import { normalizeSteps, solvedBody } from '../src/domain/ai-preview/solution-body.js';
import { newBody } from '../src/domain/questions/body.js';

describe('question bank: AI preview rules (pure)', () => {
  it('canonicalJson sorts keys at every depth, keeps array order and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined } })).to.equal('{"a":{"d":[2,1]},"b":1}');
    expect(digestOf({ x: 1, y: 2 })).to.equal(digestOf({ y: 2, x: 1 }));
    expect(digestOf({ x: [1, 2] })).to.not.equal(digestOf({ x: [2, 1] }));
  });

  it('seededIds repeats per seed, differs across seeds, and keeps the id pattern', () => {
    const a = seededIds('q1');
    const b = seededIds('q1');
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).to.deep.equal(first);
    expect(new Set(first).size).to.equal(3);
    expect(seededIds('q2')()).to.not.equal(first[0]);
    for (const id of first)
      expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('draftOf forces the draft fields and folds aliases before the digest', () => {
    const one = draftOf({
      previewId: 'p',
      content: 'c',
      answerKeysJson: { correctLabels: ['A'] },
      status: 'PUBLISHED',
    });
    const two = draftOf({ previewId: 'p', content: 'c', answerKeys: { correctLabels: ['A'] } });
    expect(one.question).to.include({ status: 'DRAFT', source: 'AI preview', sourceType: 'AI_GENERATED' });
    expect(two.digest).to.not.equal(draftOf({ previewId: 'p', content: 'c' }).digest);
    // `status` never reaches the domain from the route (the schema strips it); aliases do.
    expect(draftOf({ previewId: 'p', content: 'c', answerKeysJson: { correctLabels: ['A'] } }).digest).to.equal(
      two.digest,
    );
  });

  it('normalizeSteps numbers non-blank steps, else the explanation lines', () => {
    expect(normalizeSteps({ explanation: 'a\n\n b ' })).to.deep.equal([
      { order: 1, title: null, content: 'a' },
      { order: 2, title: null, content: 'b' },
    ]);
    expect(normalizeSteps({ explanation: 'x', steps: [' ', { title: '', content: 'k' }] })).to.deep.equal([
      { order: 1, title: null, content: 'k' },
    ]);
  });

  it('solvedBody changes explanation and correctness only, and names the missing option', () => {
    const body = newBody(
      { content: 'c', options: [{ content: 'a', isCorrect: true }, { content: 'b' }] },
      seededIds('s'),
    );
    const next = solvedBody(body, {
      questionId: 'q',
      previewId: 'p',
      solution: { explanation: 'e', answerKeys: { correctLabels: ['B'] } },
    });
    expect(next.content).to.equal('c');
    expect(next.options.map((o) => [o.id, o.content, o.isCorrect])).to.deep.equal(
      body.options.map((o, i) => [o.id, o.content, i === 1]),
    );
    expect(() =>
      solvedBody(body, {
        questionId: 'q',
        previewId: 'p',
        solution: { explanation: 'e', answerKeys: { correctLabels: ['C'] } },
      }),
    ).to.throw('the question has no option C');
    const keepKeys = solvedBody(body, { questionId: 'q', previewId: 'p', solution: { explanation: 'e' } });
    expect(keepKeys.options).to.deep.equal(body.options);
    expect(keepKeys.answerKeys).to.equal(body.answerKeys);
  });
});
