// The review text's line readers: the same answers as the regular expressions they replaced on
// ordinary lines (those are the oracle below, run only on short lines), and linear time on the
// inputs that made those expressions quadratic or worse. A quadratic reader takes minutes on a
// million characters, far past this file's timeout; a linear one takes milliseconds.
import { expect } from 'chai';
import { baselineReparse } from '../../src/integrations/baseline-reparse.js';
import {
  readAnswerLine,
  readChooseLine,
  readOption,
  readQuestionHead,
  readSolutionLine,
  splitInlineOptions,
} from '../../src/integrations/review-text.js';

/* eslint-disable regexp/no-super-linear-backtracking, regexp/no-super-linear-move -- the replaced
   expressions, kept only as the parity oracle and only ever run on short lines */
const OLD = {
  question: /^\s*(?:(?:câu|cau|question)\s*(\d{1,4})\s*[.:)]?|(\d{1,4})\s*[.)])\s*(.*)$/i,
  option: /^\s*(\*?)\s*([A-Da-d])\s*[.)]\s*(\*?)\s*(.*)$/,
  split: /\s+(?=\*?[A-D][.)]\s)/,
  answer: /^\s*(?:đáp án|dap an|answer)\s*[:.]?\s*(.+)$/i,
  choose: /^\s*(?:chọn|chon)\s+([A-D])\s*\.?$/i,
  solution: /^\s*(?:lời giải|loi giai|hướng dẫn giải|huong dan giai|solution)\s*[:.]?\s*(.*)$/i,
};
/* eslint-enable regexp/no-super-linear-backtracking, regexp/no-super-linear-move */

// Pieces ordinary review lines are made of (no line terminators: lines are split on them first).
const PIECES = [
  ' ',
  '  ',
  '\t',
  '*',
  'A',
  'B',
  'c',
  'D',
  'E',
  '.',
  ')',
  ':',
  ',',
  '1',
  '23',
  '12345',
  'x',
  'Hà Nội',
  'Câu',
  'CÂU',
  'cau',
  'Question',
  'Đáp án',
  'dap an',
  'Answer',
  'Chọn',
  'chon',
  'Lời giải',
  'Solution',
];

function lines(count: number): string[] {
  let seed = 20;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 9) }, () => PIECES[next() % PIECES.length]!)
      .join('')
      .trimEnd(),
  );
}

describe('review text line readers', () => {
  describe('parity with the replaced expressions on ordinary lines', () => {
    const sample = lines(20_000);

    it('reads question heads, options and answer, choose and solution lines as they did', () => {
      for (const line of sample) {
        const q = OLD.question.exec(line);
        const head = readQuestionHead(line);
        expect(head, line).to.deep.equal(q ? { number: Number(q[1] ?? q[2]), rest: q[3] } : null);
        const o = OLD.option.exec(line);
        const option = o
          ? { label: o[2]!.toUpperCase(), content: o[4]!.trim(), marked: o[1] === '*' || o[3] === '*' }
          : null;
        expect(readOption(line), line).to.deep.equal(option);
        expect(readAnswerLine(line), line).to.equal(OLD.answer.exec(line)?.[1]!.trim() ?? null);
        expect(readChooseLine(line), line).to.equal(OLD.choose.exec(line)?.[1] ?? null);
        expect(readSolutionLine(line), line).to.equal(OLD.solution.exec(line)?.[1] ?? null);
      }
    });

    it('splits inline options where the expression split', () => {
      for (const line of sample) {
        const text = line.trim();
        expect(splitInlineOptions(text), text).to.deep.equal(text.split(OLD.split));
      }
      expect(splitInlineOptions('Chọn số chẵn. A. 2  B. 3\t*C. 4 D) 5')).to.deep.equal([
        'Chọn số chẵn.',
        'A. 2',
        'B. 3',
        '*C. 4',
        'D) 5',
      ]);
    });
  });

  describe('hostile lines of a million characters', function () {
    this.timeout(20_000);
    const spaces = ' '.repeat(1_000_000);

    it('reads whitespace runs once: readers answer on a million spaces before and after a label', () => {
      expect(readOption(`${spaces}x`)).to.equal(null);
      expect(readOption(`*${spaces}A${spaces}.${spaces}*${spaces}x`)).to.deep.equal({
        label: 'A',
        content: 'x',
        marked: true,
      });
      expect(readQuestionHead(`Câu${spaces}1${spaces}x`)).to.deep.equal({ number: 1, rest: 'x' });
      expect(readAnswerLine(`Đáp án${spaces}:${spaces}\u2028`)).to.equal(':');
      expect(readChooseLine(`Chọn${spaces}B${spaces}x`)).to.equal(null);
      expect(readSolutionLine(`Lời giải${spaces}`)).to.equal('');
      expect(splitInlineOptions(`a${spaces}b${spaces}A. x`)).to.deep.equal([`a${spaces}b`, 'A. x']);
    });

    it('reparses a million spaces, tabs, markers and labels without a question or with one', () => {
      for (const text of [spaces, `${spaces}x`, '\t*'.repeat(500_000), 'A.'.repeat(500_000)]) {
        expect(baselineReparse(text).questions).to.have.length(0);
      }
      expect(baselineReparse(`1.${spaces}\u2028${spaces}x`).questions[0]!.content).to.equal('x');
      const one = baselineReparse(`Câu 1. Chọn:${' A. 1'.repeat(200_000)}\n${spaces}x\nĐáp án:${spaces}A`);
      expect(one.questions).to.have.length(1);
      expect(one.questions[0]!.correct_answer).to.equal('A');
      expect((one.questions[0]!.options as unknown[]).length).to.equal(200_000);
    });
  });
});
