import { counterObject, type JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES } from '../store/question-models.js';

/** Response shapes of the DOCX ingest. */
export const INGEST_SCHEMAS: JsonObject = {
  IngestQuestionSummary: {
    type: 'object',
    additionalProperties: false,
    required: ['sourceQuestionId', 'questionId', 'type', 'groupId', 'publishable'],
    properties: {
      sourceQuestionId: { type: 'string' },
      questionId: { type: 'string' },
      type: { type: 'string', enum: [...CORE_TYPES] },
      groupId: { type: ['string', 'null'] },
      publishable: {
        type: 'boolean',
        description:
          "False: the question breaks its base type's PUBLISHED rules (it is still imported, as DRAFT, with INGEST_NOT_PUBLISHABLE).",
      },
    },
  },
  IngestResult: {
    type: 'object',
    additionalProperties: false,
    required: [
      'ingestId',
      'documentId',
      'sourceImportJobId',
      'status',
      'questionIds',
      'questions',
      'groups',
      'counts',
      'warnings',
      'createdAt',
    ],
    properties: {
      ingestId: { type: 'string', description: 'The ledger id.' },
      documentId: { type: 'string' },
      sourceImportJobId: { type: ['string', 'null'] },
      status: { const: 'COMPLETE' },
      questionIds: {
        type: 'array',
        items: { type: 'string' },
        description: 'In document order; the same on every replay.',
      },
      questions: { type: 'array', items: { $ref: '#/components/schemas/IngestQuestionSummary' } },
      groups: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['sourceGroupId', 'groupId'],
          properties: { sourceGroupId: { type: 'string' }, groupId: { type: 'string' } },
        },
      },
      counts: counterObject(['questions', 'groups', 'options', 'subItems', 'mediaRefs', 'formulaRefs'], {
        closed: true,
      }),
      warnings: {
        type: 'array',
        description:
          "The parser's warnings as received, then the ingest's own (INGEST_TYPE_INFERRED, INGEST_NOT_PUBLISHABLE, INGEST_ANSWER_UNKNOWN_LABEL, INGEST_SUB_ITEM_ANSWER_MISSING, INGEST_SUB_ITEMS_BEYOND_D), each with question_id.",
        items: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' }, question_id: { type: 'string' } },
        },
      },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
};
