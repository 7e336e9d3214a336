import type { JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES } from '../store/question-models.js';
import { TAXONOMY_KINDS } from '../store/catalog-models.js';

/** The taxonomy members of a hydrated question, in document order (a blueprint's refs end with them too). */
export const TAXONOMY_REF_MEMBERS = [
  'subject',
  'chapter',
  'topic',
  'educationLevel',
  'grade',
  'curriculum',
  'curriculumNode',
  'examTrack',
  'questionSource',
  'difficultyLevel',
];

/** Response shapes of the hydrated members of a question (named refs and counts). */
export const HYDRATION_SCHEMAS: JsonObject = {
  QNamedRef: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      kind: { type: 'string', enum: [...TAXONOMY_KINDS] },
      code: { type: 'string' },
      name: { type: 'string' },
      numericLevel: { type: ['integer', 'null'] },
      engineDifficulty: { type: ['string', 'null'] },
    },
    required: ['id', 'kind', 'code', 'name', 'numericLevel', 'engineDifficulty'],
  },
  QHydration: {
    type: 'object',
    description:
      'What hydrateQuestions adds to a question; every member is always present (null or zero placeholders when no read-model row exists).',
    required: ['_count', 'createdBy', 'organization', 'customType', 'group', 'folder', ...TAXONOMY_REF_MEMBERS],
    properties: {
      _count: {
        type: 'object',
        additionalProperties: false,
        properties: {
          examItems: { type: 'integer', minimum: 0 },
          attemptItems: { type: 'integer', minimum: 0 },
          answers: { type: 'integer', minimum: 0 },
        },
        required: ['examItems', 'attemptItems', 'answers'],
      },
      createdBy: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: { id: { type: 'string' }, fullName: { type: 'string' }, email: { type: 'string' } },
            required: ['id', 'fullName', 'email'],
          },
          { type: 'null' },
        ],
      },
      organization: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } },
            required: ['id', 'name', 'slug'],
          },
          { type: 'null' },
        ],
      },
      customType: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: { type: 'string' },
              code: { type: 'string' },
              name: { type: 'string' },
              baseType: { type: 'string', enum: [...CORE_TYPES] },
              status: { type: 'string', enum: ['ACTIVE', 'ARCHIVED'] },
            },
            required: ['id', 'code', 'name', 'baseType', 'status'],
          },
          { type: 'null' },
        ],
      },
      group: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: { type: 'string' },
              title: { type: 'string' },
              contentText: { type: 'string' },
              contentJson: { type: ['object', 'array', 'null'] },
              mediaJson: { type: ['object', 'array', 'null'] },
            },
            required: ['id', 'title', 'contentText', 'contentJson', 'mediaJson'],
          },
          { type: 'null' },
        ],
      },
      folder: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: { type: 'string' },
              name: { type: 'string' },
              parentId: { type: ['string', 'null'] },
              visibility: { type: 'string', enum: ['PRIVATE', 'ORGANIZATION', 'SHARED_LIBRARY', 'PUBLIC'] },
            },
            required: ['id', 'name', 'parentId', 'visibility'],
          },
          { type: 'null' },
        ],
      },
      subject: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      chapter: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      topic: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      educationLevel: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      grade: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      curriculum: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      curriculumNode: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      examTrack: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      questionSource: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
      difficultyLevel: { anyOf: [{ $ref: '#/components/schemas/QNamedRef' }, { type: 'null' }] },
    },
  },
};
