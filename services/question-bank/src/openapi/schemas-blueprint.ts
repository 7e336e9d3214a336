import type { JsonObject } from '../../../kit/src/http/index.js';
import { CORE_TYPES, TAXONOMY_FIELDS } from '../store/question-models.js';
import { TAXONOMY_REF_MEMBERS } from './schemas-hydration.js';

/** A blueprint item's display refs: these members of a hydrated question, each by reference to its shape. */
const BLUEPRINT_REFS = ['_count', 'createdBy', 'organization', 'customType', ...TAXONOMY_REF_MEMBERS];

/** Response shapes of blueprint selection. */
export const BLUEPRINT_SCHEMAS: JsonObject = {
  BlueprintRuleOutcome: {
    type: 'object',
    additionalProperties: false,
    required: ['index', 'requested', 'selected', 'shortfall', 'questionIds'],
    properties: {
      index: { type: 'integer', minimum: 0, description: "The rule's position in the request." },
      requested: { type: 'integer', minimum: 1 },
      selected: { type: 'integer', minimum: 0 },
      shortfall: {
        type: 'integer',
        minimum: 0,
        description: 'requested - selected; above 0 when the rule could not be filled.',
      },
      questionIds: { type: 'array', items: { type: 'string' }, description: 'What the rule took, in its order.' },
    },
  },
  BlueprintOption: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'label', 'content', 'contentJson', 'isCorrect', 'order'],
    properties: {
      id: { type: 'string' },
      label: { type: 'string' },
      content: { type: 'string' },
      contentJson: {},
      isCorrect: { type: 'boolean' },
      order: { type: 'integer', minimum: 0, description: '0-based position (the stored order).' },
    },
  },
  BlueprintSnapshot: {
    type: 'object',
    additionalProperties: false,
    description:
      "A by-value copy of the question at its current version, in the shapes the attempt service grades from (DESIGN.md 'Answer keys and grading'). The body fields come from the current version row; hydration never changes them.",
    required: [
      'questionId',
      'questionVersionId',
      'versionNumber',
      'type',
      'customTypeId',
      'content',
      'contentText',
      'contentJson',
      'explanation',
      'explanationJson',
      'options',
      'optionOrder',
      'answerKeys',
      'subItems',
      'scoringRule',
      'scoringRuleDefaulted',
      'mediaRefs',
      'formulaRefs',
      'groupId',
      'group',
      'tags',
      'taxonomy',
    ],
    properties: {
      questionId: { type: 'string' },
      questionVersionId: {
        type: ['string', 'null'],
        description: "The question's currentVersionId: the version this snapshot copies.",
      },
      versionNumber: { type: 'integer' },
      type: { type: 'string', enum: [...CORE_TYPES] },
      customTypeId: { type: ['string', 'null'] },
      content: { type: 'string' },
      contentText: {
        type: 'string',
        description: "The plain-text content (same as content), the attempt start request's name for it.",
      },
      contentJson: {},
      explanation: { type: ['string', 'null'] },
      explanationJson: {},
      options: { type: 'array', items: { $ref: '#/components/schemas/BlueprintOption' } },
      optionOrder: {
        type: 'array',
        items: { type: 'string' },
        description: 'Option ids in stored order (the attempt service shuffles its own copy).',
      },
      answerKeys: {
        type: ['object', 'null'],
        description:
          'The stored keys; when they name no correct option but options carry isCorrect, completed with { correctOptionIds, correctLabels } from the options. Short answers: { acceptedAnswers, tolerance? }. TRUE_FALSE_GROUP keys are subItems[].correctBoolean.',
      },
      subItems: { type: ['array', 'null'], items: { $ref: '#/components/schemas/QSubItem' } },
      scoringRule: {
        type: 'object',
        required: ['mode', 'maxScore'],
        properties: { mode: { type: 'string' }, maxScore: { type: 'number' } },
        description:
          'The stored rule, else the default: { mode: THPT_TRUE_FALSE_LADDER, maxScore: 1 } for TRUE_FALSE_GROUP, { mode: EXACT, maxScore: 1 } otherwise.',
      },
      scoringRuleDefaulted: {
        type: 'boolean',
        description: 'true when scoringRule is the default, not a stored rule.',
      },
      mediaRefs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' } },
          description: 'A media reference as stored (see QMediaRef): asset id, URL, object metadata; never bytes.',
        },
      },
      formulaRefs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' } },
          description: 'A formula reference as stored (see QFormulaRef): latex, html, mathml.',
        },
      },
      groupId: { type: ['string', 'null'] },
      group: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'title', 'contentText', 'contentJson', 'mediaJson'],
            properties: {
              id: { type: 'string' },
              title: { type: 'string' },
              contentText: { type: 'string' },
              contentJson: {},
              mediaJson: {},
            },
          },
          { type: 'null' },
        ],
        description: "The question group's passage, by value, when the question is grouped; null otherwise.",
      },
      tags: { type: 'array', items: { type: 'string' } },
      taxonomy: {
        type: 'object',
        additionalProperties: false,
        required: ['subjectId', 'gradeLevel', 'difficulty', ...TAXONOMY_FIELDS],
        properties: {
          subjectId: { type: 'string' },
          gradeLevel: { type: 'integer' },
          difficulty: { type: 'string' },
          educationLevelId: { type: ['string', 'null'] },
          gradeId: { type: ['string', 'null'] },
          curriculumId: { type: ['string', 'null'] },
          curriculumNodeId: { type: ['string', 'null'] },
          examTrackId: { type: ['string', 'null'] },
          questionSourceId: { type: ['string', 'null'] },
          difficultyLevelId: { type: ['string', 'null'] },
          chapterId: { type: ['string', 'null'] },
          topicId: { type: ['string', 'null'] },
        },
      },
    },
  },
  BlueprintRefs: {
    type: 'object',
    additionalProperties: false,
    required: [...BLUEPRINT_REFS],
    properties: Object.fromEntries(
      BLUEPRINT_REFS.map((member) => [member, { $ref: `#/components/schemas/QHydration/properties/${member}` }]),
    ),
    description:
      'Display data hydrated in one batch over the finished selection (custom type, taxonomy names, usage counts, author, organization); placeholders (null, zero counts) when a read-model row is missing. Not part of the snapshot.',
  },
  BlueprintItem: {
    type: 'object',
    additionalProperties: false,
    required: ['ruleIndex', 'position', 'questionId', 'snapshot', 'refs'],
    properties: {
      ruleIndex: { type: 'integer', minimum: 0 },
      position: { type: 'integer', minimum: 0, description: "Position within its rule's picks." },
      questionId: { type: 'string' },
      snapshot: { $ref: '#/components/schemas/BlueprintSnapshot' },
      refs: { $ref: '#/components/schemas/BlueprintRefs' },
    },
  },
};
