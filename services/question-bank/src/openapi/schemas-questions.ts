import type { JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES } from '../store/question-models.js';

/** Response shapes of questions: the hydrated question, its versions, the legacy views, list and bulk results. */
export const QUESTION_SCHEMAS: JsonObject = {
  QVersion: {
    type: ['object', 'null'],
    additionalProperties: true,
    required: ['id', 'questionId', 'versionNumber'],
    properties: {
      id: { type: 'string' },
      questionId: { type: 'string' },
      versionNumber: { type: 'integer', minimum: 1 },
      createdAt: { type: 'string', format: 'date-time' },
      answerKeysJson: { description: 'view=editor only' },
      subItemsJson: { description: 'view=editor only' },
      scoringRuleJson: { description: 'view=editor only' },
    },
  },
  Question: {
    type: 'object',
    additionalProperties: true,
    required: [
      'id',
      'content',
      'type',
      'status',
      'subjectId',
      'gradeLevel',
      'difficulty',
      'sourceType',
      'visibility',
      'organizationId',
      'createdById',
      'currentVersionId',
      'options',
      'mediaRefs',
      'formulaRefs',
      'tags',
      'createdAt',
      'updatedAt',
    ],
    description:
      'A question with its current version and the hydrated members (`_count`, named refs, createdBy, organization, customType, group, folder) of the read models.',
    properties: {
      id: { type: 'string' },
      content: { type: 'string' },
      type: { enum: [...CORE_TYPES] },
      status: { enum: ['DRAFT', 'PUBLISHED', 'ARCHIVED'] },
      subjectId: { type: 'string' },
      gradeLevel: { type: 'integer' },
      difficulty: { type: 'string' },
      sourceType: { type: 'string' },
      visibility: { type: 'string' },
      organizationId: { type: ['string', 'null'] },
      createdById: { type: ['string', 'null'] },
      currentVersionId: { type: ['string', 'null'] },
      options: { type: 'array', items: { type: 'object', required: ['id', 'label', 'content', 'isCorrect'] } },
      mediaRefs: { type: 'array' },
      formulaRefs: { type: 'array' },
      tags: { type: 'array', items: { type: 'string' } },
      currentVersion: { $ref: '#/components/schemas/QVersion' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  BulkStatusResult: {
    type: 'object',
    additionalProperties: false,
    required: ['requested', 'updated'],
    properties: {
      requested: { type: 'integer', minimum: 0, description: 'Distinct ids asked for.' },
      updated: {
        type: 'integer',
        minimum: 0,
        description:
          'In-scope rows now in the requested status (rows already in it count; out-of-scope and unknown ids do not).',
      },
    },
  },
  DeleteQuestionResult: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'deleted', 'archived'],
    properties: { id: { type: 'string' }, deleted: { type: 'boolean' }, archived: { type: 'boolean' } },
  },
  SearchProjectionEnvelope: {
    type: 'object',
    additionalProperties: false,
    required: ['sourceService', 'entityType', 'documents', 'nextCursor', 'hasMore', 'meta'],
    properties: {
      sourceService: { const: 'question-bank-service' },
      entityType: { const: 'QUESTION' },
      documents: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'organizationId', 'sourceVersion'],
          description:
            'The document of search.projection.changed.v1 (kafka/schemas) plus its sourceVersion: no answer keys, isCorrect, scoring rule, explanation, sourceMetadataJson or URL query strings.',
          not: {
            anyOf: [
              { required: ['answerKeys'] },
              { required: ['scoringRule'] },
              { required: ['sourceMetadataJson'] },
              { required: ['explanation'] },
            ],
          },
        },
      },
      nextCursor: { type: ['string', 'null'] },
      hasMore: { type: 'boolean' },
      meta: {
        type: 'object',
        required: ['limit', 'count'],
        properties: { limit: { type: 'integer' }, count: { type: 'integer' } },
      },
    },
  },
  ListMeta: {
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
      total: { type: 'integer', minimum: 0 },
      totalPages: { type: 'integer', minimum: 0 },
    },
    required: ['page', 'limit', 'total', 'totalPages'],
  },
};
