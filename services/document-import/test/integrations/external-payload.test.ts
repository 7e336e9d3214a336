import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ANNOTATED_FALLBACK, STYLE_HINT_EVIDENCE, fromExternalPayload } from '../../src/integrations/index.js';

describe('the external parser payload as QAS output', () => {
  it('sets correct_answer from a style hint with DOCX_STYLE_HINT; an explicit answer wins', () => {
    const { output, hinted } = fromExternalPayload(
      {
        questions: [
          {
            id: 'x1',
            content: 'Câu 1',
            options: [
              { label: 'A', content: '1' },
              { label: 'B', content: '2' },
            ],
            style_answer_hint: 'b',
          },
          { content: 'Câu 2', options: [{ label: 'A.', text: '3' }, '4'], correct_answer: 'A', style_answer_hint: 'B' },
          { content: 'Câu 3', options: ['x', 'y', 'z'], style_answer_hint: ['A', 'C'] },
        ],
      },
      'doc',
    );
    assert.equal(hinted, 2);
    const [q1, q2, q3] = output.questions;
    assert.equal(q1!.correct_answer, 'B');
    assert.equal((q1!.source_location as Record<string, unknown>).answer_evidence, STYLE_HINT_EVIDENCE);
    assert.equal((q1!.source_location as Record<string, unknown>).external_id, 'x1');
    assert.equal(q2!.correct_answer, 'A');
    assert.notEqual((q2!.source_location as Record<string, unknown>).answer_evidence, STYLE_HINT_EVIDENCE);
    assert.deepEqual(q2!.options, [
      { label: 'A', content: '3' },
      { label: 'B', content: '4' },
    ]);
    assert.deepEqual(q3!.correct_answer, ['A', 'C']);
    assert.equal(q3!.type, 'MULTIPLE_CHOICE');
    assert.deepEqual(
      output.questions.map((q) => q.id),
      ['q1', 'q2', 'q3'],
    );
  });

  it('builds warning-safe questions from annotated segments when the parser found none', () => {
    const { output } = fromExternalPayload(
      {
        data: {
          questions: [],
          annotated_segments: [
            { text: 'Câu 1. Thủ đô của Việt Nam?', kind: 'question' },
            { text: 'A. Hà Nội', kind: 'option' },
            { text: 'B. Huế', kind: 'option' },
          ],
          warnings: ['LOW_QUALITY_SCAN', { code: 'X', message: 'y' }],
        },
      },
      'doc',
    );
    assert.equal(output.questions.length, 1);
    const q = output.questions[0]!;
    assert.equal(q.review_reason, 'ANNOTATED_FALLBACK');
    assert.ok((q.type_confidence as number) <= 0.5);
    assert.equal((q.options as unknown[]).length, 2);
    assert.deepEqual(
      output.warnings.map((w) => w.code),
      ['LOW_QUALITY_SCAN', 'X', ANNOTATED_FALLBACK],
    );
  });

  it('makes one essay per segment when the segments hold no numbered question', () => {
    const { output } = fromExternalPayload({ questions: [], segments: ['Viết đoạn văn về mùa xuân', '  '] }, 'doc');
    assert.equal(output.questions.length, 1);
    assert.equal(output.questions[0]!.type, 'ESSAY');
    assert.equal(output.questions[0]!.content, 'Viết đoạn văn về mùa xuân');
  });

  it('gives nothing and no fallback warning for an empty or unreadable payload', () => {
    for (const payload of [{}, null, 'text', { questions: 'no' }]) {
      const { output } = fromExternalPayload(payload, 'doc');
      assert.equal(output.questions.length, 0);
      assert.equal(output.warnings.length, 0);
    }
  });
});
