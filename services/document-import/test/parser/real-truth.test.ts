// Issue 32: both shared sets of real exam files scored against answer keys written by reading each document
// (real-truth/corpus-N.json: a stem fingerprint and the answer of every question, no document text). The files are
// read from ../shared, never copied into the project; a set whose folder is absent is skipped, saying why.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocx } from '../../src/parser/index.js';
import { f1, scoreFile, sumScores, type ParsedOutput, type RealScore, type TruthSet } from './support/real-truth.js';

const here = dirname(fileURLToPath(import.meta.url));
const SETS = [
  { name: 'corpus-real-docx', truth: 'corpus-1.json' },
  { name: 'corpus-real-docx-2', truth: 'corpus-2.json' },
];

function parsed(file: string): ParsedOutput | null {
  try {
    return parseDocx(readFileSync(file)) as unknown as ParsedOutput;
  } catch {
    return null; // a refused file scores as no question found
  }
}

for (const set of SETS) {
  const dir = resolve(here, '../../../../../shared', set.name);
  describe(`docx parser: real files of ../shared/${set.name} against their answer keys`, function () {
    let total: RealScore;
    let scores: [string, RealScore][];
    before(function () {
      if (!existsSync(dir)) {
        console.log(`    skipped: ${dir} is absent (real files are read from ../shared, never committed)`);
        this.skip();
      }
      const truth = JSON.parse(readFileSync(join(here, 'real-truth', set.truth), 'utf8')) as TruthSet;
      scores = Object.entries(truth).map(([name, t]) => [name, scoreFile(t, parsed(join(dir, `${name}.docx`)))]);
      total = sumScores(scores.map(([, s]) => s));
      console.log(
        `    ${set.name}: questions F1 ${f1(total).toFixed(3)}, answers ${total.right}/${total.keyed}, ` +
          `returned right ${total.returnedRight}/${total.returned}, statements ${total.statementsRight}/${total.statements}`,
      );
    });

    it('finds the questions (F1 ≥ 0.98) and answers ≥ 0.95 of the keyed ones', () => {
      expect(f1(total)).to.be.at.least(0.98);
      expect(total.right / total.keyed).to.be.at.least(0.95);
    });

    it('returns answers that are right in ≥ 99 % of cases, none on a paper without a key', () => {
      expect(total.returnedRight / total.returned).to.be.at.least(0.99);
      expect(total.invented).to.equal(0);
      for (const [name, s] of scores) expect(s.invented, name).to.equal(0);
    });

    it('warns on every keyed question it leaves without an answer', () => {
      for (const [name, s] of scores) expect(s.unansweredWarned, name).to.equal(s.unanswered);
    });

    it('refuses no file that holds questions', () => {
      for (const [name, s] of scores) if (s.truth > 0) expect(s.found, name).to.be.above(0);
    });
  });
}
