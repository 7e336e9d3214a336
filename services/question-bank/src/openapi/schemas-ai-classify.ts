import type { JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES } from '../store/question-models.js';
import { TAXONOMY_KINDS } from '../store/catalog-models.js';

/** A taxonomy candidate's members; a curriculum node adds how it matched. */
const CANDIDATE_PROPERTIES: JsonObject = {
  id: { type: 'string' },
  kind: { type: 'string', enum: [...TAXONOMY_KINDS] },
  code: { type: 'string' },
  name: { type: 'string' },
  organizationId: { type: ['string', 'null'] },
  origin: {
    type: 'string',
    enum: ['ORGANIZATION', 'GLOBAL', 'REQUEST'],
    description:
      'ORGANIZATION: a ref of X-Organization-Id; GLOBAL: a ref without organization (fallback); REQUEST: added by the request `taxonomy`.',
  },
  numericLevel: { type: ['integer', 'null'] },
  engineDifficulty: { type: ['string', 'null'] },
  subjectId: { type: ['string', 'null'] },
  gradeId: { type: ['string', 'null'] },
  curriculumId: { type: ['string', 'null'] },
};
const CANDIDATE_REQUIRED = ['id', 'kind', 'code', 'name', 'organizationId', 'origin'];

/** Response shapes of AI classification results. */
export const AI_CLASSIFY_SCHEMAS: JsonObject = {
  AiClassifyCandidate: {
    type: 'object',
    additionalProperties: false,
    properties: CANDIDATE_PROPERTIES,
    required: CANDIDATE_REQUIRED,
  },
  AiClassifyNodeCandidate: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...CANDIDATE_PROPERTIES,
      match: { type: 'string', enum: ['SUBJECT_GRADE_CURRICULUM', 'SUBJECT_GRADE'] },
    },
    required: [...CANDIDATE_REQUIRED, 'match'],
  },
  AiClassifyTypeCandidate: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      code: { type: 'string' },
      name: { type: 'string' },
      baseType: { type: 'string', enum: [...CORE_TYPES] },
      isSystem: { type: 'boolean' },
    },
    required: ['id', 'code', 'name', 'baseType', 'isSystem'],
  },
  AiClassifyClassification: {
    type: 'object',
    additionalProperties: false,
    properties: {
      type: { type: 'string', enum: [...CORE_TYPES] },
      customTypeId: { type: ['string', 'null'] },
      subjectId: { type: 'string' },
      educationLevelId: { type: ['string', 'null'] },
      gradeId: { type: ['string', 'null'] },
      gradeLevel: { type: 'integer' },
      curriculumId: { type: ['string', 'null'] },
      curriculumNodeId: { type: ['string', 'null'] },
      examTrackId: { type: ['string', 'null'] },
      questionSourceId: { type: ['string', 'null'] },
      difficultyLevelId: {
        type: ['string', 'null'],
        description: 'null when the difficulty came from the legacy deterministic sync.',
      },
      difficulty: { type: 'string' },
    },
    required: [
      'type',
      'customTypeId',
      'subjectId',
      'educationLevelId',
      'gradeId',
      'gradeLevel',
      'curriculumId',
      'curriculumNodeId',
      'examTrackId',
      'questionSourceId',
      'difficultyLevelId',
      'difficulty',
    ],
  },
  AiClassifyContextRow: {
    type: 'object',
    additionalProperties: false,
    properties: {
      questionId: { type: 'string' },
      status: { type: 'string', enum: ['DRAFT', 'PUBLISHED', 'ARCHIVED'] },
      content: { type: 'string', description: 'At most 4000 characters unless fullText.' },
      explanation: { type: ['string', 'null'], description: 'At most 2000 characters unless fullText.' },
      truncated: { type: 'boolean', description: 'Content, explanation or an option was cut.' },
      options: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: {
            label: { type: 'string' },
            content: { type: 'string', description: 'At most 500 characters unless fullText.' },
            isCorrect: { type: 'boolean' },
          },
          required: ['label', 'content', 'isCorrect'],
        },
      },
      subItems: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { label: { type: 'string' }, content: { type: 'string' }, correctBoolean: { type: 'boolean' } },
          required: ['label', 'content', 'correctBoolean'],
        },
      },
      classification: { $ref: '#/components/schemas/AiClassifyClassification' },
      missingFields: {
        type: 'array',
        items: { $ref: '#/components/schemas/AiClassifyField' },
        description: 'Requested fields that are empty (a legacy-synced difficultyLevelId counts as empty).',
      },
      targetFields: {
        type: 'array',
        items: { $ref: '#/components/schemas/AiClassifyField' },
        description: 'What the classifier should fill: every requested field with overwrite, else missingFields.',
      },
      needsDifficultyReclassification: { type: 'boolean' },
      candidateGrades: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' }, maxItems: 100 },
      candidateCurriculumNodes: {
        type: 'array',
        items: { $ref: '#/components/schemas/AiClassifyNodeCandidate' },
        maxItems: 160,
      },
      candidateCurriculumNodesTotal: {
        type: 'integer',
        minimum: 0,
        description: 'Matching nodes before the cap of 160.',
      },
    },
    required: [
      'questionId',
      'status',
      'content',
      'explanation',
      'truncated',
      'options',
      'subItems',
      'classification',
      'missingFields',
      'targetFields',
      'needsDifficultyReclassification',
      'candidateGrades',
      'candidateCurriculumNodes',
      'candidateCurriculumNodesTotal',
    ],
  },
  AiClassifyContext: {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: { type: 'string', enum: ['missing', 'all'] },
      overwrite: { type: 'boolean', description: 'The effective flag (true with mode=all).' },
      fields: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyField' } },
      rows: {
        type: 'array',
        items: { $ref: '#/components/schemas/AiClassifyContextRow' },
        description: 'Scoped rows in request order.',
      },
      missingIds: {
        type: 'array',
        items: { type: 'string' },
        description: "Ids that do not exist or are outside the writer's scope (never told apart).",
      },
      classifiedIds: {
        type: 'array',
        items: { type: 'string' },
        description: 'With onlyUnclassified: scoped rows left out because they are classified. Empty otherwise.',
      },
      candidates: {
        type: 'object',
        additionalProperties: false,
        properties: {
          questionTypes: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyTypeCandidate' } },
          subjects: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
          educationLevels: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
          curricula: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
          examTracks: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
          questionSources: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
          difficultyLevels: { type: 'array', items: { $ref: '#/components/schemas/AiClassifyCandidate' } },
        },
        required: [
          'questionTypes',
          'subjects',
          'educationLevels',
          'curricula',
          'examTracks',
          'questionSources',
          'difficultyLevels',
        ],
        description:
          'Shared candidates: ACTIVE type definitions and ACTIVE refs, organization first with global fallback (one per kind and code), plus request taxonomy.',
      },
    },
    required: ['mode', 'overwrite', 'fields', 'rows', 'missingIds', 'classifiedIds', 'candidates'],
  },
};
