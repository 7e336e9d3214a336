import { expect } from 'chai';
import { buildCorpus } from './support/corpus.js';
import { formatScores, scoreDoc, type Score } from './support/evaluate.js';

describe('docx parser: accuracy on the generated corpus', () => {
  it('finds every question (F1 ≥ 0.99), answers ≥ 0.98 right, types ≥ 0.95 right, groups all right; prints per convention', async () => {
    const scores: (Score & { misses: string[] })[] = [];
    for (const doc of buildCorpus()) scores.push(await scoreDoc(doc));
    console.log(formatScores(scores));
    const misses = scores.flatMap((s) => s.misses.map((m) => `${s.convention}: ${m}`));
    if (misses.length) console.log(misses.slice(0, 30).join('\n'));
    const sum = (f: (s: Score) => number): number => scores.reduce((n, s) => n + f(s), 0);
    const matched = sum((s) => s.matched);
    const p = matched / sum((s) => s.found);
    const r = matched / sum((s) => s.truth);
    expect((2 * p * r) / (p + r)).to.be.at.least(0.99);
    expect(sum((s) => s.answers) / matched).to.be.at.least(0.98);
    expect(sum((s) => s.types) / matched).to.be.at.least(0.95);
    expect(sum((s) => s.grouped)).to.equal(sum((s) => s.groupTruth));
  });
});
