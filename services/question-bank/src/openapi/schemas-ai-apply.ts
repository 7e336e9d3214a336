import type { JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES } from '../store/question-models.js';

/** Response shapes of applying an AI classification. */
export const AI_APPLY_SCHEMAS: JsonObject = {
  AiClassifyApplied: {
    type: 'object',
    additionalProperties: false,
    properties: {
      field: { $ref: '#/components/schemas/AiClassifyField' },
      value: { type: 'string', description: 'The stored id (or core type).' },
      previous: { type: ['string', 'null'] },
      confidence: { type: ['number', 'null'] },
    },
    required: ['field', 'value', 'previous', 'confidence'],
  },
  AiClassifySkipped: {
    type: 'object',
    additionalProperties: false,
    properties: {
      field: { $ref: '#/components/schemas/AiClassifyField' },
      reason: {
        type: 'string',
        enum: [
          'NOT_ACCEPTED',
          'NO_VALUE',
          'BELOW_THRESHOLD',
          'KEPT_EXISTING',
          'UNRESOLVED',
          'UNCHANGED',
          'DERIVED_FROM_CUSTOM_TYPE',
          'BREAKS_PUBLISHED',
        ],
      },
    },
    required: ['field', 'reason'],
  },
  AiClassifyItemResult: {
    type: 'object',
    additionalProperties: false,
    properties: {
      questionId: { type: 'string' },
      status: { type: 'string', enum: ['UPDATED', 'UNCHANGED', 'NOT_FOUND'] },
      applied: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyApplied' } },
      derived: {
        type: 'object',
        additionalProperties: false,
        properties: {
          type: { type: 'string', enum: [...CORE_TYPES] },
          customTypeId: { type: 'null' },
          gradeLevel: { type: 'integer' },
          difficulty: { type: 'string' },
        },
        required: [],
        description:
          "Values set as consequences: type from a custom type's baseType, gradeLevel from numericLevel, difficulty from engineDifficulty, customTypeId cleared by a type of another base type.",
      },
      skipped: { type: 'array', items: { $ref: '#/components/schemas/AiClassifySkipped' } },
    },
    required: ['questionId', 'status', 'applied', 'derived', 'skipped'],
  },
  AiClassifyApplyResult: {
    type: 'object',
    additionalProperties: false,
    properties: {
      items: {
        type: 'array',
        items: { $ref: '#/components/schemas/AiClassifyItemResult' },
        description: 'In request order.',
      },
      requested: { type: 'integer', minimum: 0 },
      updated: { type: 'integer', minimum: 0 },
      notFound: { type: 'integer', minimum: 0 },
    },
    required: ['items', 'requested', 'updated', 'notFound'],
  },
};
