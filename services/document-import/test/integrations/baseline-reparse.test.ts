import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ANSWER_MARKER_EVIDENCE, BASELINE_REPARSE_WARNING, baselineReparse } from '../../src/integrations/index.js';

describe('baseline reparse of review text', () => {
  it('reads numbered questions, A–D options, answer lines and solutions', () => {
    const text = [
      'Câu 1. Tính 1 + 1?',
      'A. 1',
      'B. 2',
      'C. 3',
      'D. 4',
      'Đáp án: B',
      'Lời giải: 1 + 1 = 2.',
      'Vì vậy chọn B.',
      '2. Giá trị của x nếu 2x = 5?',
      'Đáp án: 2,5',
      'Câu 3: Chọn các số chẵn. A. 2 B. 3 C. 4 D. 5',
      'Answer: A, C',
    ].join('\n');
    const out = baselineReparse(text);
    assert.equal(out.questions.length, 3);
    const [q1, q2, q3] = out.questions as Array<Record<string, unknown>>;
    assert.equal(q1!.content, 'Tính 1 + 1?');
    assert.deepEqual(q1!.options, [
      { label: 'A', content: '1' },
      { label: 'B', content: '2' },
      { label: 'C', content: '3' },
      { label: 'D', content: '4' },
    ]);
    assert.equal(q1!.correct_answer, 'B');
    assert.equal(q1!.type, 'SINGLE_CHOICE');
    assert.equal(q1!.solution, '1 + 1 = 2.\nVì vậy chọn B.');
    assert.equal((q1!.source_location as Record<string, unknown>).answer_evidence, 'ANSWER_LINE');
    assert.equal(q2!.number, 2);
    assert.equal(q2!.type, 'SHORT_NUMERIC_ANSWER');
    assert.equal(q2!.correct_answer, '2,5');
    assert.equal(q2!.correct_answer_numeric, 2.5);
    assert.equal(q3!.type, 'MULTIPLE_CHOICE');
    assert.deepEqual(q3!.correct_answer, ['A', 'C']);
    assert.equal((q3!.options as unknown[]).length, 4);
  });

  it('takes * markers as the answer, the answer line winning over them', () => {
    const out = baselineReparse('Câu 1. Màu của lá?\n*A. Xanh\nB. Đỏ\nCâu 2. Số nguyên tố?\nA. 4\nB.* 5\nĐáp án: A');
    const [q1, q2] = out.questions as Array<Record<string, unknown>>;
    assert.equal(q1!.correct_answer, 'A');
    assert.equal((q1!.source_location as Record<string, unknown>).answer_evidence, ANSWER_MARKER_EVIDENCE);
    assert.equal((q1!.options as Array<{ content: string }>)[0]!.content, 'Xanh');
    assert.equal(q2!.correct_answer, 'A', 'the answer line wins over the marker');
  });

  it('does not read a stem line starting with "Chọn" as an answer, and leaves unanswered questions null', () => {
    const out = baselineReparse('Câu 1.\nChọn câu đúng:\nA. x\nB. y');
    const q = out.questions[0]!;
    assert.equal(q.content, 'Chọn câu đúng:');
    assert.equal(q.correct_answer, null);
    assert.equal(out.stats.answered, 0);
  });

  it('always warns that full parser parity is pending, and finds nothing in text without numbered questions', () => {
    const empty = baselineReparse('Một đoạn văn không có câu hỏi.');
    assert.equal(empty.questions.length, 0);
    assert.deepEqual(
      empty.warnings.map((w) => w.code),
      [BASELINE_REPARSE_WARNING],
    );
    const some = baselineReparse('Câu 1. Hai cộng hai?\nĐáp án: 4', 'doc-1');
    assert.equal(some.document_id, 'doc-1');
    assert.ok(some.warnings.some((w) => w.code === BASELINE_REPARSE_WARNING));
    assert.equal(some.questions[0]!.id, 'q1');
  });
});
