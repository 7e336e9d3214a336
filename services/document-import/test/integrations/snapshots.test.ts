import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { buildSnapshots } from '../../src/integrations/index.js';
import type { QasOutput } from '../../src/parser/index.js';

const output = (questions: Array<Record<string, unknown>>): QasOutput => ({
  document_id: 'd',
  latency_ms: 1,
  questions,
  groups: [],
  warnings: [],
  stats: {},
});

describe('exam snapshots from a QAS output', () => {
  it('maps questions through the ingest mapping, scores by points, true/false statements as options', () => {
    const out = output([
      {
        id: 'q1',
        type: 'SINGLE_CHOICE',
        content: 'Tính $x^2$ [[media:1]]',
        points: null,
        options: [
          { label: 'A', content: '1' },
          { label: 'B', content: '2' },
        ],
        correct_answer: 'B',
      },
      {
        id: 'q2',
        type: 'TRUE_FALSE_GROUP',
        content: 'Xét các mệnh đề',
        points: 1,
        options: [],
        sub_items: [
          { label: 'a', content: 'P', correct_boolean: true },
          { label: 'b', content: 'Q', correct_boolean: false },
        ],
        correct_answer: { a: true, b: false },
      },
      { id: 'q3', type: 'ESSAY', content: 'Không nhập', points: 2, options: [] },
    ]);
    const snaps = buildSnapshots(out, {
      documentId: 'd',
      questionIds: ['B1', 'B2'],
      questions: [
        { sourceQuestionId: 'q2', questionId: 'B2' },
        { sourceQuestionId: 'q1', questionId: 'B1' },
      ],
    });
    assert.deepEqual(
      snaps.map((s) => [s.questionId, s.orderIndex, s.score, s.scoringRule.mode]),
      [
        ['B1', 1, 1, 'EXACT'],
        ['B2', 2, 1, 'THPT_TRUE_FALSE_LADDER'],
      ],
    );
    assert.equal(snaps[0]!.contentText, 'Tính x^2');
    assert.deepEqual(snaps[1]!.optionOrder, ['B2:a', 'B2:b']);
    assert.deepEqual(snaps[1]!.correctAnswer, { a: true, b: false });
  });

  it('falls back to position when the ingest answer has no per-question mapping', () => {
    const out = output([
      { id: 'q1', type: 'ESSAY', content: 'A', points: 3 },
      { id: 'q2', type: 'ESSAY', content: 'B' },
    ]);
    const snaps = buildSnapshots(out, { documentId: 'd', questionIds: ['X', 'Y'] });
    assert.deepEqual(
      snaps.map((s) => [s.questionId, s.score]),
      [
        ['X', 3],
        ['Y', 1],
      ],
    );
  });
});
