import type { JsonObject } from '../../../kit/src/http/index.js';
import { TAXONOMY_KINDS } from '../store/catalog-models.js';
import { CORE_TYPES } from '../store/question-models.js';

/** Response shapes of the catalog: groups, folders, question types, taxonomy refs and backfill counts. */
export const CATALOG_SCHEMAS: JsonObject = {
  QuestionGroup: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      organizationId: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      createdById: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      title: { type: 'string' },
      contentText: { type: 'string' },
      contentJson: { type: ['object', 'array', 'null'] },
      mediaJson: { type: ['object', 'array', 'null'] },
      sourceMetadataJson: { type: ['object', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      _count: {
        type: 'object',
        additionalProperties: false,
        properties: { questions: { type: 'integer', minimum: 0 } },
        required: ['questions'],
      },
    },
    required: ['id', 'organizationId', 'createdById', 'title', 'contentText', 'createdAt', 'updatedAt', '_count'],
  },
  QuestionFolder: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      organizationId: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      createdById: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      name: { type: 'string' },
      parentId: { type: ['string', 'null'], pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      visibility: { type: 'string', enum: ['PRIVATE', 'ORGANIZATION', 'SHARED_LIBRARY', 'PUBLIC'] },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
    required: ['id', 'organizationId', 'createdById', 'name', 'parentId', 'visibility', 'createdAt', 'updatedAt'],
  },
  FolderDeleted: {
    type: 'object',
    additionalProperties: false,
    properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' }, deleted: { const: true } },
    required: ['id', 'deleted'],
  },
  QuestionType: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      organizationId: { type: ['string', 'null'] },
      createdById: { type: ['string', 'null'] },
      code: { type: 'string' },
      name: { type: 'string' },
      baseType: { type: 'string', enum: [...CORE_TYPES] },
      isSystem: { type: 'boolean' },
      status: { type: 'string', enum: ['ACTIVE', 'ARCHIVED'] },
      usageCount: { type: 'integer', minimum: 0, description: 'Omitted with summary=true|1.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
    required: ['id', 'organizationId', 'createdById', 'code', 'name', 'baseType', 'isSystem', 'status', 'createdAt'],
  },
  TypeDeleted: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      deleted: { type: 'boolean' },
      archived: { type: 'boolean' },
    },
    required: ['id', 'deleted', 'archived'],
  },
  BulkFailure: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      code: { type: 'string', description: 'QUESTION_TYPE_NOT_FOUND or FORBIDDEN' },
    },
    required: ['id', 'code'],
  },
  TypeBulkStatusResult: {
    type: 'object',
    additionalProperties: false,
    properties: {
      requested: { type: 'integer', minimum: 0 },
      updated: { type: 'integer', minimum: 0 },
      failed: { type: 'array', items: { $ref: '#/components/schemas/BulkFailure' } },
    },
    required: ['requested', 'updated', 'failed'],
  },
  TypeBulkDeleteResult: {
    type: 'object',
    additionalProperties: false,
    properties: {
      requested: { type: 'integer', minimum: 0 },
      deleted: { type: 'integer', minimum: 0 },
      archived: { type: 'integer', minimum: 0 },
      failed: { type: 'array', items: { $ref: '#/components/schemas/BulkFailure' } },
    },
    required: ['requested', 'deleted', 'archived', 'failed'],
  },
  TaxonomyRef: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,128}$' },
      kind: { type: 'string', enum: [...TAXONOMY_KINDS] },
      code: { type: 'string' },
      name: { type: 'string' },
      organizationId: { type: ['string', 'null'] },
      status: { type: 'string' },
      numericLevel: { type: ['integer', 'null'] },
      engineDifficulty: { type: ['string', 'null'] },
      updatedAt: { type: 'string', format: 'date-time' },
      subjectId: {
        type: ['string', 'null'],
        maxLength: 200,
        description:
          'For a CURRICULUM_NODE: its subject (the id or code of that ref); AI classification context matches candidate nodes on it.',
      },
      gradeId: {
        type: ['string', 'null'],
        maxLength: 200,
        description:
          'For a CURRICULUM_NODE: its grade (the id or code of that ref); AI classification context matches candidate nodes on it.',
      },
      curriculumId: {
        type: ['string', 'null'],
        maxLength: 200,
        description:
          'For a CURRICULUM_NODE: its curriculum (the id or code of that ref); AI classification context matches candidate nodes on it.',
      },
    },
    required: ['id', 'kind', 'code', 'name', 'organizationId', 'status'],
  },
  PutCount: {
    type: 'object',
    additionalProperties: false,
    properties: { count: { type: 'integer', minimum: 0 } },
    required: ['count'],
  },
};
